import { Component, type ErrorInfo, lazy, type ReactNode, Suspense } from 'react';
import { reportError } from '@/lib/report-error.ts';

// The fallback's antd Result is fetched only when something has failed, not before the first paint.
const ErrorFallback = lazy(() => import('./error-fallback.tsx'));

type Props = { children: ReactNode };
type State = { error: Error | null };

/**
 * Keeps a failure in one page from blanking the whole app: the person sees what happened and can reload,
 * and the error goes to error tracking.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, { componentStack: info.componentStack });
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Suspense fallback={null}>
        <ErrorFallback error={error} />
      </Suspense>
    );
  }
}
