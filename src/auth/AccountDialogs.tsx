// Opens the change-password and switch-account dialogs from anywhere in the layout, and keeps the
// change-password dialog forced open while the session says the password must change.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ForcedPasswordChange } from '../providers/session';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { SwitchAccountDialog } from './SwitchAccountDialog';

interface AccountDialogsApi {
  openChangePassword: () => void;
  openSwitchAccount: () => void;
  /** Forces the change-password dialog (login answer or `GET /login/current` said so; a 4007 answer does it through the session). */
  forcePasswordChange: (reason: ForcedPasswordChange) => void;
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
    }),
    [forcePasswordChange],
  );

  return (
    <AccountDialogsContext.Provider value={api}>
      {children}
      <ChangePasswordDialog open={changePasswordOpen || forced !== null} forced={forced} onClose={() => setChangePasswordOpen(false)} />
      <SwitchAccountDialog open={switchAccountOpen} onClose={() => setSwitchAccountOpen(false)} />
    </AccountDialogsContext.Provider>
  );
};

export const useAccountDialogs = (): AccountDialogsApi => {
  const api = useContext(AccountDialogsContext);
  if (!api) throw new Error('useAccountDialogs must be used inside <AccountDialogsProvider>');
  return api;
};
