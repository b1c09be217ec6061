import { Alert, Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { resendLink, verifyEmail } from '../api/register.ts';

type State =
  | { kind: 'checking' }
  | { kind: 'verified'; business: string }
  | { kind: 'failed'; message: string }
  | { kind: 'resent'; email: string | null; already: boolean };

/** The emailed link's page: confirms the business's email, or offers a new link when this one has expired. */
export function VerifyEmail({
  secret,
  signedIn,
  onContinue,
}: {
  secret: string;
  signedIn: boolean;
  onContinue: () => void;
}) {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [resending, setResending] = useState(false);
  const [resendError, setResendError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once: React's development double effects must not spend the link twice.
    if (started.current) return;
    started.current = true;
    if (!secret) {
      setState({
        kind: 'failed',
        message: 'This link is incomplete. Open it again from the email, or send a new one.',
      });
      return;
    }
    verifyEmail(secret)
      .then((r) => setState({ kind: 'verified', business: r.business_name }))
      .catch((e: unknown) => setState({ kind: 'failed', message: failureText(e) }));
  }, [secret]);

  async function resend() {
    setResending(true);
    setResendError(null);
    try {
      const r = await resendLink(secret);
      setState({ kind: 'resent', email: r.email, already: r.already_verified });
    } catch (e) {
      setResendError(failureText(e));
    } finally {
      setResending(false);
    }
  }

  const next = (
    <Button type="primary" size="large" onClick={onContinue}>
      {signedIn ? 'Open my inbox' : 'Log in'}
    </Button>
  );

  switch (state.kind) {
    case 'checking':
      return <Result icon={<Spin size="large" />} title="Confirming your email…" />;
    case 'verified':
      return (
        <Result
          status="success"
          title="Your email is confirmed"
          subTitle={`${state.business} can now send messages to its customers.`}
          extra={next}
        />
      );
    case 'resent':
      return (
        <Result
          status="info"
          title={state.already ? 'Your email is already confirmed' : 'We sent a new link'}
          subTitle={
            state.already ? 'Nothing more to do.' : `Check ${state.email ?? 'your inbox'} for the new link.`
          }
          extra={next}
        />
      );
    case 'failed':
      return (
        <Result
          status="warning"
          title="This link does not work any more"
          subTitle={state.message}
          extra={[
            <Button key="resend" type="primary" size="large" loading={resending} onClick={resend}>
              Send me a new link
            </Button>,
            <Button key="next" size="large" onClick={onContinue}>
              {signedIn ? 'Open my inbox' : 'Log in'}
            </Button>,
          ]}
        >
          {resendError && <Alert type="error" showIcon title={resendError} role="alert" />}
        </Result>
      );
  }
}
