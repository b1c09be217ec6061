import { useLocation } from 'react-router';
import { LoginFrame } from './login.tsx';
import SignupPanel from './signup.tsx';
import VerifyEmailPanel from './verify-email.tsx';

/** Under /signup, in the login page's frame: the sign-up form, or (`/signup/confirm`) the emailed link's page. */
export default function AccountRoute() {
  const { pathname } = useLocation();
  return <LoginFrame>{pathname.endsWith('/confirm') ? <VerifyEmailPanel /> : <SignupPanel />}</LoginFrame>;
}
