// Filter-bar inputs derived from `list.filters`: alwaysOn ones are shown, the rest sit behind
// react-admin's "Add filter" button. Labels are `resources.<name>.filters.<filter>`.
import type { ReactElement } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  NullableBooleanInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { valueWithLabel } from '../../resources/display';
import type { FieldDeclaration, ResourceDeclaration } from '../../resources/types';
import { LABELS_META } from './FieldDisplay';
import { nameLikeQuery } from './FieldInput';
import { LocalDateInput, LocalDateTimeInput } from './pickers';
import { filterKindFor } from './fieldKinds';
import { resourceNameChoices } from './resourceNames';
import { enumChoices, filterLabel, requireDeclaration, resourceNameOf, type Registry } from '../providers/registry';

/** `display: 'valueLabel'` enums: each choice shows its value before its label, as the column does. */
const ValueLabelChoice = () => {
  const choice = useRecordContext<{ id: string; name: string }>();
  const translate = useTranslate();
  return <>{choice ? valueWithLabel(choice.id, translate(choice.name, { _: choice.id })) : null}</>;
};

/** `display: 'resourceName'`: the declared options and the registry's configured types, each by its label. */
const ResourceNameFilterInput = ({
  declaration,
  field,
  registry,
  single,
  ...common
}: {
  source: string;
  label: string;
  alwaysOn?: boolean;
  declaration: ResourceDeclaration;
  field: string;
  registry: Registry;
  single?: boolean;
}) => {
  const translate = useTranslate();
  const choices = resourceNameChoices(translate, declaration, field, registry);
  return single ? <SelectInput {...common} choices={choices} translateChoice={false} /> : <SelectArrayInput {...common} choices={choices} translateChoice={false} />;
};

const choiceText = (display: FieldDeclaration['display']) => (display === 'valueLabel' ? { optionText: <ValueLabelChoice /> } : {});

export const buildFilterInputs = (declaration: ResourceDeclaration, registry: Registry): ReactElement[] =>
  declaration.list.filters.map((filter) => {
    const field = declaration.fields[filter.field];
    const key = filter.name;
    const common = { source: filter.name, label: filterLabel(declaration, filter.name), alwaysOn: filter.alwaysOn };
    const target = field?.reference ? requireDeclaration(registry, field.reference) : undefined;
    switch (filterKindFor(filter, field)) {
      case 'number':
        return <NumberInput key={key} {...common} />;
      case 'boolean':
        return <NullableBooleanInput key={key} {...common} />;
      case 'select':
        if (field?.display === 'resourceName') return <ResourceNameFilterInput key={key} {...common} declaration={declaration} field={filter.field} registry={registry} single />;
        return <SelectInput key={key} {...common} choices={enumChoices(declaration, filter.field)} {...choiceText(field?.display)} />;
      case 'selectMany':
        if (field?.display === 'resourceName') return <ResourceNameFilterInput key={key} {...common} declaration={declaration} field={filter.field} registry={registry} />;
        return <SelectArrayInput key={key} {...common} choices={enumChoices(declaration, filter.field)} {...choiceText(field?.display)} />;
      case 'date':
        return <LocalDateInput key={key} {...common} filter />;
      case 'dateTime':
        return <LocalDateTimeInput key={key} {...common} filter />;
      case 'reference':
        return (
          <ReferenceInput key={key} source={filter.name} alwaysOn={filter.alwaysOn} reference={resourceNameOf(target!)} queryOptions={{ meta: LABELS_META }}>
            <AutocompleteInput label={common.label} optionText={target!.nameField} filterToQuery={nameLikeQuery} />
          </ReferenceInput>
        );
      case 'referenceMany':
        return (
          <ReferenceArrayInput key={key} source={filter.name} alwaysOn={filter.alwaysOn} reference={resourceNameOf(target!)} queryOptions={{ meta: LABELS_META }}>
            <AutocompleteArrayInput label={common.label} optionText={target!.nameField} filterToQuery={nameLikeQuery} />
          </ReferenceArrayInput>
        );
      default:
        return <TextInput key={key} {...common} resettable />;
    }
  });
