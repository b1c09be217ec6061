import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { MobileStep } from '@/features/auth/components/mobile-step.tsx';
import { SignupForm } from '@/features/auth/components/signup-form.tsx';
import { hasSession } from '@/lib/cookies.ts';
import { APP_HOME, paths } from '../paths.ts';

type Step = { kind: 'details' } | { kind: 'mobile'; email: string; mobile: string };

/** Sign-up (in the login page's frame): the business's details, then optionally the owner's mobile, then the inbox. */
export default function SignupPanel() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'details' });
  // Someone already signed in has nothing to sign up for (checked once: the form itself signs the person in).
  const [signedInAtOpen] = useState(hasSession);
  if (signedInAtOpen) return <Navigate to={APP_HOME} replace />;

  if (step.kind === 'mobile') {
    return (
      <section className="login__card" aria-labelledby="signup-title">
        <h1 id="signup-title" className="login__title">
          Confirm your mobile
        </h1>
        <p className="login__lead">
          We sent a link to {step.email} to confirm your email. Meanwhile, confirm your mobile so we can reach
          you about your account.
        </p>
        <MobileStep initialMobile={step.mobile} onDone={() => navigate(APP_HOME, { replace: true })} />
      </section>
    );
  }
  return (
    <section className="login__card" aria-labelledby="signup-title">
      <h1 id="signup-title" className="login__title">
        Create your account
      </h1>
      <p className="login__lead">Set up your business in a minute and start a free trial. No card needed.</p>
      <SignupForm onSignedUp={(r) => setStep({ kind: 'mobile', ...r })} />
      <p className="login__switch">
        Already have an account? <Link to={paths.login}>Log in</Link>
      </p>
    </section>
  );
}
