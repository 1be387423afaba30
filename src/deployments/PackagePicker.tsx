// The package of a new deployment: uploaded packages only (a package without its file cannot be
// sent, 8100), newest first, searched as typed; the chosen one's type, version, models and activation.
import { useMemo } from 'react';
import { useInput, useTranslate } from 'ra-core';
import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import { deploymentPackage } from '../../resources/deploymentPackage';
import type { PageResult } from '../../resources/types';
import { formatDateTime } from '../generic/format';
import { useLiveQuery } from './useLiveQuery';

export interface PackageRecord {
  id: number;
  name: string;
  resourceType: string;
  version: string;
  adaptedModels: string;
  activationTime: string | null;
  uploadStatus: string;
}

/** The newest uploaded packages offered (typing filters them). */
const OFFERED = 100;

export const modelsOfPackage = (pkg: Pick<PackageRecord, 'adaptedModels'> | undefined): string[] =>
  (pkg?.adaptedModels ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);

/** The newest uploaded packages, plus `packageId` when it is older than those (a preset). */
export const useUploadedPackages = (packageId: number | null) => {
  const listed = useLiveQuery(['uploadedPackages'], (http, signal) =>
    http.post<PageResult<PackageRecord>>(
      `${deploymentPackage.apiPath}/page`,
      { pageNum: 1, pageSize: OFFERED, uploadStatus: 'uploaded', sort: 'createTime', order: 'DESC' },
      { signal, silent: true },
    ),
  );
  const missing = packageId !== null && listed.data !== undefined && !listed.data.list.some((pkg) => pkg.id === packageId);
  const extra = useLiveQuery(
    ['package', packageId],
    missing ? (http, signal) => http.get<PackageRecord>(`${deploymentPackage.apiPath}/${packageId}`, undefined, { signal, silent: true }) : null,
  );
  const packages = useMemo(() => {
    const list = listed.data?.list ?? [];
    return extra.data && extra.data.uploadStatus === 'uploaded' && !list.some((pkg) => pkg.id === extra.data!.id) ? [extra.data, ...list] : list;
  }, [listed.data, extra.data]);
  return { packages, isPending: listed.isPending, error: listed.error, reload: listed.reload };
};

const typeLabel = (translate: ReturnType<typeof useTranslate>, type: string) => translate(`resources.deploymentPackage.enums.resourceType.${type}`, { _: type });

export const PackagePicker = ({ packages, isPending }: { packages: PackageRecord[]; isPending: boolean }) => {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source: 'packageId' });
  const chosen = packages.find((pkg) => pkg.id === field.value) ?? null;
  const error = fieldState.error?.message;
  return (
    <Box>
      <Autocomplete
        data-testid="package-picker"
        options={packages}
        value={chosen}
        loading={isPending}
        onChange={(_event, next) => field.onChange(next?.id ?? null)}
        onBlur={field.onBlur}
        getOptionLabel={(pkg) => `${pkg.name} · ${pkg.version}`}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        renderOption={({ key, ...props }, pkg) => (
          <Box component="li" key={key} {...props}>
            <Box>
              <Typography variant="body2">
                {pkg.name} · {pkg.version}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {typeLabel(translate, pkg.resourceType)} · {pkg.adaptedModels}
              </Typography>
            </Box>
          </Box>
        )}
        noOptionsText={translate('deployments.form.noPackages')}
        loadingText={translate('deployments.form.loading')}
        renderInput={(params) => (
          <TextField
            {...params}
            required
            name="packageId"
            label={translate('deployments.form.package')}
            error={Boolean(error)}
            helperText={error ? translate(error, { _: error }) : translate('deployments.form.packageHelp')}
          />
        )}
      />
      {chosen ? (
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mt: 1 }} data-testid="chosen-package">
          {[
            ['resourceType', typeLabel(translate, chosen.resourceType)],
            ['version', chosen.version],
            ['adaptedModels', chosen.adaptedModels],
            ['activationTime', chosen.activationTime ? formatDateTime(chosen.activationTime) : translate('deployments.form.activateAtOnce')],
          ].map(([name, value]) => (
            <Box key={name} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {translate(`resources.deploymentPackage.fields.${name}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
      ) : null}
    </Box>
  );
};
