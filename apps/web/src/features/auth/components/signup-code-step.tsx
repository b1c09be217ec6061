import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { confirmSignup } from '../api/confirm-signup.ts';
import { type RegisterInput, register, type SignupStarted } from '../api/register.ts';
import './login-form.css';

const secondsUntil = (at: string) => Math.max(0, Math.ceil((new Date(at).getTime() - Date.now()) / 1000));

/** Seconds until `at`, counted down once a second (0 once it has passed). */
function useSecondsUntil(at: string): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(at));
  useEffect(() => {
    setSeconds(secondsUntil(at));
    const timer = window.setInterval(() => setSeconds(secondsUntil(at)), 1000);
    return () => window.clearInterval(timer);
  }, [at]);
  return seconds;
}

/**
 * Sign-up's second step: the six-digit code emailed to the address creates the business and signs its owner
 * in. A new code is the same form sent again; the details can still be changed.
 */
export function SignupCodeStep({
  started,
  input,
  onResent,
  onConfirmed,
  onChangeDetails,
}: {
  started: SignupStarted;
  input: RegisterInput;
  onResent: (started: SignupStarted) => void;
  onConfirmed: () => void;
  onChangeDetails: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const [pending, setPending] = useState<'confirm' | 'resend' | null>(null);
  const wait = useSecondsUntil(started.resend_at);
  const minutes = Math.max(1, Math.round((new Date(started.expires_at).getTime() - Date.now()) / 60_000));

  async function confirm() {
    setPending('confirm');
    setError(null);
    try {
      await confirmSignup(started.email, code);
      onConfirmed();
    } catch (e) {
      setError(failureText(e));
      setPending(null);
    }
  }

  async function resend() {
    setPending('resend');
    setError(null);
    setResent(false);
    try {
      onResent(await register(input));
      setResent(true);
      setCode('');
    } catch (e) {
      setError(failureText(e));
    } finally {
      setPending(null);
    }
  }

  return (
    <Form layout="vertical" size="large" requiredMark={false} onFinish={confirm}>
      <p className="login__lead">
        We emailed a six-digit code to <strong className="signup-code__email">{started.email}</strong>. Enter
        it here to create your account; it works for {minutes} minutes.
      </p>
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
      {resent && !error && (
        <Alert
          type="success"
          showIcon
          title={`We sent a new code to ${started.email}. Earlier codes no longer work.`}
          role="status"
          style={{ marginBottom: 16 }}
        />
      )}
      <Form.Item label="Code" required>
        <Input
          value={code}
          onChange={(e) => {
            setCode(e.target.value.replace(/\D/g, '').slice(0, 6));
            if (error) setError(null);
          }}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          aria-label="Code"
          disabled={pending !== null}
        />
      </Form.Item>
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={pending === 'confirm'}
          disabled={code.length !== 6 || pending === 'resend'}
        >
          Create my account
        </Button>
        <Button block onClick={resend} loading={pending === 'resend'} disabled={wait > 0 || pending !== null}>
          {wait > 0 ? `Send a new code (in ${wait} s)` : 'Send a new code'}
        </Button>
        <Button type="link" block onClick={onChangeDetails} disabled={pending !== null}>
          Change my details
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" className="signup-code__help">
        No email? Check your spam folder. If this address already has a Switchboard account, we emailed it how
        to log in or reset the password instead.
      </Typography.Paragraph>
    </Form>
  );
}
