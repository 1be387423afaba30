// Guards a route by the declaration's permission for the action: without it the user lands on the
// /401 page (docs/product-rules.md#screens-and-routes) instead of a screen whose every call the server would refuse.
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { Loading } from 'react-admin';
import type { Action } from '../../resources/types';
import { useResourceAccess } from './access';
import { useDeclaration } from './DeclarationContext';

export const RequirePermission = ({ action, children }: { action: Action; children: ReactNode }) => {
  const { declaration } = useDeclaration();
  const access = useResourceAccess(declaration);
  if (access.isPending) return <Loading />;
  if (!access.can(action)) return <Navigate to="/401" replace />;
  return <>{children}</>;
};
