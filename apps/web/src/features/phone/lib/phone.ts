import type { AudioDevices } from '@switchboard/shared';

/** A call this browser is ringing with, placing or on. */
export type PhoneCallInfo = {
  /** The provider's call id (Twilio's CallSid, or the sandbox's): the incoming queue's key. */
  sid: string;
  direction: 'in' | 'out';
  /** The customer's number on an incoming call, the location's on an outgoing one. */
  from: string;
  to: string;
  callerName: string | null;
  enquiryId: string | null;
  /** The call's own id, when the provider passed it (the server finds the call by `sid` otherwise). */
  callId: string | null;
};

export type PhoneCallEvents = {
  /** Both ends are talking. */
  accepted: () => void;
  /** The call is over (hung up at either end, answered elsewhere, not answered, failed). */
  ended: (reason: string) => void;
  /** Something went wrong on the call that the person should be told about. */
  error: (message: string) => void;
  /** The call's id became known (an outgoing call, once the provider has it). */
  updated: (info: PhoneCallInfo) => void;
};

/** One call, whichever provider carries it. */
export interface PhoneCall {
  readonly info: PhoneCallInfo;
  accept(): Promise<void>;
  reject(): void;
  hangUp(): void;
  mute(on: boolean): void;
  hold(on: boolean): void;
  sendDigits(digits: string): void;
  on<E extends keyof PhoneCallEvents>(event: E, listener: PhoneCallEvents[E]): () => void;
  /** The audio connection's statistics, or null before it connects (what tests and diagnostics read). */
  stats(): Promise<RTCStatsReport | null>;
}

/**
 * The browser's phone at one location. Everything above this (the dialer, the ringing toast, the in-call
 * view) talks only to it; the Twilio Voice SDK device and the sandbox device are its two implementations.
 */
export interface Phone {
  readonly provider: 'twilio' | 'sandbox';
  /** Ready to be rung and to call (resolves once registered). */
  register(): Promise<void>;
  unregister(): Promise<void>;
  call(to: string, context: { enquiryId?: string | null }): Promise<PhoneCall>;
  onIncoming(listener: (call: PhoneCall) => void): () => void;
  setDevices(devices: AudioDevices): Promise<void>;
  destroy(): void;
}

/** A small typed event emitter for the implementations. */
export function emitter<Events extends Record<string, (...args: never[]) => void>>() {
  const listeners = new Map<keyof Events, Set<(...args: never[]) => void>>();
  return {
    on<E extends keyof Events>(event: E, listener: Events[E]): () => void {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
    emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
      for (const listener of listeners.get(event) ?? [])
        (listener as (...a: Parameters<Events[E]>) => void)(...args);
    },
  };
}
