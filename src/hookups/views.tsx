// The APIs area's list views (customViews of resources/hookup*.ts): the generic list plus the secret button
// (apps) or resend and replay (transactions). Lazy, like the generic views (issue 8).
import { lazy } from 'react';

export const HookupAppList = lazy(() =>
  Promise.all([import('../generic/GenericList'), import('./AppRowActions')]).then(([{ GenericList }, { AppRowActions }]) => ({
    default: () => <GenericList rowActions={<AppRowActions />} />,
  })),
);

export const HookupMessageList = lazy(() =>
  Promise.all([import('../generic/GenericList'), import('./MessageActions'), import('@mui/material/Stack')]).then(([{ GenericList }, actions, { default: Stack }]) => ({
    default: () => (
      <>
        <Stack direction="row" justifyContent="flex-end" sx={{ mt: 1 }}>
          <actions.ReplayButton />
        </Stack>
        {/* resend: select rows (one or many); a row button would cost a column that 1280 px does not have */}
        <GenericList bulkActions={<actions.ResendSelectedButton />} />
      </>
    ),
  })),
);
