// The "Generate" dialog of Service › generateConfigFile (docs/machine-configuration.md#generate-config-file): choose
// a template and the configurations, preview the generated file (monospace, scrollable), then make it a package of
// type `config`; once made, "Deploy it" opens the new-deployment form with the package chosen (as the versions
// dialog does, src/configurations/VersionsDialog.tsx).
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { useCanAccess } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import { CONFIG_FILE_RESOURCE_TYPE, configTemplate } from '../../resources/configTemplates';
import { deploymentPackage } from '../../resources/deploymentPackage';
import { newDeploymentPath } from '../deployments/paths';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ApiError } from '../providers/httpTypes';
import { resourceNameOf } from '../providers/registry';
import { issuesOf } from '../providers/wire';
import type { MadePackage } from '../configurations/types';

interface Generated {
  templateId: number;
  templateName: string;
  targetModels: string;
  fileName: string;
  content: string;
  bytes: number;
  sections: Array<{ kind: string; version: number; itemCount: number }>;
  missing: string[];
}

const KINDS = Object.keys(CONFIGURATION_KINDS);
const FIELDS = ['name', 'version', 'adaptedModels', 'activationTime', 'description'] as const;
type Field = (typeof FIELDS)[number];

const PackageOfFile = ({ generated, kinds }: { generated: Generated; kinds: string[] }) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [values, setValues] = useState<Record<Field, string>>({
    name: generated.fileName.replace(/\.json$/, ''),
    version: 'v1',
    adaptedModels: generated.targetModels,
    activationTime: '',
    description: '',
  });
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
        templateId: generated.templateId,
        kinds,
        name: values.name,
        version: values.version,
        adaptedModels: values.adaptedModels,
        description: values.description || null,
        activationTime: values.activationTime ? new Date(values.activationTime).toISOString() : null,
      };
      setMade(await http.post<MadePackage>(`${configTemplate.apiPath}/generate/package`, body, { silent: true }));
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
        data-testid="config-package-made"
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
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 1.5 }} data-testid="config-package-form">
      <Typography variant="subtitle2">{translate('configTemplates.generate.packageTitle')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('configTemplates.generate.packageIntro', { type: translate(`resources.deploymentPackage.enums.resourceType.${CONFIG_FILE_RESOURCE_TYPE}`) })}
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
            slotProps={{ inputLabel: field === 'activationTime' ? { shrink: true } : undefined, htmlInput: { 'data-testid': `config-package-${field}` } }}
            sx={field === 'description' ? { gridColumn: '1 / -1' } : undefined}
          />
        ))}
      </Box>
      {failure ? (
        <Alert severity="error" data-testid="config-package-error">
          {failure}
        </Alert>
      ) : null}
      <Box>
        <Button type="submit" variant="contained" disabled={saving} data-testid="config-package-create">
          {translate('machineConfiguration.package.create')}
        </Button>
      </Box>
    </Box>
  );
};

