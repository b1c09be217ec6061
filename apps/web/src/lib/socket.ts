import type { ClientToServerEvents, ServerToClientEvents } from '@switchboard/shared';
import type { Socket } from 'socket.io-client';
import { getAccessToken } from './cookies.ts';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * - idle: nobody needs the socket (signed out, or no business to listen for)
 * - connecting: the first connection is being made
 * - live: connected; events arrive as they happen
 * - reconnecting: the connection dropped and is being made again (what was missed is refetched after)
 */
export type SocketStatus = 'idle' | 'connecting' | 'live' | 'reconnecting';
export type SocketState = { socket: AppSocket | null; status: SocketStatus };

let state: SocketState = { socket: null, status: 'idle' };
const listeners = new Set<() => void>();
let holders = 0;
let loading: Promise<AppSocket> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = 2000;

function setState(next: Partial<SocketState>): void {
  const merged = { ...state, ...next };
  // Every snapshot change re-renders the live screens; an unchanged one must not (a retry loop would).
  if (merged.socket === state.socket && merged.status === state.status) return;
  state = merged;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: components re-render when the socket appears or its connection changes. */
export function subscribeSocket(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSocketState(): SocketState {
  return state;
}

function clearRetry(): void {
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
}

/**
 * The server refused the handshake (a token that expired, or was replaced a moment ago). Socket.IO does not
 * retry a refusal by itself; try again, more slowly each time, while someone still needs the socket and
 * there is a session to try with. A really expired session is ended by the next API call's 401.
 */
function retryRefused(socket: AppSocket): void {
  clearRetry();
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    if (holders > 0 && getAccessToken() && !socket.connected) socket.connect();
  }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, 30_000);
}

/**
 * socket.io-client is fetched when the signed-in app first holds the socket, after the first paint rather
 * than before it (DESIGN §10), the way the API client fetches axios.
 */
function load(): Promise<AppSocket> {
  loading ??= import('socket.io-client').then(({ io }) => {
    const socket: AppSocket = io({
      path: '/socket.io',
      autoConnect: false,
      // WebSocket first: no sticky sessions needed when several app nodes share Redis (DESIGN §1).
      transports: ['websocket', 'polling'],
      // Read on every (re)connection, so a switched business or location, or a renewed token, is used.
      // `visible`: a person whose tab is in sight is not pushed what the tab already shows and sounds.
      auth: (send) =>
        send({ token: getAccessToken() ?? '', visible: document.visibilityState === 'visible' }),
    });
    document.addEventListener('visibilitychange', () => {
      if (socket.connected) socket.emit('presence', { visible: document.visibilityState === 'visible' });
    });
    socket.on('connect', () => {
      retryDelay = 2000;
      setState({ status: 'live' });
    });
    socket.on('disconnect', (reason) => {
      setState({ status: holders > 0 && getAccessToken() ? 'reconnecting' : 'idle' });
      // The server let go (the person's locations changed, or their session ended): Socket.IO does not come
      // back by itself after that; try again, into the rooms the token now allows (a refusal retries slower).
      if (reason === 'io server disconnect' && holders > 0 && getAccessToken()) retryRefused(socket);
    });
    socket.on('connect_error', () => {
      // Logged out: nothing to reconnect with. Stop quietly — the app is on its way to the login page, and
      // a re-render now would ask the (already cleared) query cache to fetch again without a session.
      if (!getAccessToken()) {
        socket.disconnect();
        return;
      }
      if (holders === 0) return;
      setState({
        status: state.status === 'live' || state.status === 'reconnecting' ? 'reconnecting' : 'connecting',
      });
      if (!socket.active) retryRefused(socket);
    });
    setState({ socket });
    return socket;
  });
  return loading;
}

function connect(socket: AppSocket): void {
  if (holders === 0 || socket.connected || socket.active) return;
  if (!getAccessToken()) return;
  setState({ status: 'connecting' });
  socket.connect();
}

/**
 * Keeps the app's one socket connected while something needs it: the app layout, for as long as someone is
 * signed in. The returned function lets go; when the last holder lets go (the person logs out and the app
 * unmounts) it disconnects.
 */
export function holdSocket(): () => void {
  holders += 1;
  void load().then(connect);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    // A holder that re-mounts at once (React's strict mode) keeps it.
    setTimeout(() => {
      if (holders === 0) disconnectSocket();
    }, 0);
  };
}

/** Spec §4: logging out disconnects the socket. */
export function disconnectSocket(): void {
  clearRetry();
  state.socket?.disconnect();
  setState({ status: 'idle' });
}

/**
 * The socket belongs to the selected business and location: after a switch (a new token) it joins the new
 * rooms by connecting again.
 */
export function reconnectSocket(): void {
  const socket = state.socket;
  if (!socket || holders === 0) return;
  clearRetry();
  socket.disconnect();
  setState({ status: 'connecting' });
  socket.connect();
}
