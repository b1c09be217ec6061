import { type ReactNode, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Brand } from '@/components/brand.tsx';
import { LoginForm } from '@/features/auth/components/login-form.tsx';
import { preloadApp } from '../entry-loaders.ts';
import { APP_HOME, paths } from '../paths.ts';
import './login.css';

// Only what the product does today: a feature earns its line here when it ships.
const HIGHLIGHTS = [
  'SMS, email, WhatsApp, Messenger, Instagram, Google RCS, web forms and website chat in one inbox',
  'See who is viewing and replying, live, so nobody answers a customer twice',
  'Templates, search and delivery ticks on every reply',
];

/** What the emailed sign-in link (`/api/v1/auth/unlock`) came back with. */
const UNLOCK_NOTICES: Record<string, string> = {
  ok: 'This browser can sign in now: enter your password.',
  expired:
    'That sign-in link has expired or is not valid. Browsers you have signed in from before can still sign in; otherwise try again once the pause is over.',
};

// Plain elements styled in login.css (with the theme's colours as CSS variables) rather than antd's Card,
// Typography and Grid: this page must stay small (DESIGN §10).
export default function LoginRoute() {
  const navigate = useNavigate();
  const unlock = new URLSearchParams(window.location.search).get('unlock');
  const notice = unlock ? UNLOCK_NOTICES[unlock] : undefined;

  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1500));
    idle(() => preloadApp());
  }, []);

  return (
    <LoginFrame>
      <section className="login__card" aria-labelledby="login-title">
        <h1 id="login-title" className="login__title">
          Log in
        </h1>
        <p className="login__lead">Welcome back. Sign in to pick up where your team left off.</p>
        {notice && (
          <p role="status" className="login__notice">
            {notice}
          </p>
        )}
        <LoginForm
          onLoggedIn={() => navigate(APP_HOME, { replace: true })}
          forgotPasswordHref={paths.forgotPassword}
        />
        <p className="login__switch">
          {/* A plain link (the page reloads into sign-up): a router Link would weigh on this page (DESIGN §10). */}
          New to Switchboard? <a href={paths.signup}>Create an account</a>
        </p>
      </section>
    </LoginFrame>
  );
}

/** The login page's frame (the showcase beside, the brand above the card); sign-up and its emailed link share it. */
export function LoginFrame({ children }: { children: ReactNode }) {
  return (
    <div className="login">
      <aside className="login__showcase">
        <Brand inverse />
        <div>
          <h2 className="login__tagline">Every customer conversation, one calm inbox.</h2>
          <ul className="login__highlights">
            {HIGHLIGHTS.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        </div>
        <p className="login__footnote">Built for clinics, trades, salons and dealerships.</p>
      </aside>
      <main className="login__main">
        <div className="login__column">
          <div className="login__brand">
            <Brand />
          </div>
          {children}
        </div>
      </main>
    </div>
  );
}
