// The editor's list settings (columns, filters with their operator, default sort) and actions, all
// picked from the fields as currently typed in the form.
import { useEffect, useMemo, useRef } from 'react';
import { ArrayInput, Button, CheckboxGroupInput, SelectInput, SimpleFormIterator, useSimpleFormIterator, useLocaleState, useSourceContext, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { Box, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { isFilterableKind, isSortableKind } from '../../resources/configuredTypes';
import { CONFIGURED_ACTIONS } from './configuredType';
import { defaultOperatorFor, operatorsFor, type FieldValues } from './editorModel';

const ROW_SX = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', columnGap: 2, width: '100%' } as const;

/** The fields typed so far, each as "name (label)" in the console's language. */
const useFieldChoices = () => {
  const watched = useWatch({ name: 'fields' }) as FieldValues[] | undefined;
  const [locale] = useLocaleState();
  return useMemo(
    () =>
      (watched ?? [])
        .filter((field) => field?.name)
        .map((field) => {
          const label = (locale === 'zh' ? field.labelZh : field.labelEn) || field.labelEn;
          return { id: field.name, name: label ? `${field.name} (${label})` : field.name, type: field.type };
        }),
    [watched, locale],
  );
};

const AddFilterButton = () => {
  const { add } = useSimpleFormIterator();
  return (
    <Button label="resourceTypes.buttons.addFilter" onClick={() => add({ field: '', operator: 'like' })}>
      <AddIcon />
    </Button>
  );
};

const FilterItem = () => {
  // filters need an indexable kind (no long text, image or file); a multiReference filters by containment
  const choices = useFieldChoices().filter((choice) => choice.type && isFilterableKind(choice.type));
  const sourceContext = useSourceContext();
  const fieldName = useWatch({ name: sourceContext.getSource('field') }) as string | undefined;
  const kind = choices.find((choice) => choice.id === fieldName)?.type;
  const operators = operatorsFor(kind).map((id) => ({ id, name: `resourceTypes.editor.operators.${id}` }));
  // Choosing (another) field sets its kind's usual operator ("contains" for texts); a stored filter keeps its own.
  const { setValue } = useFormContext();
  const chosen = useRef(fieldName);
  useEffect(() => {
    if (chosen.current === fieldName) return;
    chosen.current = fieldName;
    if (kind) setValue(sourceContext.getSource('operator'), defaultOperatorFor(kind), { shouldDirty: true });
  }, [fieldName, kind, setValue, sourceContext]);
  return (
    <Box sx={ROW_SX}>
      <SelectInput source="field" label="resourceTypes.editor.filterField" choices={choices} translateChoice={false} />
      <SelectInput source="operator" label="resourceTypes.editor.operator" choices={operators} />
    </Box>
  );
};

export const ListSettingsInput = () => {
  const translate = useTranslate();
  const choices = useFieldChoices();
  const orders = [
    { id: 'ASC', name: 'resourceTypes.editor.orders.ASC' },
    { id: 'DESC', name: 'resourceTypes.editor.orders.DESC' },
  ];
  return (
    <>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {translate('resourceTypes.editor.list')}
      </Typography>
      <CheckboxGroupInput source="columns" label="resourceTypes.editor.columns" choices={choices} translateChoice={false} />
      <ArrayInput source="filters" label="resourceTypes.editor.filters">
        <SimpleFormIterator disableReordering disableClear addButton={<AddFilterButton />} sx={{ maxWidth: 720, '& .RaSimpleFormIterator-form': { flex: 1, minWidth: 0 } }}>
          <FilterItem />
        </SimpleFormIterator>
      </ArrayInput>
      <Box sx={ROW_SX}>
        <SelectInput
          source="sortField"
          label="resourceTypes.editor.sortField"
          choices={choices.filter((choice) => choice.type && isSortableKind(choice.type))}
          translateChoice={false}
        />
        <SelectInput source="sortOrder" label="resourceTypes.editor.sortOrder" choices={orders} />
      </Box>
      <Typography component="h2" variant="h6" sx={{ mt: 2, mb: 1 }}>
        {translate('resourceTypes.editor.actions')}
      </Typography>
      <CheckboxGroupInput source="actions" label={false} choices={CONFIGURED_ACTIONS.map((id) => ({ id, name: `resourceTypes.editor.actionNames.${id}` }))} />
    </>
  );
};
