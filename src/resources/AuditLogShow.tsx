// The audit log entry's show view (resources/auditLog.ts, docs/audit-log.md): the generic fields, then the
// changed fields as a Field / Before / After table and the details as labelled lines; the generic text
// field would show their JSON as it is stored.
import { Fragment } from 'react';
import { Labeled, ListButton, Show, SimpleShowLayout, TopToolbar, useGetMany, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { fieldsFor, type ResourceDeclaration } from '../../resources/types';
import { useDeclaration } from '../generic/DeclarationContext';
import { FieldDisplay, LABELS_META } from '../generic/FieldDisplay';
import { useFileInfo } from '../generic/files';
import { hasRecordLabel, recordLabel } from '../generic/recordLabels';
import { formatDateTime } from '../generic/format';
import { enumLabel, fieldLabel, findDeclaration, resourceNameOf } from '../providers/registry';

type Json = Record<string, unknown>;
type Change = { before?: unknown; after?: unknown; redacted?: true };

const JSON_FIELDS = ['changes', 'details'];
const TEXTS = 'resources.auditLog.view';

const parse = (text: unknown): Json | null => {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
};

/** Lists joined, objects (a command's parameters, a refusal) as `name: value` pairs. */
const plain = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map((item) => (item && typeof item === 'object' ? `(${plain(item)})` : plain(item))).join(', ');
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([name, item]) => `${name}: ${plain(item)}`)
      .join(', ');
  return String(value);
};

/** A value as the entry's resource shows it: date-times local, enum values and booleans by their labels. */
const useValueText = (target: ResourceDeclaration | undefined) => {
  const translate = useTranslate();
  return (field: string, value: unknown): string => {
    const declared = target?.fields[field];
    if (!target || !declared || value === null || value === undefined) return plain(value);
    if (declared.type === 'datetime') return formatDateTime(value);
    if (declared.type === 'boolean') return translate(`generic.boolean.${String(value)}`, { _: plain(value) });
    if (declared.type === 'enum') return translate(enumLabel(target, field, String(value)), { _: plain(value) });
    return plain(value);
  };
};

const idsOf = (value: unknown): (string | number)[] =>
  (Array.isArray(value) ? value : [value]).filter((id): id is string | number => typeof id === 'number' || (typeof id === 'string' && id !== ''));

/** Reference ids by the referenced records' labels (the labels the generic lists use), in the value's order; an id no longer found as it is. */
const ReferenceLabels = ({ target, value }: { target: ResourceDeclaration; value: unknown }) => {
  const translate = useTranslate();
  const ids = idsOf(value);
  // a declaration with a translator needs its full records; the others' label records carry the name
  const { data } = useGetMany(resourceNameOf(target), { ids, meta: hasRecordLabel(target) ? undefined : LABELS_META }, { enabled: ids.length > 0 });
  if (!ids.length) return <>{plain(value)}</>;
  const byId = new Map((data ?? []).map((record) => [String(record.id), record]));
  return <>{ids.map((id) => (byId.has(String(id)) ? recordLabel(translate, target, byId.get(String(id))) || String(id) : String(id))).join(', ')}</>;
};

/** An uploaded file's id by the file's name (docs/files.md); the id while it loads, "not available" when it is gone. */
const FileName = ({ value }: { value: unknown }) => {
  const translate = useTranslate();
  const info = useFileInfo(value);
  if (info) return <>{info.name}</>;
  if (info === null && typeof value === 'number') return <span title={`#${value}`}>{translate('generic.file.unavailable')}</span>;
  return <>{plain(value)}</>;
};

/** One before or after value: references by label, files by name, the rest as text. */
const ChangeValue = ({ target, field, value }: { target: ResourceDeclaration | undefined; field: string; value: unknown }) => {
  const { registry } = useDeclaration();
  const valueText = useValueText(target);
  const declared = target?.fields[field];
  if (value === null || value === undefined || !declared) return <>{valueText(field, value)}</>;
  const referenced = declared.reference ? findDeclaration(registry, declared.reference) : undefined;
  if (referenced && (declared.type === 'reference' || declared.type === 'treeParent' || declared.type === 'multiReference'))
    return <ReferenceLabels target={referenced} value={value} />;
  if (declared.type === 'image' || declared.type === 'file') return <FileName value={value} />;
  return <>{valueText(field, value)}</>;
};

