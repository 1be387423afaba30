// Content made into a package: a saved configuration version (docs/machine-configuration.md "Packages") or a
// generated config file ("Generate config file"): name, package version, models, activation time and description;
// the server's issues come back onto their inputs. Once made, "Deploy it" opens the new-deployment form with the
// package (docs/deployments.md).
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { newDeploymentPath } from '../deployments/paths';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ApiError } from '../providers/httpTypes';
import { issuesOf } from '../providers/wire';
import type { MadePackage } from './types';

const FIELDS = ['name', 'version', 'adaptedModels', 'activationTime', 'description'] as const;
type Field = (typeof FIELDS)[number];
export type PackageValues = Record<Field, string>;

export interface PackageFormProps {
  /** Where the package is made (POST), and what the body carries besides the form's fields. */
  path: string;
  extraBody?: Record<string, unknown>;
  initial: PackageValues;
  title: string;
  /** The package's resource type, and the intro text that names it (`%{type}`). */
  resourceType: string;
  introKey: string;
  /** Prefix of the form's test ids. */
  testId: string;
  onMade?: () => void;
}

export const PackageForm = ({ path, extraBody, initial, title, resourceType, introKey, testId, onMade }: PackageFormProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [values, setValues] = useState<PackageValues>(initial);
  const [issues, setIssues] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [made, setMade] = useState<MadePackage | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setIssues({});
    setFailure(null);
    try {
      const body = {
        ...extraBody,
        name: values.name,
        version: values.version || undefined,
        adaptedModels: values.adaptedModels,
        description: values.description || null,
        activationTime: values.activationTime ? new Date(values.activationTime).toISOString() : null,
      };
      setMade(await http.post<MadePackage>(path, body, { silent: true }));
      onMade?.();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const found = issuesOf(error.data) ?? [];
      setIssues(Object.fromEntries(found.filter((issue) => (FIELDS as readonly string[]).includes(issue.field)).map((issue) => [issue.field, issue.message])));
      if (!found.length) setFailure(error.message);
    } finally {
      setSaving(false);
    }
  };

  if (made) {
    return (
      <Alert
        severity="success"
        data-testid={`${testId}-made`}
        action={
          <Button
            component={RouterLink}
            to={newDeploymentPath({ packageId: made.id, models: made.adaptedModels.split(',').map((model) => model.trim()) })}
            variant="outlined"
            size="small"
          >
            {translate('machineConfiguration.package.deploy')}
          </Button>
        }
      >
        {translate('machineConfiguration.package.created', { name: made.name })}
      </Alert>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 1.5 }} data-testid={`${testId}-form`}>
      <Typography variant="subtitle2">{title}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(introKey, { type: translate(`resources.deploymentPackage.enums.resourceType.${resourceType}`) })}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1.5 }}>
        {FIELDS.map((field) => (
          <TextField
            key={field}
            size="small"
            type={field === 'activationTime' ? 'datetime-local' : 'text'}
            label={translate(`machineConfiguration.package.${field}`)}
            value={values[field]}
            onChange={(event) => setValues({ ...values, [field]: event.target.value })}
            error={Boolean(issues[field])}
            helperText={issues[field] ?? (field === 'adaptedModels' ? translate('machineConfiguration.package.adaptedModelsHint') : undefined)}
            slotProps={{ inputLabel: field === 'activationTime' ? { shrink: true } : undefined, htmlInput: { 'data-testid': `${testId}-${field}` } }}
            sx={field === 'description' ? { gridColumn: '1 / -1' } : undefined}
          />
        ))}
      </Box>
      {failure ? (
        <Alert severity="error" data-testid={`${testId}-error`}>
          {failure}
        </Alert>
      ) : null}
      <Box>
        <Button type="submit" variant="contained" disabled={saving} data-testid={`${testId}-create`}>
          {translate('machineConfiguration.package.create')}
        </Button>
      </Box>
    </Box>
  );
};
