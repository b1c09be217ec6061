import {
  type AudioDevices,
  type CallAction,
  type CallRingtone,
  type CallState,
  callReducer,
  INITIAL_CALL_STATE,
  type PhoneSetup,
  type QueuedCall,
} from '@switchboard/shared';
import { create } from 'zustand';
import { api, type Envelope } from '@/lib/api-client.ts';
import { failureText } from '@/lib/failure-text.ts';
import { navigateTo } from '@/lib/navigation.ts';
import { setPhoneAvailable } from '@/lib/phone-requests.ts';
import { type AppSocket, getSocketState, subscribeSocket } from '@/lib/socket.ts';
import type { Phone, PhoneCall } from '../lib/phone.ts';
import { startRinging } from '../lib/ringtones.ts';

const DEVICES_KEY = 'switchboard.audio-devices';
const AVAILABLE_KEY = 'switchboard.phone-available';
/** The server rings a browser for 90 s after it last said it is available: say so every minute. */
const PRESENCE_EVERY_MS = 60_000;

type Extra = {
  /** The location the phone is for, and what the server says it uses there. */
  locationId: string | null;
  setup: PhoneSetup | null;
  available: boolean;
  /** Going available or placing a call is under way. */
  busy: boolean;
  muted: boolean;
  held: boolean;
  /** What went wrong last, in words for the person (cleared by the next action). */
  error: string | null;
  /** How the last call ended, shown briefly. */
  lastEnded: string | null;
  ringtone: CallRingtone;
  /** Who is signed in (a call is not transferred to oneself). */
  selfId: string | null;
};

type Actions = {
  dispatch: (action: CallAction) => void;
  setLocation: (locationId: string | null) => void;
  goAvailable: () => Promise<void>;
  goAway: () => Promise<void>;
  dial: (number: string, enquiryId?: string | null) => Promise<void>;
  answer: (sid: string) => Promise<void>;
  decline: (sid: string) => void;
  hangUp: () => void;
  toggleMute: () => void;
  toggleHold: () => void;
  sendDigits: (digits: string) => void;
  /** Hands the call to a teammate (their browser rings; this one leaves the call). */
  transfer: (userId: string) => Promise<void>;
  selectDevices: (devices: Partial<AudioDevices>) => void;
  /** The active call, for diagnostics and tests. */
  activeCall: () => PhoneCall | null;
};

export type PhoneStore = CallState & Extra & Actions;

const readDevices = (): AudioDevices => {
  try {
    return { ...INITIAL_CALL_STATE.devices, ...JSON.parse(localStorage.getItem(DEVICES_KEY) ?? '{}') };
  } catch {
    return INITIAL_CALL_STATE.devices;
  }
};

/** Locations this browser was available at (remembered, so a reload keeps the person rung). */
const rememberedAvailable = (): string[] => {
  try {
    const value = JSON.parse(localStorage.getItem(AVAILABLE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};
const rememberAvailable = (locationId: string, on: boolean) => {
  const rest = rememberedAvailable().filter((id) => id !== locationId);
  localStorage.setItem(AVAILABLE_KEY, JSON.stringify(on ? [...rest, locationId] : rest));
};
export const wasAvailableAt = (locationId: string) => rememberedAvailable().includes(locationId);

// What is not state: the phone object, its calls and timers.
let phone: Phone | null = null;
let phoneFor: string | null = null;
let phoneLoading: Promise<Phone> | null = null;
const ringingCalls = new Map<string, PhoneCall>();
let active: PhoneCall | null = null;
let tick: ReturnType<typeof setInterval> | undefined;
let presence: ReturnType<typeof setInterval> | undefined;
let stopRing: (() => void) | null = null;
let transferredTo: string | null = null;

const uuid = () => crypto.randomUUID();

async function fetchSetup(locationId: string): Promise<PhoneSetup> {
  const res = await api.get<Envelope<PhoneSetup>>('/calls/phone', {
    params: { location_id: locationId },
    silent: true,
  });
  return res.data.body;
}

/** The app's socket once it is connected (it may still be connecting just after a page load). */
function liveSocket(waitMs = 10_000): Promise<AppSocket> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const { socket, status } = getSocketState();
      if (socket?.connected && status === 'live') {
        done();
        resolve(socket);
        return true;
      }
      return false;
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('You are offline: the phone works again once the connection is back.'));
    }, waitMs);
    const unsubscribe = subscribeSocket(check);
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
    };
    check();
  });
}

