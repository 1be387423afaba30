// The list of a tree resource (list.tree): react-admin's DataTable over the visible rows of the
// tree built from the loaded page, the first column indented with an expand/collapse toggle.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { Box, IconButton, Stack } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Button, DataTable, useListContext, useRecordContext, useTranslate, type DataTableProps, type RaRecord } from 'react-admin';
import { buildTree, parentIds, visibleRows, type TreeNode } from './tree';

interface TreeRows {
  nodeOf(id: unknown): TreeNode<RaRecord> | undefined;
  isExpanded(id: unknown): boolean;
  toggle(id: unknown): void;
}

const TreeRowsContext = createContext<TreeRows | null>(null);

/** The first cell of a tree row: indentation, toggle, then the field itself. */
export const TreeCell = ({ children }: { children: ReactNode }) => {
  const rows = useContext(TreeRowsContext);
  const record = useRecordContext();
  const translate = useTranslate();
  const node = rows && record ? rows.nodeOf(record.id) : undefined;
  if (!rows || !node) return <>{children}</>;
  const open = rows.isExpanded(node.id);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', pl: node.depth * 3 }}>
      {node.children.length > 0 ? (
        <IconButton
          size="small"
          aria-label={translate(open ? 'generic.tree.collapse' : 'generic.tree.expand')}
          onClick={(event) => {
            event.stopPropagation(); // not a row click
            rows.toggle(node.id);
          }}
        >
          {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
        </IconButton>
      ) : (
        <Box sx={{ width: 34, flexShrink: 0 }} />
      )}
      {children}
    </Box>
  );
};

export const TreeDataTable = ({ parentField, ...props }: DataTableProps & { parentField: string }) => {
  const { data, filterValues } = useListContext();
  const roots = useMemo(() => buildTree<RaRecord>(data ?? [], parentField), [data, parentField]);
  const nodes = useMemo(() => {
    const byId = new Map<string, TreeNode<RaRecord>>();
    const walk = (list: TreeNode<RaRecord>[]) => list.forEach((node) => (byId.set(String(node.id), node), walk(node.children)));
    walk(roots);
    return byId;
  }, [roots]);
  // a filtered list opens fully (matches may be deep), the unfiltered one starts at the top level
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  const [expanded, setExpanded] = useState<Set<string> | null>(null);
  const open = expanded ?? new Set(filtered ? parentIds(roots) : []);
  const rows: TreeRows = {
    nodeOf: (id) => nodes.get(String(id)),
    isExpanded: (id) => open.has(String(id)),
    toggle: (id) => {
      const next = new Set(open);
      if (!next.delete(String(id))) next.add(String(id));
      setExpanded(next);
    },
  };
  return (
    <TreeRowsContext.Provider value={rows}>
      <Stack direction="row" spacing={1} sx={{ px: 1, pt: 1 }}>
        <Button label="generic.tree.expandAll" onClick={() => setExpanded(new Set(parentIds(roots)))} />
        <Button label="generic.tree.collapseAll" onClick={() => setExpanded(new Set())} />
      </Stack>
      <DataTable {...props} data={visibleRows(roots, open).map((node) => node.record)} />
    </TreeRowsContext.Provider>
  );
};
