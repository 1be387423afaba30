// The audit log entry's show view (resources/auditLog.ts, docs/audit-log.md): the generic fields, then the
// changed fields as a Field / Before / After table and the details as labelled lines; the generic text
// field would show their JSON as it is stored.
import { Fragment } from 'react';
import { Labeled, ListButton, Show, SimpleShowLayout, TopToolbar, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { fieldsFor } from '../../resources/types';
import { useDeclaration } from '../generic/DeclarationContext';
import { FieldDisplay } from '../generic/FieldDisplay';
import { formatDateTime } from '../generic/format';
import { enumLabel, fieldLabel, findDeclaration } from '../providers/registry';

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
const useValueText = (resource: unknown) => {
  const { registry } = useDeclaration();
  const translate = useTranslate();
  const target = typeof resource === 'string' ? findDeclaration(registry, resource) : undefined;
  return (field: string, value: unknown): string => {
    const declared = target?.fields[field];
    if (!target || !declared || value === null || value === undefined) return plain(value);
    if (declared.type === 'datetime') return formatDateTime(value);
    if (declared.type === 'boolean') return translate(`generic.boolean.${String(value)}`, { _: plain(value) });
    if (declared.type === 'enum') return translate(enumLabel(target, field, String(value)), { _: plain(value) });
    return plain(value);
  };
};

const ChangesTable = ({ record, changes }: { record: RaRecord; changes: Json }) => {
  const translate = useTranslate();
  const valueText = useValueText(record.resource);
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
        {Object.entries(changes as Record<string, Change>).map(([field, change]) => (
          <TableRow key={field}>
            <TableCell>{label(field)}</TableCell>
            {change.redacted ? (
              <TableCell colSpan={2} sx={{ fontStyle: 'italic' }}>
                {translate(`${TEXTS}.redacted`)}
              </TableCell>
            ) : (
              <>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{'before' in change ? valueText(field, change.before) : ''}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{'after' in change ? valueText(field, change.after) : ''}</TableCell>
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
