// The show view derived from a declaration: every field of the 'show' view, read-only.
import { EditButton, ListButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import { fieldsFor } from '../../resources/types';
import { useResourceAccess } from './access';
import { useDeclaration } from './DeclarationContext';
import { FieldDisplay } from './FieldDisplay';
import { fieldLabel } from './registry';

export const GenericShow = () => {
  const { declaration } = useDeclaration();
  const access = useResourceAccess(declaration);
  return (
    <Show
      actions={
        <TopToolbar>
          <ListButton />
          {access.can('edit') ? <EditButton /> : null}
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        {fieldsFor(declaration, 'show').map((name) => (
          <FieldDisplay key={name} source={name} label={fieldLabel(declaration, name)} />
        ))}
      </SimpleShowLayout>
    </Show>
  );
};
