import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '@/lib/query-client.ts';

/**
 * The query cache, provided by the signed-in app and the error report rather than at the root, so the
 * login page paints without TanStack Query (DESIGN §10). Every provider shares the one client.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
