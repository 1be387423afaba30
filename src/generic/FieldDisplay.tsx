// Read-only rendering of one declared field (list cells, show view, readOnly values in forms).
import {
  BooleanField,
  ChipField,
  EmailField,
  FileField,
  FunctionField,
  ImageField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SingleFieldList,
  TextField,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useDeclaration } from './DeclarationContext';
import { displayKindFor } from './fieldKinds';
import { formatDate, formatDateTime } from './format';
import { enumLabel, requireDeclaration, resourceNameOf } from './registry';

/** getMany/getList through `GET <apiPath>/list` (see providers/dataProvider.ts). */
export const LABELS_META = { labels: true } as const;

export interface FieldDisplayProps {
  source: string;
  /** Read by SimpleShowLayout / Labeled to title the value; not used for rendering. */
  label?: string;
}

export const FieldDisplay = ({ source }: FieldDisplayProps) => {
  const { declaration, registry } = useDeclaration();
  const translate = useTranslate();
  const field = declaration.fields[source];
  if (!field) return null;
  const valueOf = (record: RaRecord) => record?.[source];

  switch (displayKindFor(field)) {
    case 'number':
      return <NumberField source={source} />;
    case 'boolean':
      return <BooleanField source={source} />;
    case 'enum':
      return (
        <FunctionField
          source={source}
          render={(record: RaRecord) => {
            const value = valueOf(record);
            return value === null || value === undefined ? '' : translate(enumLabel(declaration, source, value), { _: String(value) });
          }}
        />
      );
    case 'datetime':
      return <FunctionField source={source} render={(record: RaRecord) => formatDateTime(valueOf(record))} />;
    case 'date':
      return <FunctionField source={source} render={(record: RaRecord) => formatDate(valueOf(record))} />;
    case 'reference': {
      const target = requireDeclaration(registry, field.reference ?? declaration.name);
      return (
        <ReferenceField source={source} reference={resourceNameOf(target)} link={false} queryOptions={{ meta: LABELS_META }}>
          <TextField source={target.nameField} />
        </ReferenceField>
      );
    }
    case 'referenceChips': {
      const target = requireDeclaration(registry, field.reference ?? declaration.name);
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
    case 'image':
      return <ImageField source={source} />;
    case 'file':
      return <FileField source={source} title={source} />;
    default:
      return <TextField source={source} />;
  }
};
