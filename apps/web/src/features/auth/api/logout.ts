import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { CREDENTIAL_COOKIES, removeCookies } from '@/lib/cookies.ts';
import { forgetSession } from '@/lib/debug-session.ts';

export async function logout(): Promise<void> {
  await api.put('/user/logout', {}, { silent: true });
}

/**
 * Revokes the session on the server, then forgets it here whatever the server said: a person who asked to
 * log out must end up logged out even when offline or already expired.
 */
export function useLogout(options: { onLoggedOut: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        // This browser stops being pushed this person's notifications (before the token goes).
        await import('@/lib/push.ts').then((push) => push.turnOffPush()).catch(() => {});
        await logout();
      } catch {
        // Already expired or offline; the local session is cleared below either way.
      }
      removeCookies(CREDENTIAL_COOKIES);
      forgetSession();
      queryClient.clear();
    },
    onSuccess: options.onLoggedOut,
  });
}
