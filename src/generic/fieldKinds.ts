// Which react-admin component renders a declared field, per place (column/show, form input, filter).
// Kept as pure data so the mapping is unit-tested without a DOM; the components switch on these kinds.
import type { FieldDeclaration, FilterDeclaration, View } from '../../resources/types';

export type DisplayKind = 'text' | 'number' | 'boolean' | 'enum' | 'date' | 'datetime' | 'reference' | 'referenceChips' | 'email' | 'phone' | 'image' | 'file';

export type InputKind =
  | 'text'
  | 'textarea'
  | 'number'
  | 'boolean'
  | 'select'
  | 'date'
  | 'datetime'
  | 'reference'
  | 'referenceArray'
  | 'treeChecklist'
  | 'email'
  | 'phone'
  | 'password'
  | 'optionList'
  | 'upload'
  | 'readOnly';

export type FilterKind = 'text' | 'number' | 'boolean' | 'select' | 'selectMany' | 'date' | 'dateTime' | 'reference' | 'referenceMany';

export const displayKindFor = (field: FieldDeclaration): DisplayKind => {
  switch (field.type) {
    case 'textarea':
    case 'password':
      return 'text';
    case 'treeParent':
      return 'reference';
    case 'multiReference':
      return 'referenceChips';
    default:
      return field.type;
  }
};

/** The input for a field in a create or edit form; readOnly fields (if a view shows them) are displayed only. */
export const inputKindFor = (field: FieldDeclaration, view: Extract<View, 'create' | 'edit'>): InputKind => {
  if (field.readOnly) return 'readOnly';
  switch (field.type) {
    case 'enum':
      return 'select';
    case 'treeParent':
    case 'reference':
      return 'reference';
    case 'multiReference':
      return field.display === 'tree' ? 'treeChecklist' : 'referenceArray';
    case 'password':
      // writeOnly passwords are set on create only (editing a user's is a separate, audited action), unless the
      // declaration shows the field on edit too: then an optional input, left blank to keep the stored one
      return view === 'create' || !field.writeOnly || field.views?.includes('edit') ? 'password' : 'readOnly';
    // an upload with progress; the value is the uploaded file's id (docs/files.md)
    case 'image':
    case 'file':
      return 'upload';
    case 'text':
      return field.display === 'optionList' && field.options?.length ? 'optionList' : 'text';
    default:
      return field.type;
  }
};

export const filterKindFor = (filter: FilterDeclaration, field: FieldDeclaration | undefined): FilterKind => {
  const many = filter.operator === 'in';
  switch (field?.type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return many ? 'selectMany' : 'select';
    case 'reference':
    case 'treeParent':
    case 'multiReference':
      return many ? 'referenceMany' : 'reference';
    case 'date':
      return filter.operator === 'like' ? 'text' : 'date';
    // a moment, picked with its time: a day alone would be read as that day's first instant in UTC, and a
    // dashboard card's "down since" limit (a time) would lose its time in a date input
    case 'datetime':
      return filter.operator === 'like' ? 'text' : 'dateTime';
    default:
      return 'text';
  }
};
