import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { entryLoaders } from './entry-loaders.ts';
import { GuestOnly, RequireSession } from './guards.tsx';
import { paths } from './paths.ts';
import { RootLayout } from './root-layout.tsx';

// The login page, the public contact page and the signed-in app are separate chunks: the login page
// downloads none of the app's route table or pages.
const LoginRoute = lazy(entryLoaders.login);
const SignedInRoutes = lazy(entryLoaders.signedIn);
const ContactRoute = lazy(entryLoaders.contact);
const AccountRoute = lazy(() => import('./routes/account-panel.tsx'));
const PayRoute = lazy(entryLoaders.pay);
const SandboxCheckoutRoute = lazy(entryLoaders.sandboxCheckout);

/**
 * The route table. Declarative routes rather than a data router: nothing here uses loaders or actions
 * (server data lives in TanStack Query), and it halves React Router's share of the login page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route
          path={paths.login}
          element={
            <GuestOnly>
              <LoginRoute />
            </GuestOnly>
          }
        />
        {/* Sign-up, the emailed links (confirming an email, an invitation) and a forgotten password's pages. */}
        <Route path={`${paths.signup}/*`} element={<AccountRoute />} />
        <Route path={paths.forgotPassword} element={<AccountRoute />} />
        <Route path={paths.resetPassword} element={<AccountRoute />} />
        {/* Public: a business's customers fill it in, signed in or not. */}
        <Route path={paths.contact} element={<ContactRoute />} />
        {/* Public: the customer's pay page and, in sandbox mode, its payment page. */}
        <Route path={`${paths.pay}/:secret`} element={<PayRoute />} />
        <Route path={`${paths.sandboxCheckout}/:id`} element={<SandboxCheckoutRoute />} />
        {/* Everything else is the signed-in app (an unknown address there goes to the inbox). */}
        <Route
          path="*"
          element={
            <RequireSession>
              <SignedInRoutes />
            </RequireSession>
          }
        />
      </Route>
    </Routes>
  );
}
