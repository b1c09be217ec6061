import { useSyncExternalStore } from 'react';
import { getSocketState, type SocketState, subscribeSocket } from '@/lib/socket.ts';

/** The app's socket (null until socket.io-client has loaded) and whether it is live. */
export function useSocket(): SocketState {
  return useSyncExternalStore(subscribeSocket, getSocketState, getSocketState);
}
