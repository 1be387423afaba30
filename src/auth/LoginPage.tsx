// The login screen as react-admin's login page (shown when react-admin itself signs the user out):
// the light LoginForm (./LoginForm.tsx) wired to react-admin's login and the router. After sign-in
// the page named by the login URL's `next` opens (a deep link opened signed out), else home.
import { useLogin } from 'ra-core';
import { useLocation, useNavigate } from 'react-router-dom';
import type { LoginParams } from '../providers/authProvider';
import { LoginForm } from './LoginForm';
import { safeNextPath } from '../providers/routeGuard';

export const LoginPage = () => {
  const login = useLogin();
  const navigate = useNavigate();
  const { search } = useLocation();
  const signIn = async (params: Required<LoginParams>) => {
    await login(params); // goes home
    const next = safeNextPath(search);
    if (next) void navigate(next, { replace: true });
  };
  return <LoginForm signIn={signIn} navigate={navigate} />;
};
