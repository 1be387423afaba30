// "Send now" on report and event notification rows (docs/reports.md "Trying a notification"): a
// confirmation naming the recipients, the button busy while the server mails (a report is produced first),
// then a toast: success with the number of recipients, or the failure in the user's language (the http
// client's error toast: 9310 no recipients, 9311 no mail server, 9312 already being sent, 9313 with the
// reason). Either way the list reloads, so "last sent" and "last result" show what happened. Needs the
// resource's edit permission, as the server does.
import { useState } from 'react';
import { CircularProgress } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { Button, Confirm, IconButtonWithTooltip, useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import type { RvmDataProvider } from '../providers/dataProvider';

interface SendNowAnswer {
  recipients: number;
}

type ConfirmText = 'notifications.sendNow.confirmReport' | 'notifications.sendNow.confirmEvent';

/** `labelled`: a text button (the record page's toolbar); else an icon button with its name as tooltip (list rows). */
export const SendNowButton = ({ confirm, labelled = false }: { confirm: ConfirmText; labelled?: boolean }) => {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const { canAccess: mayEdit } = useCanAccess({ action: 'edit' });
  const dataProvider = useDataProvider<RvmDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  if (!record || !mayEdit) return null;

  const send = async () => {
    setConfirming(false);
    setSending(true);
    try {
      const answer = await dataProvider.call<SendNowAnswer>(resource, { method: 'POST', path: '/sendNow', query: { id: record.id } });
      notify('notifications.sendNow.sent', { type: 'success', messageArgs: { smart_count: answer.recipients } });
    } catch {
      // the http client has shown the failure; a recorded one shows in the row after the reload
    } finally {
      setSending(false);
      refresh();
    }
  };

  return (
    // stopPropagation: a click on the button or in the dialog must not also open the record
    <span onClick={(event) => event.stopPropagation()}>
      {labelled ? (
        <Button label={sending ? 'notifications.sendNow.sending' : 'notifications.sendNow.action'} onClick={() => setConfirming(true)} disabled={sending}>
          {sending ? <CircularProgress size={18} /> : <SendIcon />}
        </Button>
      ) : (
        <IconButtonWithTooltip
          label={sending ? 'notifications.sendNow.sending' : 'notifications.sendNow.action'}
          onClick={() => setConfirming(true)}
          disabled={sending}
          size="small"
          color="primary"
        >
          {sending ? <CircularProgress size={18} /> : <SendIcon fontSize="small" />}
        </IconButtonWithTooltip>
      )}
      <Confirm
        isOpen={confirming}
        title={translate('notifications.sendNow.title', { name: record.name })}
        content={translate(confirm, { recipients: record.recipients })}
        confirm="notifications.sendNow.action"
        onConfirm={() => void send()}
        onClose={() => setConfirming(false)}
      />
    </span>
  );
};
