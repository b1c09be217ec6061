import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { RouteProgress } from '@/components/route-progress.tsx';
import { REPORT_ERROR_MODE } from '@/lib/error-catalogue.ts';
import { setNavigator } from '@/lib/navigation.ts';
import { startProgress, stopProgress } from '@/lib/progress.ts';
import { LOGIN_PATH } from './paths.ts';

const ErrorReport = lazy(() => import('./error-report.tsx'));

/** Shows the progress bar briefly on every navigation; lazy pages hold it longer while they load. */
function NavigationProgress() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the bar runs once per path change.
  useEffect(() => {
    startProgress();
    stopProgress();
  }, [pathname]);
  return null;
}

/** Lets the API client send the person to '/' after a 401 without a full page load. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to) => void navigate(to, { replace: true }));
    return () => setNavigator(null);
  }, [navigate]);
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const reporting = params.get('mode') === REPORT_ERROR_MODE;
  // The login page and the app are different chunks: a new boundary per area shows the progress bar while
  // the other one loads, instead of freezing on the page being left.
  const area = pathname === LOGIN_PATH ? 'guest' : 'app';

  return (
    <>
      <NavigatorBridge />
      <NavigationProgress />
      <ErrorBoundary key={area}>
        <Suspense fallback={<RouteProgress />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
      {reporting && (
        <Suspense fallback={null}>
          <ErrorReport />
        </Suspense>
      )}
    </>
  );
}
