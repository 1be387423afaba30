// Read-only rendering of one declared field (list cells, show view, readOnly values in forms).
import {
  BooleanField,
  ChipField,
  EmailField,
  FunctionField,
  Link,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SingleFieldList,
  TextField,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Box, Chip } from '@mui/material';
import type { MouseEvent, ReactNode } from 'react';
import { formatDuration, linkFor, valueWithLabel } from '../../resources/display';
import { useDeclaration } from './DeclarationContext';
import { displayKindFor } from './fieldKinds';
import { formatDate, formatDateTime, formatScaled } from './format';
import { enumLabel, requireDeclaration, resourceNameOf } from '../providers/registry';
import { statusColor } from './statusColors';
import { hasRecordLabel } from './recordLabels';
import { RecordLabelField, TranslatedReferenceChips, TranslatedReferenceField } from './RecordLabel';
import { FileValueField, ImageValueField } from './FileFields';
import { splitOptionList } from './OptionListInput';
import { resourceNameText } from './resourceNames';

/** getMany/getList through `GET <apiPath>/list` (see providers/dataProvider.ts). */
export const LABELS_META = { labels: true } as const;

export interface FieldDisplayProps {
  source: string;
  /** Read by SimpleShowLayout / Labeled to title the value; not used for rendering. */
  label?: string;
  /** A list cell: `display: 'excerpt'` texts are cut to one short line there (whole elsewhere). */
  cell?: boolean;
}

/** A `link` field: the value links to the declared route (a click does not also open the row). */
const FieldLink = ({ template, children }: { template: string; children: ReactNode }) => {
  const to = linkFor(template, useRecordContext());
  if (!to) return <>{children}</>;
  return (
    <Link to={to} onClick={(event: MouseEvent) => event.stopPropagation()}>
      {children}
    </Link>
  );
};

/** `display: 'valueLabel'`: the stored code on its own line, its label below (two short lines, not four). */
const ValueLabel = ({ value, label }: { value: string; label: string }) => (
  <Box component="span" sx={{ display: 'block', minWidth: 160 }} title={valueWithLabel(value, label)}>
    <Box component="span" sx={{ display: 'block', whiteSpace: 'nowrap', color: 'text.secondary', fontSize: '0.85em' }}>
      {value}
    </Box>
    {label === value ? null : label}
  </Box>
);

export const FieldDisplay = (props: FieldDisplayProps) => {
  const { declaration } = useDeclaration();
  const link = declaration.fields[props.source]?.link;
  return link ? (
    <FieldLink template={link}>
      <ValueDisplay {...props} />
    </FieldLink>
  ) : (
    <ValueDisplay {...props} />
  );
};

const ValueDisplay = ({ source, cell }: FieldDisplayProps) => {
  const { declaration, registry } = useDeclaration();
  const translate = useTranslate();
  const field = declaration.fields[source];
  if (!field) return null;
  const valueOf = (record: RaRecord) => record?.[source];
  // seed-data names (permissions) are shown translated
  if (source === declaration.nameField && hasRecordLabel(declaration)) return <RecordLabelField declaration={declaration} />;
  if (field.display === 'optionList' && field.options?.length) {
    // a list of declared options (alarm codes, webhook events): each as its label in the user's language, the
    // stored value in the tooltip (the value is what the API and receivers see)
    return (
      <FunctionField
        source={source}
        render={(record: RaRecord) => (
          <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {splitOptionList(valueOf(record)).map((value) => (
              <Chip key={value} size="small" label={translate(enumLabel(declaration, source, value), { _: value })} title={value} data-value={value} />
            ))}
          </Box>
        )}
      />
    );
  }

  switch (displayKindFor(field)) {
    case 'number':
      if (field.display === 'duration') return <FunctionField source={source} render={(record: RaRecord) => formatDuration(valueOf(record))} />;
      // a declared scale shows every decimal (a refund of 0.5 with scale 2 reads 0.50), or the record's own (scaleField)
      if (field.scaleField) {
        const digitsField = field.scaleField;
        return <FunctionField source={source} render={(record: RaRecord) => formatScaled(valueOf(record), record?.[digitsField] ?? field.scale)} />;
      }
      return <NumberField source={source} options={field.scale === undefined ? undefined : { minimumFractionDigits: field.scale, maximumFractionDigits: field.scale }} />;
    case 'boolean':
      return <BooleanField source={source} />;
    case 'enum':
      return (
        <FunctionField
          source={source}
          render={(record: RaRecord) => {
            const value = valueOf(record);
            if (value === null || value === undefined) return '';
            // `display: 'resourceName'`: a configured type's name by its label (src/generic/resourceNames.ts)
            const label =
              field.display === 'resourceName' ? resourceNameText(translate, declaration, source, value) : translate(enumLabel(declaration, source, value), { _: String(value) });
            if (field.display === 'valueLabel') return <ValueLabel value={String(value)} label={label} />;
            // `display: 'status'`: a coloured chip (e.g. machine status Up / Offline / Down / Sleep)
            return field.display === 'status' ? <Chip size="small" label={label} color={statusColor(value)} data-status={String(value)} /> : label;
          }}
        />
      );
    case 'datetime':
      return <FunctionField source={source} render={(record: RaRecord) => formatDateTime(valueOf(record))} />;
    case 'date':
      return <FunctionField source={source} render={(record: RaRecord) => formatDate(valueOf(record))} />;
    case 'reference': {
      const target = requireDeclaration(registry, field.reference ?? declaration.name);
      if (hasRecordLabel(target)) return <TranslatedReferenceField source={source} target={target} />;
      return (
        <ReferenceField source={source} reference={resourceNameOf(target)} link={false} queryOptions={{ meta: LABELS_META }}>
          <TextField source={target.nameField} />
        </ReferenceField>
      );
    }
    case 'referenceChips': {
      const target = requireDeclaration(registry, field.reference ?? declaration.name);
      if (hasRecordLabel(target)) return <TranslatedReferenceChips source={source} target={target} />;
      return (
        <ReferenceArrayField source={source} reference={resourceNameOf(target)} queryOptions={{ meta: LABELS_META }}>
          <SingleFieldList linkType={false}>
            <ChipField source={target.nameField} size="small" />
          </SingleFieldList>
        </ReferenceArrayField>
      );
    }
    case 'email':
      return <EmailField source={source} />;
    // uploaded files by id (docs/files.md): a thumbnail, a download link
    case 'image':
      return <ImageValueField source={source} />;
    case 'file':
      return <FileValueField source={source} />;
    default:
      if (field.display === 'excerpt' && cell) {
        return (
          <FunctionField
            source={source}
            render={(record: RaRecord) => {
              const text = String(valueOf(record) ?? '');
              return (
                <Box component="span" title={text} sx={{ display: 'block', maxWidth: 130, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {text}
                </Box>
              );
            }}
          />
        );
      }
      return <TextField source={source} />;
  }
};
