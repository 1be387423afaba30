// A multiReference to a tree resource (display: 'tree', e.g. a role's permissions) as a collapsible
// tree of tri-state checkboxes. The whole tree is loaded once (getList meta `all`); the selection
// rules live in tree.ts.
import { useMemo, useState } from 'react';
import { Box, Checkbox, FormControl, FormLabel, IconButton, LinearProgress, Stack } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Button, FieldTitle, InputHelperText, useGetList, useInput, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../resources/types';
import { nativeIndeterminate } from '../layout/theme';
import { recordLabel } from './recordLabels';
import { enumLabel, resourceNameOf } from '../providers/registry';
import { buildTree, checkState, parentIds, selectAll, toggleNode, visibleRows, type TreeNode } from './tree';

export const treeParentFieldOf = (declaration: ResourceDeclaration): string | undefined => Object.entries(declaration.fields).find(([, field]) => field.type === 'treeParent')?.[0];

/** A short qualifier shown after the name (the first enum field, e.g. a permission's type). */
const qualifierFieldOf = (declaration: ResourceDeclaration) => Object.entries(declaration.fields).find(([, field]) => field.type === 'enum')?.[0];

interface TreeChecklistInputProps {
  source: string;
  label: string;
  reference: ResourceDeclaration;
}

export const TreeChecklistInput = ({ source, label, reference }: TreeChecklistInputProps) => {
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput({ source, label });
  const parentField = treeParentFieldOf(reference) ?? 'parentId';
  const qualifierField = qualifierFieldOf(reference);
  const { data, isPending } = useGetList(resourceNameOf(reference), {
    pagination: { page: 1, perPage: 500 },
    sort: reference.list.defaultSort,
    meta: { all: true },
  });
  const roots = useMemo(() => buildTree<RaRecord>(data ?? [], parentField), [data, parentField]);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const selectedIds: Identifier[] = Array.isArray(field.value) ? field.value : [];
  const selected = useMemo(() => new Set((Array.isArray(field.value) ? (field.value as Identifier[]) : []).map(String)), [field.value]);

  const toggleExpanded = (node: TreeNode<RaRecord>) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(String(node.id))) next.add(String(node.id));
      return next;
    });

  return (
    <FormControl fullWidth error={Boolean(fieldState.error)} margin="dense">
      <FormLabel>
        <FieldTitle label={label} source={source} isRequired={isRequired} />
      </FormLabel>
      <Stack direction="row" spacing={1} sx={{ my: 1 }}>
        <Button label="generic.tree.expandAll" onClick={() => setExpanded(new Set(parentIds(roots)))} />
        <Button label="generic.tree.collapseAll" onClick={() => setExpanded(new Set())} />
        <Button label="generic.tree.selectAll" onClick={() => field.onChange(selectAll(roots, true))} />
        <Button label="generic.tree.clear" onClick={() => field.onChange(selectAll(roots, false))} />
      </Stack>
      {isPending ? <LinearProgress /> : null}
      <Box sx={{ maxHeight: 480, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {visibleRows(roots, expanded).map((node) => {
          const state = checkState(node, selected);
          const qualifier = qualifierField ? node.record[qualifierField] : undefined;
          const name = recordLabel(translate, reference, node.record) || String(node.id);
          return (
            <Box key={String(node.id)} sx={{ display: 'flex', alignItems: 'center', pl: node.depth * 3, minHeight: 36 }}>
              {node.children.length > 0 ? (
                <IconButton
                  size="small"
                  aria-label={translate(expanded.has(String(node.id)) ? 'generic.tree.collapse' : 'generic.tree.expand')}
                  onClick={() => toggleExpanded(node)}
                >
                  {expanded.has(String(node.id)) ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                </IconButton>
              ) : (
                <Box sx={{ width: 34 }} />
              )}
              <Checkbox
                size="small"
                checked={state === 'checked'}
                indeterminate={state === 'indeterminate'}
                onChange={() => field.onChange(toggleNode(roots, node, selectedIds))}
                slotProps={{ input: { 'aria-label': name, ref: nativeIndeterminate(state === 'indeterminate') } }}
              />
              <span>{name}</span>
              {qualifier !== undefined && qualifier !== null ? (
                <Box component="span" sx={{ ml: 1, color: 'text.secondary', fontSize: '0.8em' }}>
                  {translate(enumLabel(reference, qualifierField!, qualifier), { _: String(qualifier) })}
                </Box>
              ) : null}
            </Box>
          );
        })}
      </Box>
      <InputHelperText error={fieldState.error?.message} />
    </FormControl>
  );
};
