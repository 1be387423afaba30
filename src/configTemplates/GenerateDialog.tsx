// The "Generate" dialog of Service › generateConfigFile (docs/machine-configuration.md#generate-config-file): choose
// a template and the configurations, preview the generated file (monospace, scrollable), then make it a package of
// type `config`; once made, "Deploy it" opens the new-deployment form with the package chosen (as the versions
// dialog does, src/configurations/VersionsDialog.tsx).
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { useCanAccess } from 'react-admin';
import { Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, FormGroup, FormLabel, MenuItem, TextField, Typography } from '@mui/material';
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import { CONFIG_FILE_RESOURCE_TYPE, configTemplate, type Generated } from '../../resources/configTemplates';
import { deploymentPackage } from '../../resources/deploymentPackage';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { resourceNameOf } from '../providers/registry';
import { PackageForm } from '../configurations/PackageForm';

const KINDS = Object.keys(CONFIGURATION_KINDS);
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
                  {packaging ? (
                    <PackageForm
                      key={generated.content}
                      path={`${configTemplate.apiPath}/generate/package`}
                      extraBody={{ templateId: generated.templateId, kinds }}
                      initial={{ name: generated.fileName.replace(/\.json$/, ''), version: 'v1', adaptedModels: generated.targetModels, activationTime: '', description: '' }}
                      title={translate('configTemplates.generate.packageTitle')}
                      resourceType={CONFIG_FILE_RESOURCE_TYPE}
                      introKey="configTemplates.generate.packageIntro"
                      testId="config-package"
                    />
                  ) : null}
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
