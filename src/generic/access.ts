// Button-level permission checks (docs/product-rules.md#permission-model). The server refuses anyway; the console only hides
// what the user could not do. usePermissions() answers the stored userInfo { superAdmin, permissions }.
import { usePermissions } from 'react-admin';
import { hasPermission, type PermissionHolder } from '../../resources/permissions';
import type { Action, ResourceDeclaration } from '../../resources/types';

/** True when the declaration has the action and the holder may run it. */
export const canDo = (holder: PermissionHolder | null | undefined, declaration: ResourceDeclaration, action: Action): boolean => {
  const identifier = declaration.permissions[action];
  return identifier !== undefined && hasPermission(holder, [identifier]);
};

export interface ResourceAccess {
  can(action: Action): boolean;
  /** An extra permission identifier (declaration.extraPermissions), e.g. 'user:resetPassword'. */
  holds(identifier: string): boolean;
  isPending: boolean;
}

export const useResourceAccess = (declaration: ResourceDeclaration): ResourceAccess => {
  const { permissions, isPending } = usePermissions<PermissionHolder | undefined>();
  return {
    can: (action) => canDo(permissions, declaration, action),
    holds: (identifier) => hasPermission(permissions, [identifier]),
    isPending,
  };
};