async function makePhone(setup: PhoneSetup, devices: AudioDevices): Promise<Phone> {
  if (setup.provider === 'sandbox') {
    const socket = await liveSocket();
    const { createSandboxPhone } = await import('../lib/sandbox-phone.ts');
    return createSandboxPhone({ socket, locationId: setup.location_id, number: setup.number, devices });
  }
  if (setup.provider === 'twilio' && setup.identity) {
    const { createTwilioPhone } = await import('../lib/twilio-phone.ts');
    const identity = setup.identity;
    return createTwilioPhone({
      identity,
      number: setup.number,
      devices,
      token: async () =>
        (
          await api.post<Envelope<{ token: string }>>(
            '/twilio/generate-voice-token',
            { identity },
            { silent: true },
          )
        ).data.body.token,
    });
  }
  throw new Error(setup.reason ?? 'Calling is not set up for this location yet.');
}

const messageOf = (error: unknown) =>
  error instanceof Error && !('isAxiosError' in error) ? error.message : failureText(error);

export const usePhoneStore = create<PhoneStore>()((set, get) => {
  const dispatch = (action: CallAction) =>
    set((s) => {
      const next = callReducer(s, action);
      return next === s ? s : { ...next };
    });

  /** Rings while calls wait and nobody is on one. */
  const ring = () => {
    const s = get();
    const shouldRing = s.queue.length > 0 && s.status === 'incoming';
    if (shouldRing && !stopRing) stopRing = startRinging(s.ringtone, s.devices.ringing);
    if (!shouldRing && stopRing) {
      stopRing();
      stopRing = null;
    }
  };

  const queued = (call: PhoneCall): QueuedCall => ({
    parameters: { CallSid: call.info.sid, From: call.info.from },
    caller_name: call.info.callerName,
    enquiry_id: call.info.enquiryId,
  });

  const follow = (call: PhoneCall) => {
    active = call;
    set({ muted: false, held: false, lastEnded: null });
    call.on('accepted', () => {
      const started = Date.now();
      clearInterval(tick);
      tick = setInterval(
        () => dispatch({ type: 'duration.ticked', seconds: (Date.now() - started) / 1000 }),
        1000,
      );
    });
    call.on('error', (message) => set({ error: message }));
    call.on('ended', (reason) => {
      if (active !== call) return;
      active = null;
      clearInterval(tick);
      dispatch({ type: 'call.ended' });
      set({
        muted: false,
        held: false,
        lastEnded: transferredTo ? `Call transferred to ${transferredTo}.` : `Call ended: ${reason}.`,
      });
      transferredTo = null;
      ring();
    });
  };

  const onIncoming = (call: PhoneCall) => {
    ringingCalls.set(call.info.sid, call);
    dispatch({ type: 'incoming.added', call: queued(call) });
    ring();
    call.on('ended', () => {
      ringingCalls.delete(call.info.sid);
      if (active === call) return;
      dispatch({ type: 'incoming.removed', callSid: call.info.sid });
      ring();
    });
  };

  /** The phone for the current location, made once (and remade after a switch of location). */
  const ensurePhone = async (): Promise<Phone> => {
    const { locationId } = get();
    if (!locationId) throw new Error('Choose a location to take and make its calls.');
    if (phone && phoneFor === locationId) return phone;
    phoneLoading ??= (async () => {
      const setup = await fetchSetup(locationId);
      set({ setup });
      const made = await makePhone(setup, get().devices);
      made.onIncoming(onIncoming);
      await made.register();
      phone = made;
      phoneFor = locationId;
      return made;
    })().finally(() => {
      phoneLoading = null;
    });
    return phoneLoading;
  };

  const sayAvailable = async (on: boolean) => {
    const { locationId } = get();
    if (!locationId) return;
    await api.put('/calls/presence', { location_id: locationId, available: on }, { silent: true });
  };

  const release = () => {
    clearInterval(presence);
    presence = undefined;
    phone?.destroy();
    phone = null;
    phoneFor = null;
    setPhoneAvailable(false);
  };

  return {
    ...INITIAL_CALL_STATE,
    devices: readDevices(),
    locationId: null,
    setup: null,
    available: false,
    busy: false,
    muted: false,
    held: false,
    error: null,
    lastEnded: null,
    ringtone: 'classic',
    selfId: null,
    dispatch,

    setLocation(locationId) {
      if (locationId === get().locationId) return;
      if (active) active.hangUp();
      release();
      set({ locationId, available: false, setup: null, error: null });
    },

    async goAvailable() {
      set({ busy: true, error: null });
      try {
        await ensurePhone();
        await sayAvailable(true);
        clearInterval(presence);
        presence = setInterval(() => void sayAvailable(true).catch(() => {}), PRESENCE_EVERY_MS);
        const { locationId } = get();
        if (locationId) rememberAvailable(locationId, true);
        setPhoneAvailable(true);
        set({ available: true });
      } catch (error) {
        set({ error: messageOf(error), available: false });
      } finally {
        set({ busy: false });
      }
    },

    async goAway() {
      const { locationId } = get();
      if (locationId) rememberAvailable(locationId, false);
      set({ available: false, error: null });
      setPhoneAvailable(false);
      clearInterval(presence);
      presence = undefined;
      await sayAvailable(false).catch(() => {});
      // A call under way carries on; the phone stops being rung.
      if (!active) release();
    },

    async dial(number, enquiryId) {
      const to = number.trim();
      if (!to) return;
      set({ error: null });
      const ready = phone && phoneFor === get().locationId;
      if (ready) dispatch({ type: 'call.direct', number: to, uuid: uuid() });
      else dispatch({ type: 'call.queued', number: to });
      try {
        const p = await ensurePhone();
        if (!ready) dispatch({ type: 'phone.registered', uuid: uuid() });
        const call = await p.call(to, { enquiryId: enquiryId ?? null });
        follow(call);
      } catch (error) {
        dispatch({ type: 'call.ended' });
        set({ error: messageOf(error) });
      }
    },

    async answer(sid) {
      const call = ringingCalls.get(sid);
      if (!call) return;
      set({ error: null });
      // Answering while on a call ends that one, as a phone's "end and accept" does.
      if (active && active !== call) active.hangUp();
      try {
        await call.accept();
        ringingCalls.delete(sid);
        follow(call);
        dispatch({ type: 'incoming.set', call: queued(call), uuid: uuid() });
        // Answering starts the clock: the caller is connected.
        ring();
        // Whoever answers sees who it is: the caller's conversation opens behind the call.
        if (call.info.enquiryId) navigateTo(`/inbox/${encodeURIComponent(call.info.enquiryId)}`);
      } catch (error) {
        dispatch({ type: 'incoming.removed', callSid: sid });
        set({ error: messageOf(error) });
        ring();
      }
    },

    decline(sid) {
      ringingCalls.get(sid)?.reject();
    },

    hangUp() {
      active?.hangUp();
    },

    toggleMute() {
      const muted = !get().muted;
      active?.mute(muted);
      set({ muted });
    },

    toggleHold() {
      const held = !get().held;
      active?.hold(held);
      set({ held });
    },

    sendDigits(digits) {
      active?.sendDigits(digits);
    },

    async transfer(userId) {
      const call = active;
      if (!call) return;
      set({ error: null });
      try {
        const res = await api.post<Envelope<{ full_name: string }>>(
          '/calls/transfer',
          {
            call_sid: call.info.sid,
            user_id: userId,
            ...(call.info.callId ? { call_id: call.info.callId } : {}),
          },
          { silent: true },
        );
        transferredTo = res.data.body.full_name;
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },

    selectDevices(devices) {
      dispatch({ type: 'devices.selected', devices });
      const all = get().devices;
      localStorage.setItem(DEVICES_KEY, JSON.stringify(all));
      void phone?.setDevices(all);
    },

    activeCall: () => active,
  };
});
