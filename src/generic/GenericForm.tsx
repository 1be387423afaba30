// Create and edit views derived from a declaration: inputs of the view's fields, validation from
// resources/validation.ts (the server's rules) as form-level validation, server issues as field errors.
import { useMemo, type ReactNode } from 'react';
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
  useNotify,
  useRedirect,
  useResourceContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { fieldsFor } from '../../resources/types';
import { useDeclaration } from './DeclarationContext';
import { FieldInput } from './FieldInput';
import { formValidator } from './formValidation';
import { resourceLabel } from '../providers/registry';

const GenericFormBody = ({ mode }: { mode: 'create' | 'edit' }) => {
  const { declaration } = useDeclaration();
  const fieldNames = useMemo(() => fieldsFor(declaration, mode), [declaration, mode]);
  const validate = useMemo(() => formValidator(declaration, mode, fieldNames), [declaration, mode, fieldNames]);
  const toolbar = (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {/* react-admin's buttons ask canAccess themselves (authProvider, src/permissions/canAccess.ts) */}
      {mode === 'edit' ? <DeleteButton mutationMode="pessimistic" /> : null}
    </Toolbar>
  );
  return (
    // noValidate: the declaration's validation speaks the user's language; no browser bubbles (issue 9)
    <SimpleForm validate={validate} toolbar={toolbar} sx={{ maxWidth: 720 }} noValidate>
      {fieldNames.map((name) => (
        <FieldInput key={name} source={name} view={mode} />
      ))}
    </SimpleForm>
  );
};

/**
 * What react-admin does after a save (a toast, back to the list), with a toast that names the
 * resource in the user's language ("User created") instead of react-admin's "Element created".
 */
const useSavedToast = (kind: 'created' | 'updated') => {
  const { declaration } = useDeclaration();
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  return (data: RaRecord) => {
    notify(`generic.notification.${kind}`, { type: 'info', messageArgs: { name: translate(resourceLabel(declaration), { smart_count: 1 }) } });
    redirect('list', resource, data.id, data);
  };
};

/** `actions`: a screen's own buttons in the toolbar, after the generic ones (e.g. send now). */
export const GenericEdit = ({ actions }: { actions?: ReactNode }) => {
  const onSuccess = useSavedToast('updated');
  return (
    // pessimistic: the server's validation issues must come back to the form as field errors
    <Edit
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess }}
      actions={
        <TopToolbar>
          <ListButton />
          <ShowButton />
          {actions}
        </TopToolbar>
      }
    >
      <GenericFormBody mode="edit" />
    </Edit>
  );
};

export const GenericCreate = () => {
  const onSuccess = useSavedToast('created');
  return (
    <Create
      redirect="list"
      mutationOptions={{ onSuccess }}
      actions={
        <TopToolbar>
          <ListButton />
        </TopToolbar>
      }
    >
      <GenericFormBody mode="create" />
    </Create>
  );
};
