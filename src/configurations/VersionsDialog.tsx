// The saved versions of a configuration (docs/machine-configuration.md "Versions"): newest first, who saved each
// and the package made from it; two versions compared as a readable diff; a version made into a package.
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { useCanAccess } from 'react-admin';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import { deploymentPackage } from '../../resources/deploymentPackage';
import type { ResourceDeclaration } from '../../resources/types';
import { formatDateTime } from '../generic/format';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { resourceNameOf } from '../providers/registry';
import { DiffView } from './DiffView';
import { PackageForm } from './PackageForm';
import type { VersionDiff, VersionPage } from './types';

export const VersionsDialog = ({ declaration, onClose }: { declaration: ResourceDeclaration; onClose: () => void }) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const { canAccess: mayPackage } = useCanAccess({ action: 'create', resource: resourceNameOf(deploymentPackage) });
  const versions = useApiQuery(['configurationVersions', declaration.name], (client, signal) =>
    client.get<VersionPage>(`${declaration.apiPath}/versions`, { pageNum: 1, pageSize: 100 }, { signal }),
  );
  const list = versions.data?.list ?? [];
  const [from, setFrom] = useState<number | ''>('');
  const [to, setTo] = useState<number | ''>('');
  const [diff, setDiff] = useState<VersionDiff | null>(null);
  const [packaging, setPackaging] = useState<number | null>(null);
  const latest = list.at(0)?.version;
  const fromValue: number | '' = from === '' ? (list.at(1)?.version ?? '') : from;
  const toValue: number | '' = to === '' ? (latest ?? '') : to;

  const compare = async () => {
    if (fromValue === '' || toValue === '') return;
    setPackaging(null);
    setDiff(await http.get<VersionDiff>(`${declaration.apiPath}/diff`, { from: fromValue, to: toValue }));
  };

  const versionSelect = (label: string, value: number | '', onChange: (next: number) => void, testId: string) => (
    <TextField
      select
      size="small"
      label={translate(label)}
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ width: 160 }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {list.map((row) => (
        <MenuItem key={row.version} value={row.version}>
          {row.version}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="configuration-versions-title" data-testid="configuration-versions-dialog">
      <DialogTitle id="configuration-versions-title">
        {translate(`resources.${declaration.name}.name`, { smart_count: 2 })} · {translate('machineConfiguration.versions.title')}
      </DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('machineConfiguration.versions.intro')}
        </Typography>
        <LoadState isPending={versions.isPending} error={versions.error} onRetry={versions.reload} hasData={Boolean(versions.data)}>
          {list.length === 0 ? (
            <Typography data-testid="configuration-versions-none">{translate('machineConfiguration.versions.none')}</Typography>
          ) : (
            <>
              <Box sx={{ maxHeight: 260, overflowY: 'auto', mb: 2 }}>
                <Table size="small" stickyHeader aria-label={translate('machineConfiguration.versions.title')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('machineConfiguration.versions.version')}</TableCell>
                      <TableCell>{translate('machineConfiguration.versions.items')}</TableCell>
                      <TableCell>{translate('machineConfiguration.versions.createdBy')}</TableCell>
                      <TableCell>{translate('machineConfiguration.versions.createTime')}</TableCell>
                      <TableCell>{translate('machineConfiguration.versions.package')}</TableCell>
                      <TableCell />
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {list.map((row) => (
                      <TableRow key={row.version} data-testid={`configuration-version-${row.version}`}>
                        <TableCell>
                          {row.version}
                          {row.version === latest ? ` (${translate('machineConfiguration.versions.current')})` : ''}
                        </TableCell>
                        <TableCell>{row.itemCount}</TableCell>
                        <TableCell>{row.createdByName ?? ''}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.createTime)}</TableCell>
                        <TableCell>{row.packageName ?? ''}</TableCell>
                        <TableCell align="right">
                          {mayPackage ? (
                            <Button
                              size="small"
                              onClick={() => {
                                setDiff(null);
                                setPackaging(row.version);
                              }}
                              data-testid={`configuration-make-package-${row.version}`}
                            >
                              {translate('machineConfiguration.versions.makePackage')}
                            </Button>
                          ) : null}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
              <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', mb: 2 }}>
                {versionSelect('machineConfiguration.versions.compareFrom', fromValue, setFrom, 'configuration-compare-from')}
                {versionSelect('machineConfiguration.versions.compareTo', toValue, setTo, 'configuration-compare-to')}
                <Button variant="outlined" sx={{ flexShrink: 0 }} onClick={() => void compare()} disabled={fromValue === '' || toValue === ''} data-testid="configuration-compare">
                  {translate('machineConfiguration.versions.compare')}
                </Button>
              </Box>
              {diff ? <DiffView declaration={declaration} diff={diff} /> : null}
              {packaging !== null ? (
                <PackageForm
                  key={packaging}
                  path={`${declaration.apiPath}/versions/${packaging}/package`}
                  initial={{ name: `${declaration.name}-v${packaging}`, version: `v${packaging}`, adaptedModels: 'H30', activationTime: '', description: '' }}
                  title={translate('machineConfiguration.package.title', { version: packaging })}
                  resourceType={CONFIGURATION_KINDS[declaration.name]?.resourceType ?? 'configuration'}
                  introKey="machineConfiguration.package.intro"
                  testId="configuration-package"
                  onMade={versions.reload}
                />
              ) : null}
            </>
          )}
        </LoadState>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('machineConfiguration.versions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
