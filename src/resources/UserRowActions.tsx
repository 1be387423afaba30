// User list row actions: reset another user's password (password rule of docs/product-rules.md#validation-rules, PUT
// /user/resetPassword, permission user:resetPassword) and enable/disable (PUT /user, user:disable).
import { useState } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import BlockIcon from '@mui/icons-material/Block';
import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import {
  Button,
  Form,
  IconButtonWithTooltip,
  PasswordInput,
  SaveButton,
  useCanAccess,
  useDataProvider,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUpdate,
  type RaRecord,
} from 'react-admin';
import { checkPassword } from '../../resources/validation';
import type { RvmDataProvider } from '../providers/dataProvider';

interface ResetValues {
  password?: string;
  confirmPassword?: string;
}

/** The reset dialog's validation: the password rule, then both entries equal. */
export const validateReset = ({ password, confirmPassword }: ResetValues) => {
  const errors: Record<string, string> = {};
  const problem = checkPassword(password?.trim());
  if (problem) errors.password = problem;
  if (!confirmPassword?.trim()) errors.confirmPassword = 'validation.required';
  else if (!problem && confirmPassword.trim() !== password?.trim()) errors.confirmPassword = 'validation.passwordMismatch';
  return errors;
};

const ResetPasswordButton = ({ record }: { record: RaRecord }) => {
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<RvmDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const submit = async (values: ResetValues) => {
    await dataProvider.call(resource, { method: 'PUT', path: '/resetPassword', body: { id: record.id, password: values.password!.trim() } });
    notify('generic.resetPassword.success', { type: 'success' });
    setOpen(false);
  };
  return (
    <>
      <IconButtonWithTooltip label="resources.user.actions.resetPassword" onClick={() => setOpen(true)} size="small" color="primary">
        <KeyIcon fontSize="small" />
      </IconButtonWithTooltip>
      {/* the dialog sits outside the row's click area: a click inside must not open the record */}
      <Dialog open={open} onClose={() => setOpen(false)} onClick={(event) => event.stopPropagation()} maxWidth="xs" fullWidth>
        <Form onSubmit={(values: Record<string, unknown>) => submit(values as ResetValues).catch(() => undefined)} validate={validateReset} record={{}}>
          <DialogTitle>{translate('generic.resetPassword.title', { name: record.realname ?? record.name ?? record.id })}</DialogTitle>
          <DialogContent>
            <PasswordInput source="password" label="generic.resetPassword.password" fullWidth autoComplete="new-password" />
            <PasswordInput source="confirmPassword" label="generic.resetPassword.confirmPassword" fullWidth autoComplete="new-password" />
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
            <SaveButton label="resources.user.actions.resetPassword" icon={<KeyIcon />} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};

const ToggleEnabledButton = ({ record }: { record: RaRecord }) => {
  const resource = useResourceContext()!;
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const enabled = record.enabled !== false;
  const toggle = () =>
    update(
      resource,
      { id: record.id, data: { enabled: !enabled }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(enabled ? 'generic.toggleEnabled.disabled' : 'generic.toggleEnabled.enabled', { type: 'success' });
          refresh();
        },
        onError: (error) => notify(error.message, { type: 'error' }),
      },
    );
  return (
    <IconButtonWithTooltip
      label={enabled ? 'resources.user.actions.disable' : 'resources.user.actions.enable'}
      onClick={toggle}
      disabled={isPending}
      size="small"
      color={enabled ? 'warning' : 'success'}
    >
      {enabled ? <BlockIcon fontSize="small" /> : <CheckIcon fontSize="small" />}
    </IconButtonWithTooltip>
  );
};

export const UserRowActions = () => {
  const record = useRecordContext();
  // the user declaration's extraPermissions, through canAccess (src/permissions/canAccess.ts)
  const { canAccess: mayReset } = useCanAccess({ action: 'resetPassword' });
  const { canAccess: mayDisable } = useCanAccess({ action: 'disable' });
  const { identity } = useGetIdentity();
  if (!record) return null;
  // The server refuses disabling yourself (5001): the button is not offered on your own row.
  const isSelf = identity !== undefined && String(identity.id) === String(record.id);
  return (
    // stopPropagation: a button click must not also count as a row click (open the record)
    <Stack direction="row" spacing={0.5} justifyContent="flex-end" onClick={(event) => event.stopPropagation()}>
      {mayReset ? <ResetPasswordButton record={record} /> : null}
      {mayDisable && !isSelf ? <ToggleEnabledButton record={record} /> : null}
    </Stack>
  );
};