/** The changed fields in the declaration's order, then any it no longer declares. */
export const orderedChanges = (target: ResourceDeclaration | undefined, changes: Json): [string, Change][] => {
  const entries = Object.entries(changes as Record<string, Change>);
  if (!target) return entries;
  const order = Object.keys(target.fields);
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry[0]) - rank(b.entry[0]) || a.index - b.index)
    .map(({ entry }) => entry);
};

const ChangesTable = ({ record, changes }: { record: RaRecord; changes: Json }) => {
  const translate = useTranslate();
  const { registry } = useDeclaration();
  const target = typeof record.resource === 'string' ? findDeclaration(registry, record.resource) : undefined;
  const label = (field: string) => translate(`resources.${String(record.resource)}.fields.${field}`, { _: field });
  return (
    <Table size="small" sx={{ width: 'auto', '& td, & th': { px: 1.25, verticalAlign: 'top' } }}>
      <TableHead>
        <TableRow>
          <TableCell>{translate(`${TEXTS}.field`)}</TableCell>
          <TableCell>{translate(`${TEXTS}.before`)}</TableCell>
          <TableCell>{translate(`${TEXTS}.after`)}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {orderedChanges(target, changes).map(([field, change]) => (
          <TableRow key={field}>
            <TableCell>{label(field)}</TableCell>
            {change.redacted ? (
              <TableCell colSpan={2} sx={{ fontStyle: 'italic' }}>
                {translate(`${TEXTS}.redacted`)}
              </TableCell>
            ) : (
              <>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{'before' in change ? <ChangeValue target={target} field={field} value={change.before} /> : ''}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{'after' in change ? <ChangeValue target={target} field={field} value={change.after} /> : ''}</TableCell>
              </>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

const DetailLines = ({ details }: { details: Json }) => {
  const translate = useTranslate();
  const valueOf = (key: string, value: unknown) =>
    key === 'reason' ? translate(`${TEXTS}.reasons.${String(value)}`, { _: plain(value) }) : typeof value === 'boolean' ? translate(`generic.boolean.${value}`) : plain(value);
  return (
    <Box component="dl" sx={{ m: 0, typography: 'body2', display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 }}>
      {Object.entries(details).map(([key, value]) => (
        <Fragment key={key}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            {translate(`${TEXTS}.detailKeys.${key}`, { _: key })}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {valueOf(key, value)}
          </Box>
        </Fragment>
      ))}
    </Box>
  );
};

const AuditEntryLayout = () => {
  const { declaration } = useDeclaration();
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const changes = parse(record.changes);
  const details = parse(record.details);
  return (
    <SimpleShowLayout>
      {fieldsFor(declaration, 'show')
        .filter((name) => !JSON_FIELDS.includes(name))
        .map((name) => (
          <FieldDisplay key={name} source={name} label={fieldLabel(declaration, name)} />
        ))}
      {changes || record.action === 'update' ? (
        <Labeled label={fieldLabel(declaration, 'changes')}>
          {changes ? <ChangesTable record={record} changes={changes} /> : <span>{translate(`${TEXTS}.noChanges`)}</span>}
        </Labeled>
      ) : null}
      {details ? (
        <Labeled label={fieldLabel(declaration, 'details')}>
          <DetailLines details={details} />
        </Labeled>
      ) : null}
    </SimpleShowLayout>
  );
};

/** "Audit log entry #12" (the generic title would append the user name). */
const EntryTitle = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{`${translate('resources.auditLog.name', { smart_count: 1 })}${record ? ` #${record.id}` : ''}`}</>;
};

export const AuditLogShow = () => (
  <Show
    title={<EntryTitle />}
    actions={
      <TopToolbar>
        <ListButton />
      </TopToolbar>
    }
  >
    <AuditEntryLayout />
  </Show>
);
