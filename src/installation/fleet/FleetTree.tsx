// The fleet tree as an ARIA tree: one focusable row at a time (roving tab index), arrows move and
// open/close, Enter or Space selects, Home/End jump. "All fleets" on top clears the selection.
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Box, IconButton, ListItemButton, ListItemText, Typography } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { visibleFleetRows, type FleetNode, type FleetRow } from './fleetTree';

export interface FleetTreeProps {
  nodes: readonly FleetNode[];
  expanded: ReadonlySet<number>;
  onToggle: (id: number) => void;
  selected: number | null;
  onSelect: (id: number | null) => void;
  /** Total machines of the license account ("All fleets" row). */
  totalMachines: number;
  /** Per-row actions (e.g. a menu button), rendered at the row's end. */
  rowActions?: (node: FleetNode) => ReactNode;
}

const ROW_HEIGHT = 36;

export const FleetTree = ({ nodes, expanded, onToggle, selected, onSelect, totalMachines, rowActions }: FleetTreeProps) => {
  const translate = useTranslate();
  const rows = visibleFleetRows(nodes, expanded);
  // index 0 is "All fleets", fleet rows follow
  const selectedIndex = selected === null ? 0 : rows.findIndex((row) => row.node.id === selected) + 1;
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const refs = useRef<Array<HTMLDivElement | null>>([]);
  const activeIndex = Math.min(focusIndex ?? Math.max(0, selectedIndex), rows.length);

  const focus = (index: number) => {
    const bounded = Math.max(0, Math.min(rows.length, index));
    setFocusIndex(bounded);
    refs.current[bounded]?.focus();
  };

  const onKeyDown = (index: number, row: FleetRow | null) => (event: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(index + 1),
      ArrowUp: () => focus(index - 1),
      Home: () => focus(0),
      End: () => focus(rows.length),
      ArrowRight: () => {
        if (row?.hasChildren && !row.expanded) onToggle(row.node.id);
        else if (row?.hasChildren) focus(index + 1);
      },
      ArrowLeft: () => {
        if (row?.expanded) onToggle(row.node.id);
        else if (row && row.depth > 0) focus(rows.findIndex((candidate) => candidate.node.id === row.node.parentId) + 1);
      },
      Enter: () => onSelect(row ? row.node.id : null),
      ' ': () => onSelect(row ? row.node.id : null),
    };
    const action = keys[event.key];
    if (!action || event.target !== event.currentTarget) return;
    event.preventDefault();
    action();
  };

  const item = (index: number, row: FleetRow | null, label: string, count: number) => {
    const isSelected = index === selectedIndex;
    return (
      <Box
        key={row ? row.node.id : 'all'}
        role="none"
        sx={{ display: 'flex', alignItems: 'center', pl: row ? row.depth * 2 : 0 }}
        data-testid={row ? `fleet-node-${row.node.id}` : 'fleet-node-all'}
      >
        {row?.hasChildren ? (
          <IconButton
            size="small"
            tabIndex={-1}
            onClick={() => onToggle(row.node.id)}
            aria-label={translate(row.expanded ? 'generic.tree.collapse' : 'generic.tree.expand')}
          >
            {row.expanded ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: 30, flexShrink: 0 }} />
        )}
        <ListItemButton
          ref={(element: HTMLDivElement | null) => {
            refs.current[index] = element;
          }}
          role="treeitem"
          aria-selected={isSelected}
          aria-expanded={row?.hasChildren ? row.expanded : undefined}
          aria-level={(row?.depth ?? -1) + 2}
          selected={isSelected}
          tabIndex={index === activeIndex ? 0 : -1}
          onClick={() => {
            setFocusIndex(index);
            onSelect(row ? row.node.id : null);
          }}
          onKeyDown={onKeyDown(index, row)}
          sx={{ minHeight: ROW_HEIGHT, py: 0, pl: 0.5, pr: 1, borderRadius: 1 }}
        >
          <ListItemText primary={label} slotProps={{ primary: { noWrap: true, variant: 'body2', fontWeight: isSelected ? 600 : 400 } }} />
          <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }} aria-label={translate('installation.fleet.machineCount', { count })}>
            {count}
          </Typography>
          {row && (row.node.statusCounts.Down ?? 0) > 0 ? (
            <Typography variant="caption" color="error" sx={{ ml: 0.75 }} title={translate('fleet.statuses.Down')}>
              ▼{row.node.statusCounts.Down}
            </Typography>
          ) : null}
        </ListItemButton>
        {row && rowActions ? rowActions(row.node) : null}
      </Box>
    );
  };

  return (
    <Box role="tree" aria-label={translate('installation.fleet.title')} data-testid="fleet-tree">
      {item(0, null, translate('installation.fleet.all'), totalMachines)}
      {rows.map((row, index) => item(index + 1, row, row.node.name, row.node.totalMachineCount))}
    </Box>
  );
};
