// The confirm dialog of a remote command: what it does, its parameter form (checked here with the
// server's own rules before anything is sent) and the server's refusal (1001–1004 per field, 8000,
// 8001, 6001 ...) shown inside the dialog in the user's language. Enter sends, Escape closes.
import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { RemoteCommand } from '../../resources/commands';
import { issuesOf } from '../providers/wire';
import { ApiError } from '../providers/httpTypes';
import { CommandParamsFields } from './CommandParamsFields';
import { hasParams, paramsToSend, serverParamErrors, validateParams, type ParamValues } from './commandUi';

export interface CommandFormProps {
  command: RemoteCommand;
  initialValues: ParamValues;
  /** The question above the form ("Send "Restart" to RVM 0001?"). */
  question: ReactNode;
  /** Shown between the question and the form (bulk: scope and command choice). */
  children?: ReactNode;
  /** Sends; rejects with an ApiError the dialog shows. */
  send: (params: Record<string, unknown>) => Promise<void>;
  sendLabel?: string;
  /** False keeps Send disabled (e.g. no machine addressed). */
  canSend?: boolean;
  onClose: () => void;
}

/** The translated message of a failed send, and its per-field issues. */
export const sendFailure = (failure: unknown, fallback: string) => ({
  message: failure instanceof Error && failure.message ? failure.message : fallback,
  fields: serverParamErrors(failure instanceof ApiError ? issuesOf(failure.data) : null),
});

/** The body of the dialog (also used by the bulk dialog, which adds its own choices as children). */
export const CommandForm = ({ command, initialValues, question, children, send, sendLabel, canSend = true, onClose }: CommandFormProps) => {
  const translate = useTranslate();
  const [values, setValues] = useState<ParamValues>(initialValues);
  const [checked, setChecked] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);

  const clientErrors = checked ? validateParams(command, values) : {};
  const errors: Record<string, string> = { ...failure?.fields };
  for (const [name, error] of Object.entries(clientErrors)) errors[name] = translate(error.message, error.args);

  const change = (name: string, value: unknown) => {
    setValues((current) => ({ ...current, [name]: value }));
    // A server message about this field no longer applies once it changes.
    if (failure?.fields[name]) setFailure({ ...failure, fields: Object.fromEntries(Object.entries(failure.fields).filter(([key]) => key !== name)) });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || !canSend) return;
    setChecked(true);
    if (Object.keys(validateParams(command, values)).length > 0) return;
    setSending(true);
    setFailure(null);
    try {
      await send(paramsToSend(command, values));
    } catch (caught) {
      setFailure(sendFailure(caught, translate('remote.dialog.failed')));
      setSending(false);
    }
  };

  // Enter anywhere in the dialog sends: inputs do it natively, Cancel/Send keep their own Enter, and
  // an On/Off toggle (aria-pressed) must not be switched back off by the Enter meant to send.
  const enterSends = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA') return;
    if (target.tagName === 'BUTTON' && !target.hasAttribute('aria-pressed')) return;
    event.preventDefault();
    event.currentTarget.requestSubmit();
  };

  return (
    <Box component="form" noValidate onSubmit={submit} onKeyDown={enterSends} data-testid="command-form" data-command={command}>
      <DialogContent sx={{ pt: 1 }}>
        <DialogContentText sx={{ mb: 1.5 }}>{question}</DialogContentText>
        <DialogContentText variant="body2" sx={{ mb: 2 }}>
          {translate(`remote.descriptions.${command}`)}
        </DialogContentText>
        {children}
        <CommandParamsFields command={command} values={values} errors={errors} onChange={change} disabled={sending} />
        {failure ? (
          <Alert severity="error" sx={{ mt: 1 }} role="alert" data-testid="command-error">
            {failure.message}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={sending}>
          {translate('remote.dialog.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={sending || !canSend}
          autoFocus={!hasParams(command)}
          startIcon={sending ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="command-send"
        >
          {sending ? translate('remote.dialog.sending') : (sendLabel ?? translate('remote.dialog.send'))}
        </Button>
      </DialogActions>
    </Box>
  );
};

export interface CommandDialogProps extends Omit<CommandFormProps, 'onClose'> {
  open: boolean;
  onClose: () => void;
}

export const CommandDialog = ({ open, onClose, command, ...form }: CommandDialogProps) => {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="command-dialog-title">
      <DialogTitle id="command-dialog-title">{translate(`remote.commands.${command}`)}</DialogTitle>
      {/* keyed by command: a new command starts with a fresh form */}
      <CommandForm key={command} command={command} onClose={onClose} {...form} />
    </Dialog>
  );
};
