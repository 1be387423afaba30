// Once per page load, asks the server who we are (`GET /login/current`): a dead token triggers the
// forced logout at once, changed permissions reach the menu, and a pending forced password change
// (e.g. after an administrator reset) opens the dialog.
import { useEffect } from 'react';
import { useRefresh } from 'ra-core';
import type { LoginAnswer } from '../providers/session';
import { useConsoleServices } from '../layout/ConsoleServices';
import { useAccountDialogs } from '../auth/AccountDialogs';

export const useSessionRefresh = (onProfileChanged: () => void) => {
  const { http, session } = useConsoleServices();
  const { forcePasswordChange } = useAccountDialogs();
  const refresh = useRefresh();
  useEffect(() => {
    let cancelled = false;
    const before = JSON.stringify([session.getUserInfo(), session.getRealName(), session.getAccountName()]);
    http
      .get<LoginAnswer>('/login/current', undefined, { silent: true })
      .then((answer) => {
        if (cancelled || !answer?.userInfo) return;
        session.refreshProfile(answer);
        const forced = session.getForcedPasswordChange();
        if (forced) forcePasswordChange(forced);
        if (JSON.stringify([session.getUserInfo(), session.getRealName(), session.getAccountName()]) !== before) {
          onProfileChanged();
          refresh(); // re-reads permissions (every canAccess answer: menu, routes, buttons) and data
        }
      })
      .catch(() => undefined); // forced-logout codes are handled by the http client
    return () => {
      cancelled = true;
    };
    // Once per mount: the layout lives as long as the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
};
