// RemoteControl tab (remote control actions: docs/product-rules.md#catalogues): the 12 actions, grouped, each behind a
// confirm dialog with its parameter form, and the machine's live command history below. A command
// sent here appears at the top of the history at once; the stream then moves its status on.
import { useState } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { Box } from '@mui/material';
import type { RemoteCommand } from '../../../resources/commands';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { CommandDialog } from '../../remote/CommandDialog';
import { CommandHistory } from '../../remote/CommandHistory';
import type { CommandRecord } from '../../remote/commandTypes';
import { initialParamValues } from '../../remote/commandUi';
import { RemoteActions } from '../../remote/RemoteActions';
import { useCommandHistory } from '../../remote/useCommandHistory';
import { useCommandMachine } from './useCommandMachine';
import { Loading } from '../../kit/LoadState';
import { useMachine } from './MachineContext';

export const RemoteControlTab = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http } = useConsoleServices();
  const { machineId } = useMachine();
  const target = useCommandMachine();
  const history = useCommandHistory(machineId);
  const [open, setOpen] = useState<RemoteCommand | null>(null);

  if (target.isPending && !target.data) return <Loading />;
  // Without the machine's details (a load failure) every action is still offered; the server checks.
  const termType = target.data?.termType ?? null;
  const termNo = target.data?.termNo ?? `#${machineId}`;

  const send = (command: RemoteCommand) => async (params: Record<string, unknown>) => {
    const body = Object.keys(params).length > 0 ? { rvmId: machineId, command, params } : { rvmId: machineId, command };
    // silent: the dialog shows the refusal itself, in place
    const record = await http.post<CommandRecord>('/rvm/command', body, { silent: true });
    // The new command shows at the top: on page 1 without filters in place, else by going there.
    if (history.page === 1 && !history.filters.status && !history.filters.command) history.apply(record);
    else history.setFilters({ status: null, command: null });
    setOpen(null);
    notify('remote.dialog.sent', { type: 'success' });
  };

  return (
    <Box data-testid="remote-control">
      <RemoteActions termType={termType} onAction={setOpen} />
      {open ? (
        <CommandDialog
          open
          command={open}
          onClose={() => setOpen(null)}
          initialValues={initialParamValues(open, target.data?.record)}
          question={translate('remote.dialog.confirm', { command: translate(`remote.commands.${open}`), termNo })}
          send={send(open)}
        />
      ) : null}
      <CommandHistory history={history} />
    </Box>
  );
};
