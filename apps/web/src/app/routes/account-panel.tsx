import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { AcceptInvitation } from '@/features/auth/components/accept-invitation.tsx';
import { APP_HOME, paths } from '../paths.ts';
import { LoginFrame } from './login.tsx';
import { ForgotPasswordPanel, ResetPasswordPanel } from './password-reset.tsx';
import SignupPanel from './signup.tsx';
import VerifyEmailPanel from './verify-email.tsx';

function InvitationPanel() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (
    <section className="login__card">
      <AcceptInvitation
        secret={params.get('secret') ?? ''}
        onJoined={() => navigate(APP_HOME, { replace: true })}
        onLogIn={() => navigate(paths.login)}
      />
    </section>
  );
}

/**
 * In the login page's frame: under /signup, the sign-up form, the emailed confirmation link's page
 * (`/signup/confirm`) or an emailed invitation to join a business (`/signup/invite`); and a forgotten password's
 * two pages (`/forgot-password`, `/reset-password`).
 */
export default function AccountRoute() {
  const { pathname } = useLocation();
  let panel = <SignupPanel />;
  if (pathname === paths.forgotPassword) panel = <ForgotPasswordPanel />;
  else if (pathname === paths.resetPassword) panel = <ResetPasswordPanel />;
  else if (pathname.endsWith('/confirm')) panel = <VerifyEmailPanel />;
  else if (pathname.endsWith('/invite')) panel = <InvitationPanel />;
  return <LoginFrame>{panel}</LoginFrame>;
}
