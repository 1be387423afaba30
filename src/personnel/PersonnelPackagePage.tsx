// Service › createServicePersonnelPackage (docs/service-personnel.md#packages): what the package would hold
// now (the enabled people, no credentials shown; what each level may do), and the package's name, version and
// models (preset by the server). Creating it answers the package; "Deploy it" opens the new-deployment form.
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { ACCESS_LEVELS } from '../../resources/servicePersonnel';
import { newDeploymentPath } from '../deployments/paths';
import { LoadState } from '../kit/LoadState';
import { StatusChip } from '../kit/StatusChip';
import { useApiQuery } from '../kit/useApiQuery';
import { TitledCard } from '../layout/TitledCard';
import { useConsoleServices } from '../layout/ConsoleServices';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { ApiError } from '../providers/httpTypes';
import { issuesOf } from '../providers/wire';
import type { MadePackage, PersonnelPreview } from './types';

const FIELDS = ['name', 'version', 'adaptedModels', 'description'] as const;
type Field = (typeof FIELDS)[number];

const PersonnelPackagePage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const preview = useApiQuery(['personnelPackagePreview'], (client, signal) => client.get<PersonnelPreview>('/personnel-package/preview', undefined, { signal, silent: true }));
  const [typed, setTyped] = useState<Partial<Record<Field, string>>>({});
  const [issues, setIssues] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [made, setMade] = useState<MadePackage | null>(null);
  const [saving, setSaving] = useState(false);
  const defaults = preview.data?.defaults;
  const valueOf = (field: Field) => typed[field] ?? (field === 'description' ? '' : (defaults?.[field] ?? ''));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setIssues({});
    setFailure(null);
    try {
      const body = Object.fromEntries(FIELDS.map((field) => [field, valueOf(field)]));
      setMade(await http.post<MadePackage>('/personnel-package', body, { silent: true }));
      setTyped({});
      preview.reload();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const found = issuesOf(error.data) ?? [];
      setIssues(Object.fromEntries(found.filter((issue) => (FIELDS as readonly string[]).includes(issue.field)).map((issue) => [issue.field, issue.message])));
      if (!found.length) setFailure(error.message);
    } finally {
      setSaving(false);
    }
  };

  const people = preview.data?.personnel ?? [];
  const levels = preview.data?.levels;
  return (
    <Box data-testid="personnel-package">
      <ScreenHeading node={node} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('personnel.package.intro')}
      </Typography>
      {made ? (
        <Alert
          severity="success"
          sx={{ mb: 2 }}
          action={
            <Button component={RouterLink} to={newDeploymentPath({ packageId: made.id, models: made.adaptedModels.split(',').filter(Boolean) })} variant="outlined" size="small">
              {translate('personnel.package.deploy')}
            </Button>
          }
          data-testid="package-made"
        >
          {translate('personnel.package.created', { name: made.name, version: made.version })}
        </Alert>
      ) : null}
      <LoadState isPending={preview.isPending} error={preview.error} onRetry={preview.reload} hasData={Boolean(preview.data)}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 3fr)' }, gap: 2, alignItems: 'start' }}>
          <TitledCard title={translate('personnel.package.title')}>
            <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }}>
              {FIELDS.map((field) => (
                <TextField
                  key={field}
                  size="small"
                  label={translate(`personnel.package.${field}`)}
                  value={valueOf(field)}
                  onChange={(event) => setTyped({ ...typed, [field]: event.target.value })}
                  error={Boolean(issues[field])}
                  helperText={issues[field] ?? (field === 'adaptedModels' ? translate('personnel.package.adaptedModelsHint') : undefined)}
                  multiline={field === 'description'}
                  minRows={field === 'description' ? 2 : undefined}
                  slotProps={{ htmlInput: { 'data-testid': `package-${field}` } }}
                />
              ))}
              {failure ? (
                <Alert severity="error" data-testid="package-error">
                  {failure}
                </Alert>
              ) : null}
              <Box>
                <Button type="submit" variant="contained" disabled={saving || people.length === 0} data-testid="package-create">
                  {translate('personnel.package.create')}
                </Button>
              </Box>
            </Box>
          </TitledCard>
          <TitledCard title={`${translate('personnel.package.preview')} · ${translate('personnel.package.people', { smart_count: people.length })}`}>
            {people.length === 0 ? (
              <Typography color="text.secondary" data-testid="package-empty">
                {translate('personnel.package.empty')}
              </Typography>
            ) : (
              <Table size="small" aria-label={translate('personnel.package.preview')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('resources.servicePersonnel.fields.loginName')}</TableCell>
                    <TableCell>{translate('resources.servicePersonnel.fields.realName')}</TableCell>
                    <TableCell>{translate('resources.servicePersonnel.fields.accessLevel')}</TableCell>
                    <TableCell>{translate('resources.servicePersonnel.fields.company')}</TableCell>
                    <TableCell>{translate('personnel.package.credential')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {people.map((person) => (
                    <TableRow key={person.loginName}>
                      <TableCell>{person.loginName}</TableCell>
                      <TableCell>{person.realName}</TableCell>
                      <TableCell>
                        <StatusChip value={person.accessLevel} labels="personnel.levels" tone={person.accessLevel === 'advanced' ? 'info' : 'offline'} />
                      </TableCell>
                      <TableCell>{person.company ?? '–'}</TableCell>
                      <TableCell>
                        <Chip size="small" variant="outlined" icon={<LockIcon fontSize="small" />} label={translate('personnel.package.hashed')} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <Box sx={{ mt: 2, display: 'grid', gap: 1 }}>
              {levels
                ? ACCESS_LEVELS.map((level) => (
                    <Box key={level} sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }} data-testid={`level-${level}`}>
                      <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 90 }}>
                        {translate(`personnel.levels.${level}`)}
                      </Typography>
                      {levels[level].actions.map((action) => (
                        <Chip key={action} size="small" label={translate(`personnel.actions.${action}`)} />
                      ))}
                    </Box>
                  ))
                : null}
            </Box>
          </TitledCard>
        </Box>
      </LoadState>
    </Box>
  );
};

export default PersonnelPackagePage;
