import { Button, Form } from 'antd';
// No decorative prefix icons: each costs this page a chunk of its budget (DESIGN §10). The input and
// password field alone: the `Input` export carries TextArea, Search and OTP with it, which
// this page (held to DESIGN §10's 200 KB) never shows.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { isApiError } from '@/lib/api-error.ts';
import { type LoginInput, useLogin } from '../api/login.ts';
import './login-form.css';

function loginErrorText(error: unknown): string | null {
  if (!error) return null;
  // The server's own words for a wrong password (401) or too many attempts (429); other failures have
  // already raised the catalogue's notice.
  if (isApiError(error)) return error.status === 401 || error.status === 429 ? error.message : null;
  return error instanceof Error ? error.message : null;
}

export function LoginForm({
  onLoggedIn,
  forgotPasswordHref,
}: {
  onLoggedIn: () => void;
  /** The "Forgot password?" page; the email typed so far goes with it. */
  forgotPasswordHref: string;
}) {
  const login = useLogin();
  const errorText = loginErrorText(login.error);
  const [form] = Form.useForm<LoginInput>();
  const email = Form.useWatch('email', form)?.trim();

  return (
    <Form<LoginInput>
      form={form}
      layout="vertical"
      requiredMark={false}
      size="large"
      disabled={login.pending}
      onFinish={async (values) => {
        if (await login.submit(values)) onLoggedIn();
      }}
      onValuesChange={login.reset}
    >
      {errorText && (
        <div role="alert" className="login-form__error">
          {errorText}
        </div>
      )}
      <Form.Item label="Email" name="email" rules={[{ required: true }, { type: 'email' }]}>
        <Input autoComplete="username" autoFocus inputMode="email" />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[{ required: true }]}
        className="login-form__password"
      >
        <Password autoComplete="current-password" />
      </Form.Item>
      <div className="login-form__forgot">
        {/* A plain link (the page reloads into it), as sign-up's is: a router Link would weigh on this page. */}
        <a href={email ? `${forgotPasswordHref}?email=${encodeURIComponent(email)}` : forgotPasswordHref}>
          Forgot password?
        </a>
      </div>
      <Button type="primary" htmlType="submit" block loading={login.pending} className="login-form__submit">
        Log in
      </Button>
    </Form>
  );
}
