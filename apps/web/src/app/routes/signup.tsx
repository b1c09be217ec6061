import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import type { RegisterInput, SignupStarted } from '@/features/auth/api/register.ts';
import { MobileStep } from '@/features/auth/components/mobile-step.tsx';
import { SignupCodeStep } from '@/features/auth/components/signup-code-step.tsx';
import { SignupForm } from '@/features/auth/components/signup-form.tsx';
import { hasSession } from '@/lib/cookies.ts';
import { APP_HOME, paths } from '../paths.ts';

type Step =
  | { kind: 'details' }
  | { kind: 'code'; started: SignupStarted; input: RegisterInput }
  | { kind: 'mobile'; mobile: string };

/**
 * Sign-up (in the login page's frame): the business's details, then the code emailed to the owner (which creates
 * the business and signs them in), then optionally their mobile, then the inbox.
 */
export default function SignupPanel() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'details' });
  // Someone already signed in has nothing to sign up for (checked once: the code step itself signs the person in).
  const [signedInAtOpen] = useState(hasSession);
  if (signedInAtOpen) return <Navigate to={APP_HOME} replace />;

  if (step.kind === 'mobile') {
    return (
      <section className="login__card" aria-labelledby="signup-title">
        <h1 id="signup-title" className="login__title">
          Confirm your mobile
        </h1>
        <p className="login__lead">
          Your email is confirmed and your business is ready. Confirm your mobile too, so we can reach you
          about your account.
        </p>
        <MobileStep initialMobile={step.mobile} onDone={() => navigate(APP_HOME, { replace: true })} />
      </section>
    );
  }
  return (
    <section className="login__card" aria-labelledby="signup-title">
      {step.kind === 'code' && (
        <>
          <h1 id="signup-title" className="login__title">
            Check your email
          </h1>
          <SignupCodeStep
            started={step.started}
            input={step.input}
            onResent={(started) => setStep({ ...step, started })}
            onConfirmed={() => setStep({ kind: 'mobile', mobile: step.input.mobile })}
            onChangeDetails={() => setStep({ kind: 'details' })}
          />
        </>
      )}
      {/* Kept while the code is asked for, so "Change my details" finds what was typed. */}
      <div hidden={step.kind !== 'details'}>
        <h1 id={step.kind === 'details' ? 'signup-title' : undefined} className="login__title">
          Create your account
        </h1>
        <p className="login__lead">
          Set up your business in a minute and start a free trial. No card needed.
        </p>
        <SignupForm onStarted={({ started, input }) => setStep({ kind: 'code', started, input })} />
        <p className="login__switch">
          Already have an account? <Link to={paths.login}>Log in</Link>
        </p>
      </div>
    </section>
  );
}
