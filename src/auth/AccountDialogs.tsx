// Opens the change-password and switch-account dialogs from anywhere in the layout, and keeps the
// change-password dialog forced open while the session says the password must change.
import { createContext, lazy, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ForcedPasswordChange } from '../providers/session';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ChunkSuspense } from '../pages/ChunkBoundary';

// Loaded at the first opening (with the password cipher their checks use), not with every screen
// (issue 8's home budget); once loaded they stay mounted, so closing animates.
const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog').then((module) => ({ default: module.ChangePasswordDialog })));
const SwitchAccountDialog = lazy(() => import('./SwitchAccountDialog').then((module) => ({ default: module.SwitchAccountDialog })));

/** True from the first time `open` is true. */
const useOpenedOnce = (open: boolean) => {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
};

interface AccountDialogsApi {
  openChangePassword: () => void;
  openSwitchAccount: () => void;
  /** Forces the change-password dialog (login answer or `GET /login/current` said so; a 4007 answer does it through the session). */
  forcePasswordChange: (reason: ForcedPasswordChange) => void;
  /** True while the password must change: the screens' calls would all be refused (4007), so none is shown. */
  passwordChangeForced: boolean;
}

const AccountDialogsContext = createContext<AccountDialogsApi | null>(null);

export const AccountDialogsProvider = ({ children }: { children: ReactNode }) => {
  const { session } = useConsoleServices();
  const [forced, setForced] = useState<ForcedPasswordChange | null>(() => session.getForcedPasswordChange());
  const [changePasswordOpen, setChangePasswordOpen] = useState(false);
  const [switchAccountOpen, setSwitchAccountOpen] = useState(false);

  const forcePasswordChange = useCallback((reason: ForcedPasswordChange) => setForced(reason), []);
  // Any call the server refused with 4007 (password change required) forces the dialog too.
  useEffect(() => session.onForcedPasswordChange(forcePasswordChange), [session, forcePasswordChange]);
  const api = useMemo<AccountDialogsApi>(
    () => ({
      openChangePassword: () => setChangePasswordOpen(true),
      openSwitchAccount: () => setSwitchAccountOpen(true),
      forcePasswordChange,
      passwordChangeForced: forced !== null,
    }),
    [forcePasswordChange, forced],
  );

  const changePasswordShown = changePasswordOpen || forced !== null;
  const changePasswordMounted = useOpenedOnce(changePasswordShown);
  const switchAccountMounted = useOpenedOnce(switchAccountOpen);
  return (
    <AccountDialogsContext.Provider value={api}>
      {children}
      {changePasswordMounted && (
        <ChunkSuspense fallback={null}>
          <ChangePasswordDialog open={changePasswordShown} forced={forced} onClose={() => setChangePasswordOpen(false)} />
        </ChunkSuspense>
      )}
      {switchAccountMounted && (
        <ChunkSuspense fallback={null}>
          <SwitchAccountDialog open={switchAccountOpen} onClose={() => setSwitchAccountOpen(false)} />
        </ChunkSuspense>
      )}
    </AccountDialogsContext.Provider>
  );
};

export const useAccountDialogs = (): AccountDialogsApi => {
  const api = useContext(AccountDialogsContext);
  if (!api) throw new Error('useAccountDialogs must be used inside <AccountDialogsProvider>');
  return api;
};
