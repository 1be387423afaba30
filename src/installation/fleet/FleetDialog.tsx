// Create, rename, move and delete a fleet (generic /fleet CRUD). Failures are the http client's
// toasts (e.g. 6000 'Please delete all its RVMs first', 5003 while sub-fleets remain); the dialog
// stays open so the user can correct or cancel.
import { useState, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, MenuItem, TextField } from '@mui/material';
import { fleet as fleetDeclaration } from '../../../resources/fleet';
import { validateField } from '../../../resources/validation';
import { issuesOf } from '../../providers/wire';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { ApiError } from '../../providers/httpTypes';
import { moveTargets, type FleetNode } from './fleetTree';

export type FleetAction =
  { kind: 'create'; parent: FleetNode | null } | { kind: 'rename'; fleet: FleetNode } | { kind: 'move'; fleet: FleetNode } | { kind: 'delete'; fleet: FleetNode };

export interface FleetDialogProps {
  action: FleetAction;
  tree: readonly FleetNode[];
  onClose: () => void;
  /** After a successful change (the caller reloads the tree and the list); `parentId` is where the fleet now sits. */
  onDone: (action: FleetAction, parentId: number | null) => void;
}

const TOP_LEVEL = '';

export const FleetDialog = ({ action, tree, onClose, onDone }: FleetDialogProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http } = useConsoleServices();
  const [name, setName] = useState(action.kind === 'rename' ? action.fleet.name : '');
  const targets = action.kind === 'move' ? moveTargets(tree, action.fleet) : [];
  const canMoveToTop = action.kind === 'move' && action.fleet.parentId !== null;
  // A sub-fleet is offered the top level first; a top-level fleet its first possible parent.
  const [parent, setParent] = useState<string>(canMoveToTop ? TOP_LEVEL : String(targets[0]?.id ?? TOP_LEVEL));
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const apiPath = fleetDeclaration.apiPath;

  const titles = {
    create:
      action.kind === 'create' && action.parent ? translate('installation.fleet.createChildTitle', { name: action.parent.name }) : translate('installation.fleet.createTitle'),
    rename: action.kind !== 'create' ? translate('installation.fleet.renameTitle', { name: action.fleet.name }) : '',
    move: action.kind !== 'create' ? translate('installation.fleet.moveTitle', { name: action.fleet.name }) : '',
    delete: translate('installation.fleet.deleteTitle'),
  };

  const newParentId = (): number | null => {
    if (action.kind === 'create') return action.parent?.id ?? null;
    if (action.kind === 'move') return parent === TOP_LEVEL ? null : Number(parent);
    return action.fleet.parentId;
  };

  const run = async () => {
    switch (action.kind) {
      case 'create':
        await http.post(apiPath, { name: name.trim(), parentId: action.parent?.id ?? null });
        return 'installation.fleet.created';
      case 'rename':
        await http.put(apiPath, { id: action.fleet.id, name: name.trim() });
        return 'installation.fleet.renamed';
      case 'move':
        await http.put(apiPath, { id: action.fleet.id, parentId: newParentId() });
        return 'installation.fleet.moved';
      default:
        await http.del(apiPath, { id: action.fleet.id });
        return 'installation.fleet.deleted';
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (action.kind === 'create' || action.kind === 'rename') {
      const issue = validateField('name', fleetDeclaration.fields.name, name.trim(), 'create');
      if (issue) return setNameError(translate(issue.message, issue.values));
    }
    if (action.kind === 'move' && parent === TOP_LEVEL && !canMoveToTop) return undefined;
    setBusy(true);
    try {
      notify(await run(), { type: 'success' });
      onDone(action, newParentId());
    } catch (error) {
      // the http client has shown the failure (docs/product-rules.md#error-catalogue toast); a name issue (e.g. 9450, a sibling
      // already has the name) also goes under the field
      const issue = error instanceof ApiError ? issuesOf(error.data)?.find((one) => one.field === 'name') : undefined;
      if (issue) setNameError(issue.message);
    } finally {
      setBusy(false);
    }
    return undefined;
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: submit } as object }}>
      <DialogTitle>{titles[action.kind]}</DialogTitle>
      <DialogContent>
        {action.kind === 'create' || action.kind === 'rename' ? (
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            name="name"
            label={translate('resources.fleet.fields.name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(null);
            }}
            error={Boolean(nameError)}
            helperText={nameError ?? undefined}
            required
          />
        ) : null}
        {action.kind === 'move' ? (
          <TextField
            select
            autoFocus
            fullWidth
            margin="dense"
            name="parentId"
            label={translate('installation.fleet.newParent')}
            value={parent}
            onChange={(event) => setParent(event.target.value)}
          >
            {canMoveToTop ? <MenuItem value={TOP_LEVEL}>{translate('installation.fleet.topLevel')}</MenuItem> : null}
            {targets.map((target) => (
              <MenuItem key={target.id} value={String(target.id)} sx={{ pl: 2 + target.depth * 2 }}>
                {target.name}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        {action.kind === 'delete' ? <DialogContentText>{translate('installation.fleet.deleteConfirm', { name: action.fleet.name })}</DialogContentText> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          color={action.kind === 'delete' ? 'error' : 'primary'}
          disabled={busy || (action.kind === 'move' && parent === TOP_LEVEL && !canMoveToTop)}
        >
          {translate(action.kind === 'delete' ? 'ra.action.delete' : 'ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
