import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { useSocket } from '@/lib/use-socket.ts';

/**
 * The account's state follows changes made anywhere (the email confirmed on a phone, a plan bought, a payment
 * failing, an administrator extending the trial): the signed-in user and the features are read again.
 */
export function useLiveAccount(): void {
  const { socket } = useSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    // The features come with the user (see get-me).
    const onChanged = () => void queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me });
    socket.on('account.changed', onChanged);
    return () => {
      socket.off('account.changed', onChanged);
    };
  }, [socket, queryClient]);
}
