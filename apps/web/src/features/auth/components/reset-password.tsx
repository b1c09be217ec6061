import { Alert, Button, Form, Input, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '@/lib/api-error.ts';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { checkPasswordReset, type ResetLink } from '../api/check-password-reset.ts';
import { completePasswordReset } from '../api/complete-password-reset.ts';
import './login-form.css';

type State = { kind: 'checking' } | { kind: 'open'; link: ResetLink } | { kind: 'failed'; message: string };
type Values = { password: string; repeat: string };

/**
 * The emailed reset link's page: a new password for the account (the same rule as at sign-up), which signs out
 * every other session and signs this browser in. A link that no longer works says why and offers a new one.
 */
export function ResetPassword({
  token,
  onDone,
  onAskAgain,
}: {
  token: string;
  onDone: () => void;
  onAskAgain: () => void;
}) {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [form] = Form.useForm<Values>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      setState({
        kind: 'failed',
        message: 'This link is incomplete. Open it again from the email, or ask for a new one.',
      });
      return;
    }
    checkPasswordReset(token)
      .then((link) => setState({ kind: 'open', link }))
      .catch((e: unknown) => setState({ kind: 'failed', message: failureText(e) }));
  }, [token]);

  async function submit({ password }: Values) {
    setPending(true);
    setError(null);
    try {
      await completePasswordReset(token, password);
      onDone();
    } catch (e) {
      const message = failureText(e);
      // 422: the link stopped working meanwhile (used in another tab, expired): say so as on opening it.
      if (isApiError(e) && e.status === 422) setState({ kind: 'failed', message });
      else if (!showFieldErrors(form, e)) setError(message);
      setPending(false);
    }
  }

  switch (state.kind) {
    case 'checking':
      return <Result icon={<Spin size="large" />} title="Opening your link…" />;
    case 'failed':
      return (
        <Result
          status="warning"
          title="This link does not work any more"
          subTitle={state.message}
          extra={
            <Button type="primary" size="large" onClick={onAskAgain}>
              Send me a new link
            </Button>
          }
        />
      );
    case 'open':
      return (
        <>
          <h1 className="login__title">Choose a new password</h1>
          <p className="login__lead">
            For <strong className="signup-code__email">{state.link.email}</strong>. Setting it signs you out
            on every other device.
          </p>
          <Form<Values>
            form={form}
            layout="vertical"
            size="large"
            requiredMark={false}
            disabled={pending}
            onFinish={submit}
            onValuesChange={() => error && setError(null)}
          >
            {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
            {/* For password managers: the account the new password belongs to. */}
            <input
              type="email"
              name="username"
              autoComplete="username"
              value={state.link.email}
              readOnly
              hidden
            />
            <Form.Item
              label="New password"
              name="password"
              rules={[{ required: true }, { min: 8, message: 'Use at least 8 characters' }]}
            >
              <Input.Password autoComplete="new-password" autoFocus />
            </Form.Item>
            <Form.Item
              label="New password again"
              name="repeat"
              dependencies={['password']}
              rules={[
                { required: true, message: 'Type the new password again' },
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    !value || value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error('The two passwords are not the same')),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={pending}>
              Set my new password
            </Button>
          </Form>
        </>
      );
  }
}
