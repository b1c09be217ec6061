import { useNavigate, useSearchParams } from 'react-router';
import { VerifyEmail } from '@/features/auth/components/verify-email.tsx';
import { hasSession } from '@/lib/cookies.ts';
import { APP_HOME, LOGIN_PATH } from '../paths.ts';

/** The emailed confirmation link lands here (in the login page's frame), signed in or not: it may be opened on another device. */
export default function VerifyEmailPanel() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signedIn = hasSession();
  return (
    <section className="login__card">
      <VerifyEmail
        secret={params.get('secret') ?? ''}
        signedIn={signedIn}
        onContinue={async () => {
          // The signed-in user (and the account banner) read the confirmed state again.
          const { queryClient } = await import('@/lib/query-client.ts');
          await queryClient.invalidateQueries();
          navigate(signedIn ? APP_HOME : LOGIN_PATH, { replace: true });
        }}
      />
    </section>
  );
}
