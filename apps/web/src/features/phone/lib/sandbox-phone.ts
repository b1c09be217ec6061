import type { AudioDevices, PhoneAck, PhoneRing, PhoneSignal } from '@switchboard/shared';
import { microphone, playRemote } from '@/lib/call-audio.ts';
import type { AppSocket } from '@/lib/socket.ts';
import { emitter, type Phone, type PhoneCall, type PhoneCallEvents, type PhoneCallInfo } from './phone.ts';

const ACK_MS = 15_000;

/** Emits with an answer from the server, or a clear failure when none comes. */
function ask<T extends unknown[]>(socket: AppSocket, event: string, ...args: T): Promise<PhoneAck> {
  return new Promise((resolve) => {
    if (!socket.connected) {
      resolve({ ok: false, message: 'You are offline: the phone works again once the connection is back.' });
      return;
    }
    (socket.timeout(ACK_MS).emit as (...a: unknown[]) => void)(event, ...args, (err: unknown, r: PhoneAck) =>
      resolve(err ? { ok: false, message: 'The server did not answer in time. Please try again.' } : r),
    );
  });
}

/**
 * The sandbox phone: calls with the sandbox page (which plays the customer), audio over WebRTC between the two
 * browsers, negotiated through the server over the app's socket. The customer's end makes the offer; this end
 * answers it.
 */
class SandboxCall implements PhoneCall {
  info: PhoneCallInfo;
  private events = emitter<PhoneCallEvents>();
  private pc: RTCPeerConnection | null = null;
  private mic: MediaStream | null = null;
  private audio = new Audio();
  private pending: RTCIceCandidateInit[] = [];
  private over = false;
  private muted = false;
  private held = false;
  private talking = false;
  private answering = false;
  private endedWith: string | null = null;

  constructor(
    private socket: AppSocket,
    info: PhoneCallInfo,
    private devices: () => AudioDevices,
  ) {
    this.info = info;
  }

  /** An incoming call nobody here has answered yet. */
  get ringing(): boolean {
    return this.info.direction === 'in' && !this.talking && !this.answering;
  }

  /** A listener that comes after the fact still hears it (the server can connect a call before its answer's ack). */
  on<E extends keyof PhoneCallEvents>(event: E, listener: PhoneCallEvents[E]) {
    if (event === 'accepted' && this.talking) (listener as PhoneCallEvents['accepted'])();
    if (event === 'ended' && this.endedWith !== null) (listener as PhoneCallEvents['ended'])(this.endedWith);
    return this.events.on(event, listener);
  }

  /** The microphone first, so a refused one stops the answer before the caller hears it connect. */
  async prepare(): Promise<void> {
    this.mic ??= await microphone(this.devices().input);
    this.applyMute();
  }

  async accept(): Promise<void> {
    await this.prepare();
    this.answering = true;
    const r = await ask(this.socket, 'phone.answer', { call_sid: this.info.sid });
    if (!r.ok) {
      this.finish(r.message);
      throw new Error(r.message);
    }
  }

  reject(): void {
    this.socket.emit('phone.decline', { call_sid: this.info.sid });
    this.finish('declined');
  }

  hangUp(): void {
    if (this.info.sid) this.socket.emit('phone.hangup', { call_sid: this.info.sid });
    this.finish('hung up');
  }

  mute(on: boolean): void {
    this.muted = on;
    this.applyMute();
  }

  hold(on: boolean): void {
    this.held = on;
    this.applyMute();
    this.audio.muted = on;
    this.signal({ kind: 'hold', on });
  }

