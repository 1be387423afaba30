// Row action of the third-party app lists: reveal the first signing secret once, later rotate it (with a
// confirmation), each answer shown once in the secret dialog. Needs `<screen>:secret`.
import { useState } from 'react';
import KeyIcon from '@mui/icons-material/Key';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { Confirm, IconButtonWithTooltip, useCanAccess, useDataProvider, useRecordContext, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import type { RvmDataProvider } from '../providers/dataProvider';
import { SecretDialog, type ShownSecret } from './SecretDialog';

export const AppRowActions = () => {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  // the declaration's `<screen>:secret` (extraPermissions), through canAccess
  const { canAccess: maySeeSecret } = useCanAccess({ action: 'secret' });
  const dataProvider = useDataProvider<RvmDataProvider>();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (!record || !maySeeSecret) return null;
  const pending = Boolean(record.secretPending);
  const fetchSecret = async (kind: 'reveal' | 'rotate') => {
    const answer = await dataProvider.call<{ secret: string; previousValidUntil: string | null }>(resource, { method: 'POST', path: `/secret/${kind}`, query: { id: record.id } });
    setShown({ name: String(record.name), ...answer });
    refresh();
  };
  return (
    <>
      {pending ? (
        <IconButtonWithTooltip
          label="hookups.secret.show"
          onClick={(event) => (event.stopPropagation(), void fetchSecret('reveal').catch(() => undefined))}
          size="small"
          color="primary"
        >
          <KeyIcon fontSize="small" />
        </IconButtonWithTooltip>
      ) : (
        <IconButtonWithTooltip label="hookups.secret.rotate" onClick={(event) => (event.stopPropagation(), setConfirming(true))} size="small" color="primary">
          <AutorenewIcon fontSize="small" />
        </IconButtonWithTooltip>
      )}
      <Confirm
        isOpen={confirming}
        title="hookups.secret.rotate"
        content={translate('hookups.secret.confirmRotate', { name: record.name })}
        onConfirm={() => {
          setConfirming(false);
          void fetchSecret('rotate').catch(() => undefined);
        }}
        onClose={() => setConfirming(false)}
      />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </>
  );
};
