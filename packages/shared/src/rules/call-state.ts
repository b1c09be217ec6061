/**
 * The browser phone's state (spec §3 "Call state", §4 "Call status"), as a pure reducer: the dialer, the call
 * toast and the in-call view render from it, and every transition the spec names is one action here.
 * Anything random or timed (a call's uuid, the seconds on the clock) comes in with the action, so the same
 * actions always give the same state.
 */

export type CallStatus = null | 'connecting' | 'calling' | 'incoming';
export type CallType = 'incoming' | 'outgoing';

/** A call ringing this browser, as the phone reports it: keyed by `parameters.CallSid`, its caller `parameters.From`. */
export type QueuedCall = {
  parameters: { CallSid: string; From: string } & Record<string, string>;
  /** The caller's name when the number belongs to a known customer. */
  caller_name?: string | null;
  enquiry_id?: string | null;
};

export type AudioDevices = {
  /** Microphone. */
  input: string | null;
  /** Speaker for the call. */
  output: string | null;
  /** Where incoming calls ring. */
  ringing: string | null;
};

export type SipCredentials = { server: string; username: string; password?: string | null };

export type CallState = {
  status: CallStatus;
  type: CallType | null;
  /** 'mm:ss' (or 'h:mm:ss' past an hour); '00:00' before the call connects. */
  duration: string;
  /** A new one for every call that starts, so a view of the last call never mistakes the next for it. */
  uuid: string | null;
  fullScreen: boolean;
  dialerOpen: boolean;
  /** The number being dialled (as typed) or called. */
  dialed: string;
  /** The call being placed or talked on. */
  active: QueuedCall | null;
  /** Calls ringing this browser, oldest first. */
  queue: QueuedCall[];
  devices: AudioDevices;
  sip: SipCredentials | null;
};

export const INITIAL_CALL_STATE: CallState = {
  status: null,
  type: null,
  duration: '00:00',
  uuid: null,
  fullScreen: false,
  dialerOpen: false,
  dialed: '',
  active: null,
  queue: [],
  devices: { input: null, output: null, ringing: null },
  sip: null,
};

export type CallAction =
  | { type: 'dialer.opened' }
  | { type: 'dialer.closed' }
  | { type: 'dialed.changed'; number: string }
  /** The user starts a call while the phone is still registering: it waits as `connecting`. */
  | { type: 'call.queued'; number: string }
  /** The phone finished registering: a waiting call starts. */
  | { type: 'phone.registered'; uuid: string }
  /** The phone was ready: the call starts at once. */
  | { type: 'call.direct'; number: string; uuid: string }
  | { type: 'incoming.added'; call: QueuedCall }
  | { type: 'incoming.removed'; callSid: string }
  /** The user answered one of the ringing calls. */
  | { type: 'incoming.set'; call: QueuedCall; uuid: string }
  | { type: 'duration.ticked'; seconds: number }
  | { type: 'fullScreen.set'; fullScreen: boolean }
  | { type: 'call.ended' }
  | { type: 'devices.selected'; devices: Partial<AudioDevices> }
  | { type: 'sip.loaded'; sip: SipCredentials | null };

const pad = (n: number) => String(n).padStart(2, '0');

/** Seconds as the call clock shows them: '00:00', '01:05', '1:00:00'. */
export function formatCallDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const rest = `${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return hours > 0 ? `${hours}:${rest}` : rest;
}

/** What is left of a call once it ends (devices, SIP details, the queue and the dialer stay). */
const idle = (state: CallState): CallState => ({
  ...state,
  status: state.queue.length > 0 ? 'incoming' : null,
  type: state.queue.length > 0 ? 'incoming' : null,
  duration: '00:00',
  uuid: null,
  fullScreen: false,
  active: null,
});

export function callReducer(state: CallState, action: CallAction): CallState {
  switch (action.type) {
    case 'dialer.opened':
      return { ...state, dialerOpen: true };
    case 'dialer.closed':
      return { ...state, dialerOpen: false };
    case 'dialed.changed':
      return { ...state, dialed: action.number };
    // "Triggering a queued call sets connecting, type outgoing and closes the dialer."
    case 'call.queued':
      return {
        ...state,
        status: 'connecting',
        type: 'outgoing',
        dialerOpen: false,
        dialed: action.number,
        duration: '00:00',
        active: null,
      };
    // "When phone registration completes, connecting becomes calling with a new uuid."
    case 'phone.registered':
      return state.status === 'connecting' ? { ...state, status: 'calling', uuid: action.uuid } : state;
    // "A direct call goes straight to calling with a new uuid."
    case 'call.direct':
      return {
        ...state,
        status: 'calling',
        type: 'outgoing',
        uuid: action.uuid,
        dialerOpen: false,
        dialed: action.number,
        duration: '00:00',
        active: null,
      };
    case 'incoming.added': {
      const sid = action.call.parameters.CallSid;
      const known = state.queue.some((c) => c.parameters.CallSid === sid);
      const queue = known
        ? state.queue.map((c) => (c.parameters.CallSid === sid ? action.call : c))
        : [...state.queue, action.call];
      // Ringing shows only while no call is under way; the queue waits otherwise.
      return state.status === null
        ? { ...state, queue, status: 'incoming', type: 'incoming' }
        : { ...state, queue };
    }
    // "Removing the last queued call while status is incoming resets status to null."
    case 'incoming.removed': {
      const queue = state.queue.filter((c) => c.parameters.CallSid !== action.callSid);
      if (queue.length === 0 && state.status === 'incoming')
        return { ...state, queue, status: null, type: null };
      return { ...state, queue };
    }
    // "Setting an incoming call removes queue entries from the same caller."
    case 'incoming.set':
      return {
        ...state,
        status: 'calling',
        type: 'incoming',
        uuid: action.uuid,
        duration: '00:00',
        active: action.call,
        dialed: action.call.parameters.From,
        queue: state.queue.filter(
          (c) =>
            c.parameters.From !== action.call.parameters.From &&
            c.parameters.CallSid !== action.call.parameters.CallSid,
        ),
      };
    case 'duration.ticked':
      return state.status === 'calling' ? { ...state, duration: formatCallDuration(action.seconds) } : state;
    case 'fullScreen.set':
      return { ...state, fullScreen: action.fullScreen };
    case 'call.ended':
      return idle(state);
    case 'devices.selected':
      return { ...state, devices: { ...state.devices, ...action.devices } };
    case 'sip.loaded':
      return { ...state, sip: action.sip };
  }
}
