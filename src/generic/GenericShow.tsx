// The show view derived from a declaration: every field of the 'show' view, read-only.
import type { ReactNode } from 'react';
import { EditButton, ListButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import { fieldsFor } from '../../resources/types';
import { useDeclaration } from './DeclarationContext';
import { FieldDisplay } from './FieldDisplay';
import { fieldLabel } from '../providers/registry';

/** `actions`: a screen's own buttons in the toolbar, after the generic ones (e.g. send now). */
export const GenericShow = ({ actions }: { actions?: ReactNode }) => {
  const { declaration } = useDeclaration();
  return (
    <Show
      actions={
        <TopToolbar>
          <ListButton />
          {/* react-admin's buttons ask canAccess themselves (authProvider, src/permissions/canAccess.ts) */}
          <EditButton />
          {actions}
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
