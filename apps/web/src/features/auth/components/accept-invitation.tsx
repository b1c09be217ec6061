import { Alert, Button, Form, Input, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { acceptInvitation, type InvitationPreview, previewInvitation } from '../api/register.ts';

/** The emailed invitation: a new person sets their name and password; someone with an account gives theirs. */
export function AcceptInvitation({
  secret,
  onJoined,
  onLogIn,
}: {
  secret: string;
  onJoined: () => void;
  onLogIn: () => void;
}) {
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [form] = Form.useForm<{ full_name?: string; password: string }>();

  useEffect(() => {
    previewInvitation(secret)
      .then(setPreview)
      .catch((e: unknown) => setFailed(failureText(e)));
  }, [secret]);

  if (failed)
    return (
      <Result
        status="warning"
        title="This invitation does not work any more"
        subTitle={failed}
        // Most often it was used: the person has an account and only needs to log in.
        extra={
          <Button type="primary" onClick={onLogIn}>
            Log in
          </Button>
        }
      />
    );
  if (!preview) return <Result icon={<Spin size="large" />} title="Opening your invitation…" />;

  return (
    <>
      <h1 className="login__title">Join {preview.business_name}</h1>
      <p className="login__lead">
        {preview.invited_by ?? 'An owner'} invited {preview.email} as{' '}
        {preview.role === 'owner' ? 'an owner' : 'a team member'}
        {preview.location_names ? ` at ${preview.location_names.join(', ')}` : ''}.
        {preview.has_account ? ' Enter your Switchboard password to join.' : ' Choose a password to join.'}
      </p>
      <Form
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ full_name: preview.full_name ?? '' }}
        disabled={pending}
        onFinish={async (values: { full_name?: string; password: string }) => {
          setPending(true);
          setError(null);
          try {
            await acceptInvitation(secret, values);
            onJoined();
          } catch (e) {
            if (!showFieldErrors(form, e)) setError(failureText(e));
            setPending(false);
          }
        }}
      >
        {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
        {!preview.has_account && (
          <Form.Item
            label="Your name"
            name="full_name"
            rules={[{ required: true, whitespace: true, message: 'Please enter your name' }]}
          >
            <Input autoComplete="name" maxLength={200} autoFocus />
          </Form.Item>
        )}
        <Form.Item
          label={preview.has_account ? 'Your password' : 'Choose a password'}
          name="password"
          rules={[
            { required: true },
            ...(preview.has_account ? [] : [{ min: 8, message: 'Use at least 8 characters' }]),
          ]}
        >
          <Input.Password autoComplete={preview.has_account ? 'current-password' : 'new-password'} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={pending}>
          Join {preview.business_name}
        </Button>
      </Form>
    </>
  );
}
