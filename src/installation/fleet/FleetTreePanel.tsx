// The fleet management screen's left side: the fleet tree (GET /fleet/tree) with machine counts,
// selecting a fleet (or all), and the fleet actions the user holds (fleet:add, fleet:edit, fleet:delete).
import { useEffect, useState, type ReactNode } from 'react';
import { useCanAccess, useRefresh, useTranslate } from 'ra-core';
import { Box, Button, IconButton, Menu, MenuItem, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { fleet as fleetDeclaration } from '../../../resources/fleet';
import { resourceNameOf } from '../../providers/registry';
import { LoadState } from '../../kit/LoadState';
import { useApiQuery } from '../../kit/useApiQuery';
import { FleetDialog, type FleetAction } from './FleetDialog';
import { FleetTree } from './FleetTree';
import { ancestorIds, findFleet, type FleetNode } from './fleetTree';
import { LIVE_REFRESH_MS } from '../../kit/liveRefresh';

export interface FleetTreePanelProps {
  selected: number | null;
  onSelect: (id: number | null) => void;
  /** Beside the title (the screen's "hide fleets" button). */
  titleAction?: ReactNode;
}

/** canAccess on the fleet declaration (false while the answer loads). */
const useFleetAccess = (action: 'create' | 'edit' | 'delete') => useCanAccess({ resource: resourceNameOf(fleetDeclaration), action }).canAccess === true;

/** A fleet's action menu; `tabbable` while its row is the tree's focusable one (roving tab index). */
const NodeMenu = ({ node, tabbable, onAction }: { node: FleetNode; tabbable: boolean; onAction: (action: FleetAction) => void }) => {
  const translate = useTranslate();
  const mayCreate = useFleetAccess('create');
  const mayEdit = useFleetAccess('edit');
  const mayDelete = useFleetAccess('delete');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const items = [
    mayCreate && { key: 'addChild', action: { kind: 'create', parent: node } as FleetAction },
    mayEdit && { key: 'rename', action: { kind: 'rename', fleet: node } as FleetAction },
    mayEdit && { key: 'move', action: { kind: 'move', fleet: node } as FleetAction },
    mayDelete && { key: 'delete', action: { kind: 'delete', fleet: node } as FleetAction },
  ].filter((item): item is { key: string; action: FleetAction } => Boolean(item));
  if (items.length === 0) return null;
  return (
    <>
      <IconButton
        size="small"
        tabIndex={tabbable ? 0 : -1}
        aria-label={translate('installation.fleet.actions', { name: node.name })}
        aria-haspopup="menu"
        aria-expanded={Boolean(anchor)}
        onClick={(event) => {
          event.stopPropagation(); // opening the menu does not select the fleet
          setAnchor(event.currentTarget);
        }}
        data-testid={`fleet-actions-${node.id}`}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {items.map((item) => (
          <MenuItem
            key={item.key}
            onClick={() => {
              setAnchor(null);
              onAction(item.action);
            }}
            data-testid={`fleet-action-${item.key}`}
          >
            {translate(`installation.fleet.${item.key}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

export const FleetTreePanel = ({ selected, onSelect, titleAction }: FleetTreePanelProps) => {
  const translate = useTranslate();
  const refreshList = useRefresh();
  const mayCreate = useFleetAccess('create');
  const {
    data: tree,
    error,
    isPending,
    reload,
  } = useApiQuery(['fleetTree'], (http, signal) => http.get<FleetNode[]>('/fleet/tree', undefined, { signal }), {
    refreshEveryMs: LIVE_REFRESH_MS.fleetTree,
  });
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [action, setAction] = useState<FleetAction | null>(null);

  // First load: top-level fleets open, plus the way down to a fleet selected by the URL.
  useEffect(() => {
    if (!tree) return;
    setExpanded((current) => {
      if (current.size > 0) return current;
      return new Set([...tree.map((node) => node.id), ...(selected === null ? [] : (ancestorIds(tree, selected) ?? []))]);
    });
  }, [tree, selected]);

  const toggle = (id: number) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const done = (finished: FleetAction, parentId: number | null) => {
    setAction(null);
    // react-admin's refresh reloads every answer on screen: the machine list's and this tree's (one react-query client)
    refreshList();
    if (finished.kind === 'delete' && selected !== null && tree) {
      const removed = findFleet(tree, finished.fleet.id);
      if (removed && (removed.id === selected || findFleet(removed.children, selected))) onSelect(null);
    }
    // A new or moved fleet stays in sight: its parent and the parent's ancestors open.
    if (parentId !== null && tree) setExpanded((current) => new Set([...current, ...(ancestorIds(tree, parentId) ?? []), parentId]));
  };

  const total = (tree ?? []).reduce((sum, node) => sum + node.totalMachineCount, 0);

  return (
    <Box data-testid="fleet-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          {titleAction}
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {translate('installation.fleet.title')}
          </Typography>
        </Box>
        {mayCreate ? (
          <Button size="small" startIcon={<AddIcon />} onClick={() => setAction({ kind: 'create', parent: null })} data-testid="fleet-create">
            {translate('installation.fleet.create')}
          </Button>
        ) : null}
      </Box>
      <LoadState
        isPending={isPending}
        error={error}
        onRetry={reload}
        hasData={Boolean(tree?.length)}
        empty={<Typography color="text.secondary">{translate('installation.fleet.empty')}</Typography>}
      >
        <FleetTree
          nodes={tree ?? []}
          expanded={expanded}
          onToggle={toggle}
          selected={selected}
          onSelect={onSelect}
          totalMachines={total}
          rowActions={(node, tabbable) => <NodeMenu node={node} tabbable={tabbable} onAction={setAction} />}
        />
      </LoadState>
      {action ? <FleetDialog action={action} tree={tree ?? []} onClose={() => setAction(null)} onDone={done} /> : null}
    </Box>
  );
};
