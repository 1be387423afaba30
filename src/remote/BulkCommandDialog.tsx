// One remote command to many machines (POST /rvm/command/batch): the selected rows or every machine
// matching the list's current filter, the command and its parameters, a confirmation with the
// machine count, then the batch's live delivery summary with "Resend failed".
import { useCallback, useState } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { FAILED_STATUSES, REMOTE_COMMANDS, type RemoteCommand } from '../../resources/commands';
import { useConsoleServices } from '../layout/ConsoleServices';
import { BatchSummary } from './BatchSummary';
import { CommandForm } from './CommandDialog';
import { commandIcon } from './commandIcons';
import type { BatchCreated } from './commandTypes';
import { initialParamValues } from './commandUi';

export type BulkScope = 'selected' | 'filtered';

export interface BulkCommandDialogProps {
  onClose: () => void;
  selectedIds: readonly number[];
  /** The machine list's current filters, as the list sends them (wire form). */
  filter: Record<string, unknown>;
  /** How many machines match that filter. */
  filteredTotal: number;
}

export const BulkCommandDialog = ({ onClose, selectedIds, filter, filteredTotal }: BulkCommandDialogProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http } = useConsoleServices();
  const [scope, setScope] = useState<BulkScope>(selectedIds.length > 0 ? 'selected' : 'filtered');
  const [command, setCommand] = useState<RemoteCommand | ''>('');
  const [created, setCreated] = useState<{ answer: BatchCreated; command: RemoteCommand } | null>(null);
  const [failedCount, setFailedCount] = useState(0);
  const [resending, setResending] = useState(false);
  const count = scope === 'selected' ? selectedIds.length : filteredTotal;
  const commandLabel = (name: string) => translate(`remote.commands.${name}`);

  const send = (chosen: RemoteCommand) => async (params: Record<string, unknown>) => {
    const target = scope === 'selected' ? { ids: [...selectedIds] } : { filter };
    const body = { command: chosen, ...(Object.keys(params).length > 0 ? { params } : {}), ...target };
    const answer = await http.post<BatchCreated>('/rvm/command/batch', body, { silent: true });
    setCreated({ answer, command: chosen });
  };

  const onCounts = useCallback((counts: Record<string, number>) => {
    setFailedCount(FAILED_STATUSES.reduce((sum, name) => sum + (counts[name] ?? 0), 0));
  }, []);

  const resendFailed = async () => {
    if (!created?.answer.batchId) return;
    setResending(true);
    try {
      const answer = await http.post<BatchCreated>(`/rvm/command/batch/${created.answer.batchId}/resendFailed`);
      if (answer.batchId === null || answer.total === 0) notify('remote.bulk.noneFailed', { type: 'info' });
      else {
        notify('remote.bulk.resentFailed', { type: 'success', messageArgs: { count: answer.queued } });
        // The resent commands form a new batch: follow it.
        setFailedCount(0);
        setCreated({ answer, command: created.command });
      }
    } catch {
      /* the http client showed the failure */
    } finally {
      setResending(false);
    }
  };

  if (created) {
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="bulk-command-title">
        <DialogTitle id="bulk-command-title">{translate('remote.bulk.summaryTitle', { command: commandLabel(created.command) })}</DialogTitle>
        <DialogContent>
          <BatchSummary
            key={created.answer.batchId ?? 'none'}
            batchId={created.answer.batchId}
            total={created.answer.total}
            queued={created.answer.queued}
            refused={created.answer.refused}
            onCounts={onCounts}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void resendFailed()} disabled={resending || failedCount === 0} data-testid="batch-resend-failed">
            {translate('remote.bulk.resendFailed')}
          </Button>
          <Button onClick={onClose} variant="contained">
            {translate('remote.bulk.close')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="bulk-command-title">
      <DialogTitle id="bulk-command-title">{translate('remote.bulk.title')}</DialogTitle>
      <DialogContent sx={{ pb: 0 }}>
        <FormControl sx={{ mb: 1 }}>
          <FormLabel id="bulk-scope">{translate('remote.bulk.scope')}</FormLabel>
          <RadioGroup aria-labelledby="bulk-scope" value={scope} onChange={(event) => setScope(event.target.value as BulkScope)}>
            <FormControlLabel
              value="selected"
              control={<Radio size="small" />}
              disabled={selectedIds.length === 0}
              label={translate('remote.bulk.selected', { count: selectedIds.length })}
              data-testid="bulk-scope-selected"
            />
            <FormControlLabel
              value="filtered"
              control={<Radio size="small" />}
              label={translate('remote.bulk.filtered', { count: filteredTotal })}
              data-testid="bulk-scope-filtered"
            />
          </RadioGroup>
        </FormControl>
        <TextField
          select
          fullWidth
          size="small"
          label={translate('remote.bulk.command')}
          value={command}
          onChange={(event) => setCommand(event.target.value as RemoteCommand)}
          helperText={translate('remote.bulk.unsupportedNote')}
          slotProps={{ select: { renderValue: (value: unknown) => (value ? commandLabel(String(value)) : '') } }}
        >
          {REMOTE_COMMANDS.map((name) => {
            const Icon = commandIcon(name);
            return (
              <MenuItem key={name} value={name}>
                <ListItemIcon>
                  <Icon fontSize="small" />
                </ListItemIcon>
                <ListItemText>{commandLabel(name)}</ListItemText>
              </MenuItem>
            );
          })}
        </TextField>
      </DialogContent>
      {command ? (
        <CommandForm
          key={command}
          command={command}
          initialValues={initialParamValues(command, null)}
          question={translate('remote.bulk.confirm', { command: commandLabel(command), count })}
          sendLabel={translate('remote.bulk.send', { count })}
          send={send(command)}
          canSend={count > 0}
          onClose={onClose}
        />
      ) : (
        <Box>
          <DialogActions>
            <Button onClick={onClose}>{translate('remote.dialog.cancel')}</Button>
            <Button variant="contained" disabled>
              {translate('remote.bulk.send', { count })}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
};
