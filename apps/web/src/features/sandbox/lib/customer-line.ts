import type { PhoneAck, PhoneRing, PhoneSignal } from '@switchboard/shared';
import { api } from '@/lib/api-client.ts';
import { microphone, playRemote } from '@/lib/call-audio.ts';
import type { AppSocket } from '@/lib/socket.ts';
import { WavRecorder } from './wav-recorder.ts';

export type LineState =
  | { kind: 'idle' }
  | { kind: 'calling'; sid: string | null }
  | { kind: 'incoming'; ring: PhoneRing }
  | { kind: 'talking'; sid: string; since: number; held: boolean; digits: string }
  | { kind: 'voicemail'; sid: string; greeting: string }
  | { kind: 'transferring'; sid: string }
  | { kind: 'ended'; message: string };

const ACK_MS = 15_000;

function ask(socket: AppSocket, event: string, ...args: unknown[]): Promise<PhoneAck> {
  return new Promise((resolve) => {
    if (!socket.connected) {
      resolve({ ok: false, message: 'You are offline: try again once the connection is back.' });
      return;
    }
    (socket.timeout(ACK_MS).emit as (...a: unknown[]) => void)(event, ...args, (err: unknown, r: PhoneAck) =>
      resolve(err ? { ok: false, message: 'The server did not answer in time. Please try again.' } : r),
    );
  });
}

/** Voicemails are cut off after a minute, as a phone company's would be. */
const VOICEMAIL_MS = 60_000;

/**
 * The customer's phone, played by the sandbox page: it rings a location or is rung by a staff browser, makes
 * the WebRTC offer once both ends are on the call, and records the call (the customer left, the staff right)
 * or the voicemail left, sending the recording to the server when the call ends, as Twilio would.
 */
export class CustomerLine {
  state: LineState = { kind: 'idle' };
  private listeners = new Set<() => void>();
  private pc: RTCPeerConnection | null = null;
  private mic: MediaStream | null = null;
  private audio = new Audio();
  private recorder: WavRecorder | null = null;
  private pending: RTCIceCandidateInit[] = [];
  private voicemailTimer: ReturnType<typeof setTimeout> | undefined;
  private sid: string | null = null;
  /** A voicemail offered before the call's id came back (nobody was free at all). */
  private early: { call_sid: string; greeting: string } | null = null;
  private detach: () => void;