export const GenerateDialog = ({ onClose }: { onClose: () => void }) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const { canAccess: mayPackage } = useCanAccess({ action: 'create', resource: resourceNameOf(deploymentPackage) });
  const templates = useApiQuery(['configTemplateOptions'], (client, signal) => client.get<Array<{ id: number; name: string }>>(`${configTemplate.apiPath}/list`, {}, { signal }));
  const options = templates.data ?? [];
  const [chosen, setChosen] = useState<number | ''>('');
  const [kinds, setKinds] = useState<string[]>(KINDS);
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [packaging, setPackaging] = useState(false);
  const [loading, setLoading] = useState(false);
  const templateId: number | '' = chosen === '' ? (options.at(0)?.id ?? '') : chosen;

  const preview = async () => {
    if (templateId === '') return;
    setLoading(true);
    setPackaging(false);
    try {
      setGenerated(await http.post<Generated>(`${configTemplate.apiPath}/generate`, { templateId, kinds }));
    } finally {
      setLoading(false);
    }
  };

  const toggle = (kind: string, on: boolean) => {
    setGenerated(null);
    setKinds(on ? KINDS.filter((name) => name === kind || kinds.includes(name)) : kinds.filter((name) => name !== kind));
  };

  const kindLabel = (kind: string) => translate(`resources.${kind}.name`, { smart_count: 2 });

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="config-generate-title" data-testid="config-generate-dialog">
      <DialogTitle id="config-generate-title">{translate('configTemplates.generate.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('configTemplates.generate.intro')}
        </Typography>
        <LoadState isPending={templates.isPending} error={templates.error} onRetry={templates.reload} hasData={Boolean(templates.data)}>
          {options.length === 0 ? (
            <Typography data-testid="config-generate-none">{translate('configTemplates.generate.none')}</Typography>
          ) : (
            <>
              <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mb: 2 }}>
                <TextField
                  select
                  size="small"
                  label={translate('configTemplates.generate.template')}
                  value={templateId}
                  onChange={(event) => {
                    setGenerated(null);
                    setChosen(Number(event.target.value));
                  }}
                  sx={{ minWidth: 240 }}
                  slotProps={{ htmlInput: { 'data-testid': 'config-generate-template' } }}
                >
                  {options.map((option) => (
                    <MenuItem key={option.id} value={option.id}>
                      {option.name}
                    </MenuItem>
                  ))}
                </TextField>
                <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
                  <FormLabel component="legend" sx={{ fontSize: '0.75rem' }}>
                    {translate('configTemplates.generate.kinds')}
                  </FormLabel>
                  <FormGroup row>
                    {KINDS.map((kind) => (
                      <FormControlLabel
                        key={kind}
                        control={
                          <Checkbox
                            size="small"
                            checked={kinds.includes(kind)}
                            onChange={(event) => toggle(kind, event.target.checked)}
                            data-testid={`config-generate-kind-${kind}`}
                          />
                        }
                        label={kindLabel(kind)}
                      />
                    ))}
                  </FormGroup>
                </Box>
                <Button variant="outlined" onClick={() => void preview()} disabled={templateId === '' || loading} data-testid="config-generate-preview">
                  {translate('configTemplates.generate.preview')}
                </Button>
              </Box>
              {generated ? (
                <Box data-testid="config-generate-result">
                  <Typography variant="subtitle2">{translate('configTemplates.generate.previewTitle', { file: generated.fileName, bytes: generated.bytes })}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {generated.sections.length
                      ? translate('configTemplates.generate.sections', {
                          list: generated.sections.map((section) => `${kindLabel(section.kind)} v${section.version}`).join(', '),
                        })
                      : translate('configTemplates.generate.noSections')}
                  </Typography>
                  {generated.missing.length ? (
                    <Typography variant="body2" color="warning.main" data-testid="config-generate-missing">
                      {translate('configTemplates.generate.missing', { list: generated.missing.map(kindLabel).join(', ') })}
                    </Typography>
                  ) : null}
                  <Box
                    component="pre"
                    tabIndex={0}
                    aria-label={translate('configTemplates.generate.preview')}
                    data-testid="config-generate-preview-text"
                    sx={{
                      fontFamily: 'monospace',
                      fontSize: '0.8rem',
                      bgcolor: 'action.hover',
                      borderRadius: 1,
                      p: 1.5,
                      my: 1.5,
                      maxHeight: 320,
                      overflow: 'auto',
                      whiteSpace: 'pre',
                    }}
                  >
                    {generated.content}
                  </Box>
                  {mayPackage && !packaging ? (
                    <Button variant="contained" onClick={() => setPackaging(true)} data-testid="config-generate-make-package">
                      {translate('configTemplates.generate.makePackage')}
                    </Button>
                  ) : null}
                  {packaging ? <PackageOfFile key={generated.content} generated={generated} kinds={kinds} /> : null}
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {translate('configTemplates.generate.pick')}
                </Typography>
              )}
            </>
          )}
        </LoadState>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('configTemplates.generate.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
