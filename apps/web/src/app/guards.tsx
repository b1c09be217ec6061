import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { hasSession } from '@/lib/cookies.ts';
import { APP_HOME, LOGIN_PATH } from './paths.ts';

/** The login page: someone already signed in goes straight into the app (keeping any query string). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { search } = useLocation();
  if (hasSession()) return <Navigate to={{ pathname: APP_HOME, search }} replace />;
  return children;
}

/** App pages: without an access cookie there is nothing to show but the login page. */
export function RequireSession({ children }: { children: ReactNode }) {
  if (!hasSession()) return <Navigate to={LOGIN_PATH} replace />;
  return children;
}