  constructor(private socket: AppSocket) {
    const onRing = (ring: PhoneRing) => {
      if (this.state.kind === 'idle' || this.state.kind === 'ended') this.set({ kind: 'incoming', ring });
      else socket.emit('phone.decline', { call_sid: ring.call_sid });
    };
    const onConnected = (e: { call_sid: string }) => {
      if (e.call_sid === this.sid) void this.connect().catch((err: Error) => this.fail(err.message));
    };
    const onSignal = (e: { call_sid: string; signal: PhoneSignal }) => {
      if (e.call_sid === this.sid) void this.signalled(e.signal);
    };
    const onEnded = (e: { call_sid: string; status: string }) => {
      if (e.call_sid !== this.sid) return;
      void this.finish(
        e.status === 'completed'
          ? 'The business hung up.'
          : `The call ended (${e.status.replace('-', ' ')}).`,
      );
    };
    const onVoicemail = (e: { call_sid: string; greeting: string }) => {
      if (e.call_sid === this.sid)
        void this.leaveVoicemail(e.greeting).catch((err: Error) => this.fail(err.message));
      else if (this.state.kind === 'calling' && !this.sid) this.early = e;
    };
    const onStop = (e: { call_sid: string }) => {
      if (this.state.kind === 'incoming' && this.state.ring.call_sid === e.call_sid)
        this.set({ kind: 'ended', message: 'The business hung up before you answered.' });
    };
    const onTransfer = (e: { call_sid: string }) => {
      if (e.call_sid !== this.sid) return;
      // The teammate's answer connects the call again (a new offer); the recording carries on.
      this.pc?.close();
      this.pc = null;
      this.pending = [];
      this.set({ kind: 'transferring', sid: e.call_sid });
    };
    const listen = () => socket.emit('sandbox.listen', () => {});
    socket.on('phone.transfer', onTransfer);
    socket.on('sandbox.ring', onRing);
    socket.on('phone.connected', onConnected);
    socket.on('phone.signal', onSignal);
    socket.on('phone.ended', onEnded);
    socket.on('sandbox.voicemail', onVoicemail);
    socket.on('phone.stop', onStop);
    socket.on('connect', listen);
    listen();
    this.detach = () => {
      socket.off('sandbox.ring', onRing);
      socket.off('phone.connected', onConnected);
      socket.off('phone.signal', onSignal);
      socket.off('phone.ended', onEnded);
      socket.off('sandbox.voicemail', onVoicemail);
      socket.off('phone.stop', onStop);
      socket.off('phone.transfer', onTransfer);
      socket.off('connect', listen);
    };
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  snapshot = () => this.state;

  /** Rings the location from `from`. */
  async call(locationId: string, from: string, to?: string): Promise<void> {
    this.set({ kind: 'calling', sid: null });
    try {
      this.mic = await microphone(null);
    } catch (error) {
      return this.fail((error as Error).message);
    }
    const r = await ask(this.socket, 'sandbox.call', {
      location_id: locationId,
      from,
      ...(to ? { to } : {}),
    });
    if (!r.ok || !r.call_sid) return this.fail(r.ok ? 'The call could not be placed.' : r.message);
    this.sid = r.call_sid;
    if (this.state.kind === 'calling') this.set({ kind: 'calling', sid: r.call_sid });
    const early = this.early;
    this.early = null;
    if (early?.call_sid === r.call_sid) await this.leaveVoicemail(early.greeting);
  }

  async answer(): Promise<void> {
    if (this.state.kind !== 'incoming') return;
    const sid = this.state.ring.call_sid;
    try {
      this.mic = await microphone(null);
    } catch (error) {
      this.socket.emit('phone.decline', { call_sid: sid });
      return this.fail((error as Error).message);
    }
    this.sid = sid;
    const r = await ask(this.socket, 'phone.answer', { call_sid: sid });
    if (!r.ok) return this.fail(r.message);
  }

  decline(): void {
    if (this.state.kind !== 'incoming') return;
    this.socket.emit('phone.decline', { call_sid: this.state.ring.call_sid });
    this.set({ kind: 'ended', message: 'You declined the call.' });
  }

  /** Hangs up (or finishes the voicemail, which sends it). */
  async hangUp(): Promise<void> {
    const sid = this.sid;
    if (!sid) return this.set({ kind: 'idle' });
    const voicemail = this.state.kind === 'voicemail';
    if (!voicemail) this.socket.emit('phone.hangup', { call_sid: sid });
    await this.finish(voicemail ? 'Your message was left.' : 'You hung up.');
    if (voicemail) this.socket.emit('phone.hangup', { call_sid: sid });
  }

  /** What the check of a call reads: the audio connection's statistics. */
  stats(): Promise<RTCStatsReport | null> {
    return this.pc ? this.pc.getStats() : Promise.resolve(null);
  }

  destroy(): void {
    if (this.sid) this.socket.emit('phone.hangup', { call_sid: this.sid });
    void this.finish('');
    this.detach();
  }

  private async connect(): Promise<void> {
    const sid = this.sid;
    if (!sid) return;
    const pc = new RTCPeerConnection({ iceServers: [] });
    this.pc = pc;
    const mic = this.mic ?? (await microphone(null));
    this.mic = mic;
    for (const track of mic.getTracks()) pc.addTrack(track, mic);
    // A call connected again after a transfer keeps its recording going.
    if (!this.recorder) {
      this.recorder = new WavRecorder(2);
      this.recorder.add(mic, 0);
    }
    pc.ontrack = (e) => {
      const stream = e.streams[0] ?? new MediaStream([e.track]);
      void playRemote(this.audio, stream, null);
      this.recorder?.add(stream, 1);
    };
    pc.onicecandidate = (e) => {
      if (e.candidate) this.signal({ kind: 'candidate', candidate: e.candidate.toJSON() as never });
    };
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    this.signal({ kind: 'sdp', sdp: { type: 'offer', sdp: offer.sdp ?? '' } });
    this.set({ kind: 'talking', sid, since: Date.now(), held: false, digits: '' });
  }

  private async signalled(signal: PhoneSignal): Promise<void> {
    const pc = this.pc;
    if (signal.kind === 'dtmf' && this.state.kind === 'talking')
      return this.set({ ...this.state, digits: this.state.digits + signal.digits });
    if (signal.kind === 'hold' && this.state.kind === 'talking')
      return this.set({ ...this.state, held: signal.on });
    if (!pc) return;
    if (signal.kind === 'sdp' && signal.sdp.type === 'answer') {
      await pc.setRemoteDescription(signal.sdp);
      for (const c of this.pending.splice(0)) await pc.addIceCandidate(c).catch(() => {});
    } else if (signal.kind === 'candidate') {
      if (pc.remoteDescription) await pc.addIceCandidate(signal.candidate).catch(() => {});
      else this.pending.push(signal.candidate);
    }
  }

  private async leaveVoicemail(greeting: string): Promise<void> {
    const sid = this.sid;
    if (!sid) return;
    this.set({ kind: 'voicemail', sid, greeting });
    if ('speechSynthesis' in window) window.speechSynthesis.speak(new SpeechSynthesisUtterance(greeting));
    const mic = this.mic ?? (await microphone(null));
    this.mic = mic;
    this.recorder = new WavRecorder(1);
    this.recorder.add(mic, 0);
    this.voicemailTimer = setTimeout(() => void this.hangUp(), VOICEMAIL_MS);
  }

  /** The call is over: the recording (if any) goes to the server, and the line is free again. */
  private async finish(message: string): Promise<void> {
    const sid = this.sid;
    const voicemail = this.state.kind === 'voicemail';
    clearTimeout(this.voicemailTimer);
    this.sid = null;
    this.pc?.close();
    this.pc = null;
    for (const track of this.mic?.getTracks() ?? []) track.stop();
    this.mic = null;
    this.audio.srcObject = null;
    const recording = this.recorder?.stop() ?? null;
    this.recorder = null;
    if (message) this.set({ kind: 'ended', message });
    if (!sid || !recording) return;
    const form = new FormData();
    form.set('file', recording, voicemail ? 'voicemail.wav' : 'call.wav');
    await api
      .post(`/sandbox/calls/${encodeURIComponent(sid)}/recording`, form, {
        params: voicemail ? { voicemail: 'true' } : undefined,
      })
      .catch(() => {
        this.set({ kind: 'ended', message: `${message} The recording could not be sent to the server.` });
      });
  }

  private fail(message: string): void {
    if (this.sid) this.socket.emit('phone.hangup', { call_sid: this.sid });
    void this.finish(message);
  }

  private signal(signal: PhoneSignal): void {
    if (this.sid) this.socket.emit('phone.signal', { call_sid: this.sid, signal });
  }

  private set(state: LineState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
