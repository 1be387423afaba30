// "Remote command" in the machine list's selected-rows toolbar: opens the bulk command dialog for
// the selected machines or for all machines matching the list's current filter.
import { useState } from 'react';
import { Button, useListContext } from 'react-admin';
import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import { machine } from '../../resources/machine';
import { toWireFilters } from '../providers/wire';
import { BulkCommandDialog } from './BulkCommandDialog';

export const RemoteCommandBulkButton = () => {
  const { selectedIds, filterValues, total } = useListContext();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="remote.bulk.button" onClick={() => setOpen(true)} data-testid="bulk-remote-command">
        <SettingsRemoteIcon />
      </Button>
      {open ? (
        <BulkCommandDialog
          onClose={() => setOpen(false)}
          selectedIds={selectedIds.map(Number)}
          // the same filter body the list itself sends (fleet filter included)
          filter={toWireFilters(machine, filterValues)}
          filteredTotal={total ?? 0}
        />
      ) : null}
    </>
  );
};
