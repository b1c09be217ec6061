import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { type MobileCodeSent, sendMobileCode, verifyMobile } from '../api/register.ts';
import './login-form.css';
import { phoneText } from '../../../lib/phones.ts';

/**
 * Confirms the person's mobile with a six-digit texted code. Optional at sign-up ("Skip for now"); My profile
 * offers it again until it is done.
 */
export function MobileStep({
  initialMobile,
  onDone,
  canSkip = true,
}: {
  initialMobile: string;
  onDone: () => void;
  /** At sign-up the step can be skipped; in My profile it is the panel itself. */
  canSkip?: boolean;
}) {
  const [mobile, setMobile] = useState(initialMobile);
  const [sent, setSent] = useState<MobileCodeSent | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<'send' | 'verify' | null>(null);
  const [confirmed, setConfirmed] = useState<string | null>(null);

  async function send() {
    setPending('send');
    setError(null);
    try {
      setSent(await sendMobileCode(mobile));
      setCode('');
    } catch (e) {
      setError(failureText(e));
    } finally {
      setPending(null);
    }
  }

  async function verify() {
    if (!sent) return;
    setPending('verify');
    setError(null);
    try {
      setConfirmed((await verifyMobile(sent.mobile, code)).mobile);
      // In My profile there is no next step: the page reads the confirmed number again.
      if (!canSkip) onDone();
    } catch (e) {
      setError(failureText(e));
    } finally {
      setPending(null);
    }
  }

  if (confirmed) {
    return (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Alert type="success" showIcon title={`${phoneText(confirmed)} is confirmed as your mobile.`} />
        {canSkip && (
          <Button type="primary" block size="large" onClick={onDone}>
            Open my inbox
          </Button>
        )}
      </Space>
    );
  }

  return (
    <Form layout="vertical" size="large" requiredMark={false} onFinish={sent ? verify : send}>
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form.Item label="Mobile" required>
        <Input
          value={mobile}
          onChange={(e) => setMobile(e.target.value)}
          inputMode="tel"
          autoComplete="tel"
          disabled={pending !== null}
          aria-label="Mobile"
        />
      </Form.Item>
      {sent && (
        <>
          {!sent.sandbox_code && (
            <Typography.Paragraph type="secondary">
              We texted a six-digit code to {phoneText(sent.mobile)}. It works for 10 minutes.
            </Typography.Paragraph>
          )}
          {sent.sandbox_code && (
            <Alert
              className="signup-code__sandbox"
              type="info"
              showIcon
              title={`Sandbox mode: no text was sent to ${phoneText(sent.mobile)}. Your code is ${sent.sandbox_code}; it works for 10 minutes.`}
            />
          )}
          <Form.Item label="Code" required>
            <Input
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus
              aria-label="Code"
            />
          </Form.Item>
        </>
      )}
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        {sent ? (
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={pending === 'verify'}
            disabled={code.length !== 6}
          >
            Confirm my mobile
          </Button>
        ) : (
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={pending === 'send'}
            disabled={!mobile.trim()}
          >
            Text me a code
          </Button>
        )}
        {sent && (
          <Button block onClick={send} loading={pending === 'send'}>
            Send a new code
          </Button>
        )}
        {canSkip && (
          <Button type="link" block onClick={onDone}>
            Skip for now
          </Button>
        )}
      </Space>
    </Form>
  );
}
