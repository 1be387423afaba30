// The form input of one declared field (create/edit). Validation itself is form-level
// (formValidation.ts); inputs only carry a "required" marker so labels show the asterisk.
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  Labeled,
  NumberInput,
  PasswordInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  type Validator,
} from 'react-admin';
import type { FieldDeclaration, View } from '../../resources/types';
import { useDeclaration } from './DeclarationContext';
import { FieldDisplay, LABELS_META } from './FieldDisplay';
import { inputKindFor } from './fieldKinds';
import { enumChoices, fieldLabel, requireDeclaration, resourceNameOf } from '../providers/registry';
import { LocalDateInput, LocalDateTimeInput } from './pickers';
import { TreeChecklistInput } from './TreeChecklistInput';
import { OptionListInput } from './OptionListInput';
import { FileUploadInput } from './FileUploadInput';

/** A validator that never fails, flagged so react-admin marks the label as required. */
const requiredMarker: Validator = Object.assign(() => undefined, { isRequired: true });

/** Pickers search by name through `GET <apiPath>/list?nameLike=`. */
export const nameLikeQuery = (searchText: string) => (searchText ? { nameLike: searchText } : {});

/** The number input's step: whole numbers 1, declared decimals 10^-scale (0.01 for 2), else any. */
export const numberStep = (field: FieldDeclaration): number | 'any' =>
  field.integer || field.scale === 0 ? 1 : field.scale !== undefined ? Number((10 ** -field.scale).toFixed(field.scale)) : 'any';

export interface FieldInputProps {
  source: string;
  view: Extract<View, 'create' | 'edit'>;
}

export const FieldInput = ({ source, view }: FieldInputProps) => {
  const { declaration, registry } = useDeclaration();
  const field = declaration.fields[source];
  if (!field) return null;
  const label = fieldLabel(declaration, source);
  const required = Boolean(field.required || (view === 'create' && field.requiredOnCreate));
  // the declared initial value, so a new record's form shows what the server would store by default
  const defaultValue = view === 'create' ? field.defaultValue : undefined;
  const common = { source, label, validate: required ? requiredMarker : undefined, fullWidth: true };
  const target = field.reference ? requireDeclaration(registry, field.reference) : undefined;

  switch (inputKindFor(field, view)) {
    case 'readOnly':
      return (
        <Labeled label={label}>
          <FieldDisplay source={source} />
        </Labeled>
      );
    case 'textarea':
      return <TextInput {...common} defaultValue={defaultValue} multiline minRows={3} />;
    case 'number':
      return <NumberInput {...common} defaultValue={defaultValue} step={numberStep(field)} min={field.min} max={field.max} />;
    case 'boolean':
      return <BooleanInput source={source} label={label} defaultValue={defaultValue} />;
    case 'select':
      return <SelectInput {...common} defaultValue={defaultValue} choices={enumChoices(declaration, source)} />;
    case 'date':
      return <LocalDateInput {...common} defaultValue={defaultValue} />;
    case 'datetime':
      return <LocalDateTimeInput {...common} defaultValue={defaultValue} />;
    case 'reference':
      return (
        <ReferenceInput source={source} reference={resourceNameOf(target!)} queryOptions={{ meta: LABELS_META }}>
          <AutocompleteInput {...common} optionText={target!.nameField} filterToQuery={nameLikeQuery} />
        </ReferenceInput>
      );
    case 'referenceArray':
      return (
        <ReferenceArrayInput source={source} reference={resourceNameOf(target!)} queryOptions={{ meta: LABELS_META }}>
          <AutocompleteArrayInput {...common} optionText={target!.nameField} filterToQuery={nameLikeQuery} />
        </ReferenceArrayInput>
      );
    case 'treeChecklist':
      return <TreeChecklistInput source={source} label={label} reference={target!} />;
    case 'email':
      return <TextInput {...common} defaultValue={defaultValue} type="email" />;
    case 'phone':
      return <TextInput {...common} defaultValue={defaultValue} type="tel" />;
    case 'password':
      // on edit a blank write-only password keeps the stored one (the data provider leaves it out)
      return <PasswordInput {...common} autoComplete="new-password" helperText={view === 'edit' && field.writeOnly ? 'generic.form.keepPassword' : undefined} />;
    case 'optionList':
      return <OptionListInput {...common} defaultValue={defaultValue} choices={enumChoices(declaration, source)} />;
    case 'upload':
      return <FileUploadInput source={source} label={label} field={field} resource={declaration.name} validate={common.validate} required={required} />;
    default:
      return <TextInput {...common} defaultValue={defaultValue} />;
  }
};
