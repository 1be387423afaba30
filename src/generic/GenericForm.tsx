// Create and edit views derived from a declaration: inputs of the view's fields, validation from
// resources/validation.ts (the server's rules) as form-level validation, server issues as field errors.
import { useMemo } from 'react';
import {
  Create,
  DeleteButton,
  Edit,
  ListButton,
  SaveButton,
  ShowButton,
  SimpleForm,
  Toolbar,
  TopToolbar,
} from 'react-admin';
import { fieldsFor } from '../../resources/types';
import { useResourceAccess } from './access';
import { useDeclaration } from './DeclarationContext';
import { FieldInput } from './FieldInput';
import { formValidator } from './formValidation';

const GenericFormBody = ({ mode }: { mode: 'create' | 'edit' }) => {
  const { declaration } = useDeclaration();
  const access = useResourceAccess(declaration);
  const fieldNames = useMemo(() => fieldsFor(declaration, mode), [declaration, mode]);
  const validate = useMemo(() => formValidator(declaration, mode, fieldNames), [declaration, mode, fieldNames]);
  const toolbar = (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {mode === 'edit' && access.can('delete') ? <DeleteButton mutationMode="pessimistic" /> : null}
    </Toolbar>
  );
  return (
    <SimpleForm validate={validate} toolbar={toolbar} sx={{ maxWidth: 720 }}>
      {fieldNames.map((name) => (
        <FieldInput key={name} source={name} view={mode} />
      ))}
    </SimpleForm>
  );
};

export const GenericEdit = () => {
  const { declaration } = useDeclaration();
  const access = useResourceAccess(declaration);
  return (
    // pessimistic: the server's validation issues must come back to the form as field errors
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <ListButton />
          {access.can('show') ? <ShowButton /> : null}
        </TopToolbar>
      }
    >
      <GenericFormBody mode="edit" />
    </Edit>
  );
};

export const GenericCreate = () => (
  <Create
    redirect="list"
    actions={
      <TopToolbar>
        <ListButton />
      </TopToolbar>
    }
  >
    <GenericFormBody mode="create" />
  </Create>
);
