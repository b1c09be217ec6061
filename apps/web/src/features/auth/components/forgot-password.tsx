import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { type ResetSent, requestPasswordReset } from '../api/request-password-reset.ts';
import './login-form.css';

/**
 * "Forgot password?": asks for the email and says the same thing whether or not it has an account — a link is
 * on its way if it does.
 */
export function ForgotPassword({ initialEmail, loginHref }: { initialEmail: string; loginHref: string }) {
  const [sent, setSent] = useState<ResetSent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [form] = Form.useForm<{ email: string }>();

  async function submit({ email }: { email: string }) {
    setPending(true);
    setError(null);
    try {
      setSent(await requestPasswordReset(email.trim()));
    } catch (e) {
      if (!showFieldErrors(form, e)) setError(failureText(e));
    } finally {
      setPending(false);
    }
  }

  if (sent) {
    return (
      <>
        <h1 className="login__title">Check your email</h1>
        <p role="status" className="login__notice">
          If an account uses {sent.email}, we have sent it a link to choose a new password. The link works for{' '}
          {sent.minutes} minutes, once.
        </p>
        <p className="login__lead">
          Nothing there? Check your spam folder, and that the address is the one you log in with.
        </p>
        <Button block size="large" onClick={() => setSent(null)}>
          Try another email
        </Button>
        <p className="login__switch">
          Remembered it? <a href={loginHref}>Log in</a>
        </p>
      </>
    );
  }

  return (
    <>
      <h1 className="login__title">Reset your password</h1>
      <p className="login__lead">
        Enter the email you log in with. We will email you a link to choose a new password.
      </p>
      <Form<{ email: string }>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        disabled={pending}
        initialValues={{ email: initialEmail }}
        onFinish={submit}
        onValuesChange={() => error && setError(null)}
      >
        {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
        <Form.Item label="Email" name="email" rules={[{ required: true }, { type: 'email' }]}>
          <Input autoComplete="username" inputMode="email" autoFocus maxLength={320} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={pending}>
          Email me a link
        </Button>
      </Form>
      <p className="login__switch">
        Remembered it? <a href={loginHref}>Log in</a>
      </p>
    </>
  );
}
