// Translated record labels in views (see recordLabels.ts): the label column/field of a declaration
// with a translator, a single reference to one, and the chips of a tree multiReference (a role's
// permissions). Label records from `GET <apiPath>/list` carry only { id, name }, so these read full
// records: the whole tree once (the same query the tree checklist makes, shared through the cache).
import { useMemo } from 'react';
import { Chip, Stack } from '@mui/material';
import { FunctionField, ReferenceField, useGetList, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../resources/types';
import { recordLabel } from './recordLabels';
import { resourceNameOf } from '../providers/registry';
import { buildTree, walkTree } from './tree';
import { treeParentFieldOf } from './TreeChecklistInput';

/** The translated label of the record in context (e.g. a permission's name column). */
export const RecordLabelField = ({ declaration, source }: { declaration: ResourceDeclaration; source?: string }) => {
  const translate = useTranslate();
  return <FunctionField source={source ?? declaration.nameField} render={(record: RaRecord) => recordLabel(translate, declaration, record)} />;
};

/** A single reference to a declaration with a translator: the full record (getOne), translated. */
export const TranslatedReferenceField = ({ source, target }: { source: string; target: ResourceDeclaration }) => (
  <ReferenceField source={source} reference={resourceNameOf(target)} link={false}>
    <RecordLabelField declaration={target} />
  </ReferenceField>
);

/** Every record of a (tree) resource, loaded once for pickers and chips. */
export const useAllRecords = (target: ResourceDeclaration) =>
  useGetList(resourceNameOf(target), {
    pagination: { page: 1, perPage: 500 },
    sort: target.list.defaultSort,
    meta: { all: true },
  });

/** The chips of a multiReference to a tree resource, in tree order, translated. */
export const TranslatedReferenceChips = ({ source, target }: { source: string; target: ResourceDeclaration }) => {
  const translate = useTranslate();
  const record = useRecordContext();
  const { data } = useAllRecords(target);
  const ids = record?.[source];
  const chosen = useMemo(() => {
    const wanted = new Set((Array.isArray(ids) ? ids : []).map(String));
    const parentField = treeParentFieldOf(target);
    // a tree in its own order (parents before their children), else the list's order
    const ordered = parentField ? walkTree(buildTree(data ?? [], parentField)).map((node) => node.record) : (data ?? []);
    return ordered.filter((item) => wanted.has(String(item.id)));
  }, [data, ids, target]);
  return (
    <Stack direction="row" useFlexGap flexWrap="wrap" spacing={0.5}>
      {chosen.map((item) => (
        <Chip key={String(item.id)} size="small" label={recordLabel(translate, target, item)} />
      ))}
    </Stack>
  );
};
