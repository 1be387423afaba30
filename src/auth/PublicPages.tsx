// The public pages with a router (a lazy chunk of ./PublicApp.tsx): forgot password, reset password
// and the login form again, so the pages link to each other; any other path is the login page.
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { ResetPasswordPage } from './ResetPasswordPage';
import { LoginForm } from './LoginForm';
import type { SignIn } from './PublicApp';
import { LOGIN_PATH } from '../providers/routeGuard';

const RoutedLogin = ({ signIn }: { signIn: SignIn }) => {
  const navigate = useNavigate();
  return <LoginForm signIn={signIn} navigate={navigate} />;
};

const PublicPages = ({ signIn }: { signIn: SignIn }) => (
  <BrowserRouter>
    <Routes>
      <Route path="/login" element={<RoutedLogin signIn={signIn} />} />
      <Route path="/forgotPassword" element={<ForgotPasswordPage />} />
      <Route path="/resetPassword" element={<ResetPasswordPage />} />
      <Route path="*" element={<Navigate to={LOGIN_PATH} replace />} />
    </Routes>
  </BrowserRouter>
);

export default PublicPages;
