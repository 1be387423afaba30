// The login screen as react-admin's login page (shown when react-admin itself signs the user out):
// the light LoginForm (./LoginForm.tsx) wired to react-admin's login and the router.
import { useLogin } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { LoginForm } from './LoginForm';

export const LoginPage = () => {
  const login = useLogin();
  const navigate = useNavigate();
  return <LoginForm signIn={login} navigate={navigate} />;
};
