// Transactions screens (docs/api-hookups.md "Resend and replay"): resend the selected rows, and
// replay every failed message of a time range; each after a confirmation. Needs `<screen>:resend`.
import { useState } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import SendIcon from '@mui/icons-material/Send';
import {
  Button,
  Confirm,
  Form,
  SaveButton,
  useCanAccess,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import type { RvmDataProvider } from '../providers/dataProvider';
import { DAY_MS, replayRange } from './replayRange';
import { LocalDateTimeInput } from '../generic/pickers';

const useResend = () => {
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<RvmDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  return async (ids: Identifier[]) => {
    const { count } = await dataProvider.call<{ count: number }>(resource, { method: 'POST', path: '/resend', body: { ids } });
    notify('hookups.messages.resent', { type: 'success', messageArgs: { smart_count: count } });
    refresh();
  };
};

// the declaration's `<screen>:resend` (extraPermissions), through canAccess
const useMayResend = () => useCanAccess({ action: 'resend' }).canAccess === true;

/** Confirms, then resends `ids`. */
const ResendConfirm = ({ ids, open, onClose }: { ids: Identifier[]; open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const resend = useResend();
  return (
    <Confirm
      isOpen={open}
      title="hookups.messages.resend"
      content={translate('hookups.messages.confirmResend', { smart_count: ids.length })}
      onConfirm={() => {
        onClose();
        void resend(ids).catch(() => undefined);
      }}
      onClose={onClose}
    />
  );
};

export const ResendSelectedButton = () => {
  const { selectedIds, onUnselectItems } = useListContext();
  const [open, setOpen] = useState(false);
  if (!useMayResend()) return null;
  return (
    <>
      <Button label="hookups.messages.resend" onClick={() => setOpen(true)} startIcon={<SendIcon />} />
      <ResendConfirm
        ids={selectedIds}
        open={open}
        onClose={() => {
          setOpen(false);
          onUnselectItems();
        }}
      />
    </>
  );
};

interface ReplayValues {
  from?: string | Date;
  to?: string | Date;
}

const validateReplay = ({ from, to }: ReplayValues) => {
  const errors: Record<string, string> = {};
  const unreadable = (value: string | Date | undefined) => value !== undefined && value !== null && Number.isNaN(new Date(value).getTime());
  if (!from) errors.from = 'validation.required';
  else if (unreadable(from)) errors.from = 'validation.date';
  if (!to) errors.to = 'validation.required';
  else if (unreadable(to)) errors.to = 'validation.date';
  if (!errors.from && !errors.to && new Date(to!) < new Date(from!)) errors.to = 'validation.endAfterStart';
  return errors;
};

export const ReplayButton = () => {
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<RvmDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  // The default range (the last day) is fixed when the dialog opens: a re-render must not move it.
  const [defaults, setDefaults] = useState<ReplayValues>({});
  if (!useMayResend()) return null;
  const close = () => setOpen(false);
  const submit = async ({ from, to }: ReplayValues) => {
    const body = replayRange({ from: from!, to: to! });
    const { count } = await dataProvider.call<{ count: number }>(resource, { method: 'POST', path: '/replay', body });
    notify('hookups.messages.replayed', { type: 'success', messageArgs: { smart_count: count } });
    close();
    refresh();
  };
  return (
    <>
      <Button
        label="hookups.messages.replay"
        onClick={() => {
          const now = Date.now();
          setDefaults({ from: new Date(now - DAY_MS).toISOString(), to: new Date(now).toISOString() });
          setOpen(true);
        }}
        startIcon={<ReplayIcon />}
      />
      <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
        <Form onSubmit={(values: Record<string, unknown>) => submit(values as ReplayValues).catch(() => undefined)} validate={validateReplay} record={defaults}>
          <DialogTitle>{translate('hookups.messages.replayTitle')}</DialogTitle>
          <DialogContent>
            <Stack>
              <LocalDateTimeInput source="from" label="hookups.messages.replayFrom" fullWidth />
              <LocalDateTimeInput source="to" label="hookups.messages.replayTo" fullWidth />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button label="hookups.messages.cancel" onClick={close} />
            <SaveButton label="hookups.messages.replay" icon={<ReplayIcon />} alwaysEnable />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};
