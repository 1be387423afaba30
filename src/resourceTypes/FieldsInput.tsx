// The editor's fields: one row group per field (name, kind, labels, the checks its kind has), added,
// removed and reordered with react-admin's ArrayInput. Inputs use relative sources (the iterator's
// source context), so `name` here is `fields.<index>.name` in the form.
import { useMemo } from 'react';
import {
  ArrayInput,
  BooleanInput,
  Button,
  NumberInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useSimpleFormIterator,
  useSimpleFormIteratorItem,
  useSourceContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Box, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { RESOURCES } from '../../resources';
import { useRuntimeResources } from './ConfiguredTypesProvider';
import { isSortableKind } from '../../resources/configuredTypes';
import { CONFIGURED_FIELD_KINDS, type ConfiguredFieldKind } from './configuredType';
import { TEXT_KINDS, emptyField, maxMegabytesOf } from './editorModel';

const ROW_SX = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', columnGap: 2, alignItems: 'start', width: '100%' } as const;
const ITEM_SX = { '& .RaSimpleFormIterator-line': { borderBottom: '1px solid', borderColor: 'divider', py: 1 }, '& .RaSimpleFormIterator-form': { flex: 1, minWidth: 0 } } as const;
const PATTERN_KINDS: readonly ConfiguredFieldKind[] = ['text', 'textarea', 'phone'];

/** "Add …" with a label (the default add button is an unlabelled icon); `item` makes the new entry. */
const AddButton = ({ label, item }: { label: string; item: () => object }) => {
  const { add } = useSimpleFormIterator();
  return (
    <Button label={label} onClick={() => add(item())}>
      <AddIcon />
    </Button>
  );
};

/** The item's own value of `name` (relative source). */
const useItemValue = <T,>(name: string): T => {
  const sourceContext = useSourceContext();
  return useWatch({ name: sourceContext.getSource(name) }) as T;
};

/** What deleting a referenced record does to the records holding it (resources/types.ts `onDelete`). */
const ON_DELETE_CHOICES = (['restrict', 'setNull', 'cascade'] as const).map((id) => ({ id, name: `resourceTypes.editor.onDelete.${id}` }));
/** A list of references: "empty this field" drops the deleted record's id from the list. */
const LIST_ON_DELETE_CHOICES = ON_DELETE_CHOICES.map((choice) => (choice.id === 'setNull' ? { ...choice, name: 'resourceTypes.editor.onDelete.removeFromList' } : choice));

/** Names of resources a reference may point to: code-declared and configured (minus the one edited). */
const useReferenceChoices = (editedName: string) => {
  const translate = useTranslate();
  const { types } = useRuntimeResources();
  return useMemo(
    () => [
      ...RESOURCES.map((declaration) => ({ id: declaration.name, name: `${translate(`resources.${declaration.name}.name`, { smart_count: 1 })} (${declaration.name})` })),
      ...types
        .filter((type) => type.name !== editedName)
        .map((type) => ({ id: type.name, name: `${translate(`resources.${type.name}.name`, { smart_count: 1, _: type.name })} (${type.name})` })),
    ],
    [translate, types, editedName],
  );
};

const OptionsInput = () => (
  <ArrayInput source="options" label="resourceTypes.editor.field.options">
    <SimpleFormIterator
      inline
      disableReordering
      disableClear
      addButton={<AddButton label="resourceTypes.buttons.addOption" item={() => ({ value: '', labelEn: '', labelZh: '' })} />}
    >
      <TextInput source="value" label="resourceTypes.editor.field.optionValue" helperText={false} />
      <TextInput source="labelEn" label="resourceTypes.editor.labelEn" helperText={false} />
      <TextInput source="labelZh" label="resourceTypes.editor.labelZh" helperText={false} />
    </SimpleFormIterator>
  </ArrayInput>
);

const PatternsInput = () => (
  <ArrayInput source="patterns" label="resourceTypes.editor.field.patterns">
    <SimpleFormIterator
      inline
      disableReordering
      disableClear
      addButton={<AddButton label="resourceTypes.buttons.addPattern" item={() => ({ regex: '', messageEn: '', messageZh: '' })} />}
    >
      <TextInput source="regex" label="resourceTypes.editor.field.regex" helperText={false} />
      <TextInput source="messageEn" label="resourceTypes.editor.field.messageEn" helperText={false} />
      <TextInput source="messageZh" label="resourceTypes.editor.field.messageZh" helperText={false} />
    </SimpleFormIterator>
  </ArrayInput>
);

const FieldItem = ({ typeName }: { typeName: string }) => {
  const kind = useItemValue<ConfiguredFieldKind>('type');
  const { index } = useSimpleFormIteratorItem();
  const referenceChoices = useReferenceChoices(typeName);
  const kindChoices = CONFIGURED_FIELD_KINDS.map((id) => ({ id, name: `resourceTypes.editor.kinds.${id}` }));
  const text = TEXT_KINDS.includes(kind);
  const reference = kind === 'reference' || kind === 'multiReference';
  const files = kind === 'image' || kind === 'file';
  const translate = useTranslate();
  return (
    <Box data-field-index={index} sx={{ width: '100%' }}>
      <Box sx={ROW_SX}>
        <TextInput source="name" label="resourceTypes.editor.field.name" />
        <SelectInput source="type" label="resourceTypes.editor.field.type" choices={kindChoices} />
        <TextInput source="labelEn" label="resourceTypes.editor.labelEn" />
        <TextInput source="labelZh" label="resourceTypes.editor.labelZh" />
      </Box>
      <Box sx={ROW_SX}>
        {text ? <NumberInput source="minLength" label="resourceTypes.editor.field.minLength" /> : null}
        {text ? <NumberInput source="maxLength" label="resourceTypes.editor.field.maxLength" /> : null}
        {kind === 'number' ? <NumberInput source="min" label="resourceTypes.editor.field.min" /> : null}
        {kind === 'number' ? <NumberInput source="max" label="resourceTypes.editor.field.max" /> : null}
        {kind === 'number' ? <NumberInput source="scale" label="resourceTypes.editor.field.scale" min={0} max={6} step={1} /> : null}
        {reference ? <SelectInput source="reference" label="resourceTypes.editor.field.reference" choices={referenceChoices} translateChoice={false} /> : null}
        {reference ? (
          <SelectInput
            source="onDelete"
            label="resourceTypes.editor.field.onDelete"
            choices={kind === 'multiReference' ? LIST_ON_DELETE_CHOICES : ON_DELETE_CHOICES}
            defaultValue="restrict"
          />
        ) : null}
        {files ? (
          <NumberInput
            source="maxMegabytes"
            label="resourceTypes.editor.field.maxMegabytes"
            min={0}
            max={maxMegabytesOf(kind)}
            helperText={translate('resourceTypes.editor.field.maxMegabytesHelp', { max: maxMegabytesOf(kind) })}
          />
        ) : null}
        {files ? (
          <TextInput
            source="accept"
            label="resourceTypes.editor.field.accept"
            helperText={translate(kind === 'image' ? 'resourceTypes.editor.field.acceptImageHelp' : 'resourceTypes.editor.field.acceptHelp')}
          />
        ) : null}
        {kind === 'boolean' ? (
          <BooleanInput source="defaultTrue" label="resourceTypes.editor.field.defaultTrue" helperText={false} />
        ) : ['text', 'textarea', 'number', 'enum', 'email', 'phone'].includes(kind) ? (
          <TextInput source="default" label="resourceTypes.editor.field.default" />
        ) : null}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
        <BooleanInput source="required" label="resourceTypes.editor.field.required" helperText={false} />
        {kind && kind !== 'boolean' && isSortableKind(kind) ? <BooleanInput source="unique" label="resourceTypes.editor.field.unique" helperText={false} /> : null}
      </Box>
      {kind === 'enum' ? <OptionsInput /> : null}
      {PATTERN_KINDS.includes(kind) ? <PatternsInput /> : null}
    </Box>
  );
};

export const FieldsInput = ({ typeName }: { typeName: string }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {translate('resourceTypes.editor.fields')}
      </Typography>
      <ArrayInput source="fields" label={false}>
        <SimpleFormIterator
          fullWidth
          disableClear
          sx={ITEM_SX}
          getItemLabel={(index) => `${index + 1}`}
          // a new field starts as text with empty labels and lists
          addButton={<AddButton label="resourceTypes.buttons.addField" item={emptyField} />}
        >
          <FieldItem typeName={typeName} />
        </SimpleFormIterator>
      </ArrayInput>
    </>
  );
};
