import { useEffect } from 'react';
import { startProgress, stopProgress } from '@/lib/progress.ts';

/** A Suspense fallback that holds the top progress bar while a lazy page downloads. */
export function RouteProgress({ children }: { children?: React.ReactNode }) {
  useEffect(() => {
    startProgress();
    return stopProgress;
  }, []);
  return children ?? null;
}
