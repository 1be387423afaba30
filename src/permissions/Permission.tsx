// The permission directive (docs/product-rules.md#permission-model) as a component: renders its children only when the user is
// superAdmin or holds one of `identifiers` (`*` wildcard). An empty list is a programming error.
import type { ReactNode } from 'react';
import { usePermissions } from 'ra-core';
import { hasPermission } from '../../resources/permissions';
import type { UserInfo } from '../providers/session';

export interface PermissionProps {
  identifiers: readonly string[];
  children: ReactNode;
  /** Rendered instead when the permission is missing (nothing by default). */
  fallback?: ReactNode;
}

/** Hook form: `const can = useHasPermission(); can(['user:add'])`. */
export const useHasPermission = () => {
  const { permissions } = usePermissions<UserInfo | null>();
  return (identifiers: readonly string[]) => hasPermission(permissions, identifiers);
};

export const Permission = ({ identifiers, children, fallback = null }: PermissionProps) => {
  // Refused before any hook runs: an empty list is a programming error, never a runtime state.
  if (identifiers.length === 0) throw new Error('<Permission> needs at least one identifier');
  const { permissions, isPending } = usePermissions<UserInfo | null>();
  if (isPending) return null;
  return <>{hasPermission(permissions, identifiers) ? children : fallback}</>;
};