  sendDigits(digits: string): void {
    if (/^[0-9*#]+$/.test(digits)) this.signal({ kind: 'dtmf', digits });
  }

  async stats(): Promise<RTCStatsReport | null> {
    return this.pc ? this.pc.getStats() : null;
  }

  async setOutput(output: string | null): Promise<void> {
    if (this.audio.srcObject) await playRemote(this.audio, this.audio.srcObject as MediaStream, output);
  }

  connected(): void {
    this.pc = new RTCPeerConnection({ iceServers: [] });
    const mic = this.mic;
    if (mic) for (const track of mic.getTracks()) this.pc.addTrack(track, mic);
    this.pc.ontrack = (e) =>
      void playRemote(this.audio, e.streams[0] ?? new MediaStream([e.track]), this.devices().output);
    this.pc.onicecandidate = (e) => {
      if (e.candidate) this.signal({ kind: 'candidate', candidate: e.candidate.toJSON() as never });
    };
    this.pc.onconnectionstatechange = () => {
      if (this.pc?.connectionState === 'failed')
        this.events.emit('error', 'The call’s audio could not connect.');
    };
    this.talking = true;
    this.events.emit('accepted');
  }

  async signalled(signal: PhoneSignal): Promise<void> {
    const pc = this.pc;
    if (!pc) return;
    if (signal.kind === 'sdp' && signal.sdp.type === 'offer') {
      await pc.setRemoteDescription(signal.sdp);
      for (const c of this.pending.splice(0)) await pc.addIceCandidate(c).catch(() => {});
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      this.signal({ kind: 'sdp', sdp: { type: 'answer', sdp: answer.sdp ?? '' } });
    } else if (signal.kind === 'candidate') {
      if (pc.remoteDescription) await pc.addIceCandidate(signal.candidate).catch(() => {});
      else this.pending.push(signal.candidate);
    }
  }

  finish(reason: string): void {
    if (this.over) return;
    this.over = true;
    this.endedWith = reason;
    this.pc?.close();
    for (const track of this.mic?.getTracks() ?? []) track.stop();
    this.audio.srcObject = null;
    this.events.emit('ended', reason);
  }

  private applyMute(): void {
    for (const track of this.mic?.getAudioTracks() ?? []) track.enabled = !this.muted && !this.held;
  }

  private signal(signal: PhoneSignal): void {
    if (this.info.sid) this.socket.emit('phone.signal', { call_sid: this.info.sid, signal });
  }
}

export function createSandboxPhone(input: {
  socket: AppSocket;
  locationId: string;
  number: string | null;
  devices: AudioDevices;
}): Phone {
  const { socket, locationId } = input;
  let devices = input.devices;
  let registered = false;
  const calls = new Map<string, SandboxCall>();
  const incoming = new Set<(call: PhoneCall) => void>();
  const track = (call: SandboxCall) => {
    calls.set(call.info.sid, call);
    call.on('ended', () => calls.delete(call.info.sid));
    return call;
  };

  const onRing = (ring: PhoneRing) => {
    if (ring.location_id !== locationId || calls.has(ring.call_sid)) return;
    const call = track(
      new SandboxCall(
        socket,
        {
          sid: ring.call_sid,
          direction: 'in',
          from: ring.from,
          to: ring.to,
          callerName: ring.caller_name,
          enquiryId: ring.enquiry_id,
          callId: ring.call_id,
        },
        () => devices,
      ),
    );
    for (const listener of incoming) listener(call);
  };
  const REASONS = {
    answered: 'answered elsewhere',
    cancelled: 'the caller hung up',
    timeout: 'not answered',
    declined: 'declined',
  } as const;
  // Only a call still ringing here stops ringing.
  const onStop = (e: { call_sid: string; reason: keyof typeof REASONS }) => {
    const call = calls.get(e.call_sid);
    if (call?.ringing) call.finish(REASONS[e.reason]);
  };
  const onConnected = (e: { call_sid: string }) => calls.get(e.call_sid)?.connected();
  const onSignal = (e: { call_sid: string; signal: PhoneSignal }) =>
    void calls.get(e.call_sid)?.signalled(e.signal);
  const onEnded = (e: { call_sid: string; status: string }) =>
    calls.get(e.call_sid)?.finish(e.status === 'completed' ? 'the call ended' : e.status.replace('-', ' '));
  // A reconnected socket has lost its rooms: register again.
  const onConnect = () => {
    if (registered) socket.emit('phone.register', { location_id: locationId, on: true }, () => {});
  };
  socket.on('phone.ring', onRing);
  socket.on('phone.stop', onStop);
  socket.on('phone.connected', onConnected);
  socket.on('phone.signal', onSignal);
  socket.on('phone.ended', onEnded);
  socket.on('connect', onConnect);

  return {
    provider: 'sandbox',
    async register() {
      const r = await ask(socket, 'phone.register', { location_id: locationId, on: true });
      if (!r.ok) throw new Error(r.message);
      registered = true;
    },
    async unregister() {
      registered = false;
      await ask(socket, 'phone.register', { location_id: locationId, on: false });
    },
    async call(to, context) {
      const call = new SandboxCall(
        socket,
        {
          sid: '',
          direction: 'out',
          from: input.number ?? '',
          to,
          callerName: null,
          enquiryId: context.enquiryId ?? null,
          callId: null,
        },
        () => devices,
      );
      await call.prepare();
      const r = await ask(socket, 'phone.dial', {
        location_id: locationId,
        to,
        ...(context.enquiryId ? { enquiry_id: context.enquiryId } : {}),
      });
      if (!r.ok || !r.call_sid) {
        call.finish('failed');
        throw new Error(r.ok ? 'The call could not be placed.' : r.message);
      }
      call.info = { ...call.info, sid: r.call_sid };
      return track(call);
    },
    onIncoming(listener) {
      incoming.add(listener);
      return () => incoming.delete(listener);
    },
    async setDevices(next) {
      devices = next;
      for (const call of calls.values()) await call.setOutput(next.output);
    },
    destroy() {
      for (const call of calls.values()) call.hangUp();
      if (registered) socket.emit('phone.register', { location_id: locationId, on: false }, () => {});
      registered = false;
      socket.off('phone.ring', onRing);
      socket.off('phone.stop', onStop);
      socket.off('phone.connected', onConnected);
      socket.off('phone.signal', onSignal);
      socket.off('phone.ended', onEnded);
      socket.off('connect', onConnect);
    },
  };
}
