// ProfileSetting tab: the machine record's profile fields (resources/machine.ts PROFILE_FIELDS) as a
// form built from the declaration's own inputs, validated by the declaration's rules plus the bin
// wording of docs/product-rules.md#validation-rules (./profileValidation.ts) before saving through PUT /rvmpage/profile. Saving needs machine:edit.
// Below it, the machine's gateway connection (./GatewayCard.tsx).
import { Form, SaveButton, useCanAccess, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Card, CardContent, Typography } from '@mui/material';
import { RESOURCES } from '../../../resources';
import { machine, PROFILE_FIELDS } from '../../../resources/machine';
import { DeclarationProvider } from '../../generic/DeclarationContext';
import { FieldInput } from '../../generic/FieldInput';
import { issuesOf, issuesToFormErrors } from '../../providers/wire';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { resourceNameOf } from '../../providers/registry';
import { ApiError } from '../../providers/httpTypes';
import { LoadState } from '../../kit/LoadState';
import { GatewayCard } from './GatewayCard';
import { useMachine, useMachineData } from './MachineContext';
import { profileBody, validateProfile } from './profileValidation';

type ProfileRecord = Record<string, unknown> & { id: number };

/** The form's sections; together exactly PROFILE_FIELDS. */
const SECTIONS: ReadonlyArray<{ title: string; fields: readonly (typeof PROFILE_FIELDS)[number][] }> = [
  { title: 'installation.profile.general', fields: ['fleetId', 'sts', 'localAreaId', 'address', 'simNo', 'longitude', 'latitude', 'installDate', 'activationDate', 'note'] },
  { title: 'installation.profile.bins', fields: ['binEmptyHeight', 'binFullHeight', 'binAlmostFull', 'binAlreadyFull'] },
  { title: 'installation.profile.schedule', fields: ['onTime', 'offTime'] },
];

export const ProfileSettingTab = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http } = useConsoleServices();
  const { machineId } = useMachine();
  const canEdit = useCanAccess({ resource: resourceNameOf(machine), action: 'edit' }).canAccess === true;
  const {
    data: record,
    error,
    isPending,
    reload,
    setData,
  } = useMachineData((client, id, signal) => client.get<ProfileRecord>('/rvmpage/profile', { id }, { signal }), ['profile']);

  const save = async (values: Record<string, unknown>) => {
    try {
      const answer = await http.put<ProfileRecord>('/rvmpage/profile', profileBody(machineId, values), { silent: true });
      // the stored record is what the tab shows now, and when it is opened again
      setData(answer);
      notify('installation.profile.saved', { type: 'success' });
      return undefined;
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      notify(message, { type: 'error', autoHideDuration: 5000 });
      const issues = failure instanceof ApiError ? issuesOf(failure.data) : null;
      // Server issues (the machine's rules checked on the stored record) shown under their fields.
      return issues?.length ? issuesToFormErrors(issues, message) : undefined;
    }
  };

  return (
    <LoadState isPending={isPending} error={error} onRetry={reload} hasData={Boolean(record)}>
      {record ? (
        <DeclarationProvider declaration={machine} registry={RESOURCES}>
          {!canEdit ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate('installation.profile.readOnly')}
            </Alert>
          ) : null}
          <Form record={record} onSubmit={save} validate={validateProfile} mode="onBlur" reValidateMode="onChange" key={String(record.id)}>
            <Box component="fieldset" disabled={!canEdit} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }} data-testid="profile-form">
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' }, gap: 2 }}>
                {SECTIONS.map((section) => (
                  <Card key={section.title} variant="outlined" sx={{ gridRow: section.fields.length > 4 ? 'span 2' : undefined }}>
                    <CardContent>
                      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                        {translate(section.title)}
                      </Typography>
                      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
                        {section.fields.map((name) => (
                          <Box key={name} sx={name === 'note' || name === 'address' ? { gridColumn: '1 / -1' } : undefined}>
                            <FieldInput source={name} view="edit" />
                          </Box>
                        ))}
                      </Box>
                      {section.title === 'installation.profile.bins' ? (
                        <Typography variant="caption" color="text.secondary">
                          {translate('installation.profile.binsHint')}
                        </Typography>
                      ) : null}
                    </CardContent>
                  </Card>
                ))}
              </Box>
            </Box>
            {canEdit ? (
              <Box sx={{ mt: 2 }}>
                <SaveButton alwaysEnable={false} />
              </Box>
            ) : null}
          </Form>
          <GatewayCard />
        </DeclarationProvider>
      ) : null}
    </LoadState>
  );
};
