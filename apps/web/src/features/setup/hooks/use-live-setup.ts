import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSocket } from '@/lib/use-socket.ts';
import { setupKey } from '../api/get-setup.ts';

/**
 * Live ticks from events the app already receives: a first enquiry (the website chat's first chat, a test
 * text) and the account changing (Stripe connected) ask for the checklist again while it is on screen.
 */
export function useLiveSetup(enabled: boolean): void {
  const { socket } = useSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket || !enabled) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: setupKey });
    socket.on('enquiry.created', refresh);
    socket.on('account.changed', refresh);
    return () => {
      socket.off('enquiry.created', refresh);
      socket.off('account.changed', refresh);
    };
  }, [socket, enabled, queryClient]);
}
