// The user list: the generic list plus the user row actions. Lazy, like the generic views (issue 8):
// its code comes with the generic views' chunk when the list is first opened.
import { lazy } from 'react';

export const UserList = lazy(() =>
  Promise.all([import('../generic/GenericList'), import('./UserRowActions')]).then(([{ GenericList }, { UserRowActions }]) => ({
    default: () => <GenericList rowActions={<UserRowActions />} />,
  })),
);
