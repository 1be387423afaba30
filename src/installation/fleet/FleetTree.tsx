// The fleet tree as an ARIA tree: one focusable row at a time (roving tab index), arrows move and
// open/close, Enter or Space selects, Home/End jump. "All fleets" on top clears the selection.
// A row (treeitem) is named by its label and machine count; its action button follows it in the Tab
// order while it is the focusable row.
import { useId, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Box, IconButton, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { visuallyHidden } from '../../layout/visuallyHidden';
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
  /**
   * Per-row actions (e.g. a menu button), rendered at the row's end. `tabbable`: the row is the
   * tree's focusable one, so its actions are the next Tab stop (the other rows' stay out of the order).
   */
  rowActions?: (node: FleetNode, tabbable: boolean) => ReactNode;
}

const ROW_HEIGHT = 36;

export const FleetTree = ({ nodes, expanded, onToggle, selected, onSelect, totalMachines, rowActions }: FleetTreeProps) => {
  const translate = useTranslate();
  const rows = visibleFleetRows(nodes, expanded);
  // index 0 is "All fleets", fleet rows follow
  const selectedIndex = selected === null ? 0 : rows.findIndex((row) => row.node.id === selected) + 1;
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const refs = useRef<Array<HTMLDivElement | null>>([]);
  const baseId = useId();
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
    const isActive = index === activeIndex;
    const descriptionId = `${baseId}-description-${index}`;
    const down = row ? (row.node.statusCounts.Down ?? 0) : 0;
    return (
      // The wrapper carries the test id (tests find a node's treeitem inside it); it is no part of the tree.
      <Box key={row ? row.node.id : 'all'} role="none" data-testid={row ? `fleet-node-${row.node.id}` : 'fleet-node-all'}>
        <Box
          ref={(element: HTMLDivElement | null) => {
            refs.current[index] = element;
          }}
          role="treeitem"
          aria-selected={isSelected}
          aria-expanded={row?.hasChildren ? row.expanded : undefined}
          aria-level={(row?.depth ?? -1) + 2}
          // Named by what it shows (label, count, down count: WCAG 2.5.3: no aria-label that could say
          // otherwise); what the figures count is its description, kept outside it so the name stays the text.
          aria-describedby={descriptionId}
          tabIndex={isActive ? 0 : -1}
          onClick={(event: MouseEvent<HTMLElement>) => {
            // clicks in the row's action menu (portalled, but bubbling through React) are not a selection
            if (!event.currentTarget.contains(event.target as Node)) return;
            setFocusIndex(index);
            onSelect(row ? row.node.id : null);
          }}
          onKeyDown={onKeyDown(index, row)}
          sx={{
            display: 'flex',
            alignItems: 'center',
            minHeight: ROW_HEIGHT,
            pl: row ? row.depth * 2 : 0,
            pr: 0.5,
            borderRadius: 1,
            cursor: 'pointer',
            outline: 'none',
            '&:hover': { bgcolor: 'action.hover' },
            '&[aria-selected="true"]': { bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity) },
            '&:focus-visible': { boxShadow: (theme) => `inset 0 0 0 2px ${theme.palette.primary.main}` },
          }}
        >
          {row?.hasChildren ? (
            // A pointer shortcut only: keyboard users open and close with the arrow keys (ARIA tree
            // pattern) and assistive technology reads aria-expanded, so it is hidden from both.
            <IconButton
              size="small"
              tabIndex={-1}
              aria-hidden
              onClick={(event) => {
                event.stopPropagation(); // not a selection
                onToggle(row.node.id);
              }}
            >
              {row.expanded ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
            </IconButton>
          ) : (
            <Box sx={{ width: 30, flexShrink: 0 }} />
          )}
          <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0, pl: 0.5, fontWeight: isSelected ? 600 : 400 }}>
            {label}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {count}
          </Typography>
          {down > 0 ? (
            <Typography variant="caption" color="error" sx={{ ml: 0.75 }} title={translate('fleet.statuses.Down')}>
              <span aria-hidden>▼</span>
              {down}
            </Typography>
          ) : null}
          {row && rowActions ? rowActions(row.node, isActive) : null}
        </Box>
        <Box component="span" id={descriptionId} sx={visuallyHidden}>
          {translate('installation.fleet.machineCount', { count })}
          {down > 0 ? `, ${translate('installation.fleet.downCount', { count: down })}` : ''}
        </Box>
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
