// Permission matching (docs/product-rules.md#permission-model), shared by the server's route guard and the console's
// permission component and menu. `*` is a wildcard on either side ('user:*' grants 'user:add';
// a required 'report:*' is met by 'report:view').
export interface PermissionHolder {
  superAdmin?: boolean;
  permissions?: ReadonlyArray<{ id?: number; identifier: string }>;
}

const toRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

export const identifierMatches = (granted: string, required: string): boolean => {
  if (granted === required) return true;
  if (granted.includes('*') && toRegExp(granted).test(required)) return true;
  if (required.includes('*') && toRegExp(required).test(granted)) return true;
  return false;
};

/**
 * One-way test for granting: does holding `granted` give everything `target` gives? A `*` in
 * `granted` is a wildcard; `target` is read literally, so a target 'user:*' is covered by 'user:*'
 * or '*' but not by 'user:add' (unlike `identifierMatches`, which is symmetric).
 */
export const identifierCovers = (granted: string, target: string): boolean => granted === target || (granted.includes('*') && toRegExp(granted).test(target));

/** True when the holder is superAdmin or holds one of `required`. An empty list is a programming error. */
export const hasPermission = (holder: PermissionHolder | null | undefined, required: readonly string[]): boolean => {
  if (required.length === 0) throw new Error('hasPermission needs at least one identifier');
  if (!holder) return false;
  if (holder.superAdmin) return true;
  return (holder.permissions ?? []).some((p) => required.some((r) => identifierMatches(p.identifier, r)));
};
