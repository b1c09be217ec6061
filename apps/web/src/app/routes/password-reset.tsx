import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ForgotPassword } from '@/features/auth/components/forgot-password.tsx';
import { ResetPassword } from '@/features/auth/components/reset-password.tsx';
import { APP_HOME, LOGIN_PATH, paths } from '../paths.ts';

/** "Forgot password?" from the login page: the email to send a reset link to (`?email=` fills it in). */
export function ForgotPasswordPanel() {
  const [params] = useSearchParams();
  return (
    <section className="login__card">
      <ForgotPassword initialEmail={params.get('email') ?? ''} loginHref={LOGIN_PATH} />
    </section>
  );
}

/**
 * The emailed link (`/reset-password#token=…`). The secret is taken from the address bar at once, so it is not
 * left in the history or seen by anything that reads the page's address later.
 */
export function ResetPasswordPanel() {
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
  // After the first commit, not while rendering: a render React sets aside (a lazy chunk still loading) would
  // otherwise take the secret with it.
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  return (
    <section className="login__card">
      <ResetPassword
        token={token}
        onDone={() => navigate(APP_HOME, { replace: true })}
        onAskAgain={() => navigate(paths.forgotPassword, { replace: true })}
      />
    </section>
  );
}
