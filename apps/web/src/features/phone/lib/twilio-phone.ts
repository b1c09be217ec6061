import type { AudioDevices } from '@switchboard/shared';
import type { Call, Device } from '@twilio/voice-sdk';
import { emitter, type Phone, type PhoneCall, type PhoneCallEvents, type PhoneCallInfo } from './phone.ts';

/** Twilio's error, in words for the person (its own message when it has nothing better). */
function twilioMessage(error: { code?: number; message?: string; description?: string }): string {
  if (error.code === 31401 || error.code === 31208)
    return 'The browser is not allowed to use the microphone: allow it in the address bar, then try again.';
  if (error.code === 20101 || error.code === 20104 || error.code === 31204 || error.code === 31205)
    return 'The phone’s sign-in to Twilio expired: go available again.';
  if (error.code === 31005 || error.code === 31009 || error.code === 53000)
    return 'The phone lost its connection to Twilio. Check the internet connection.';
  return error.description || error.message || 'Twilio reported a problem with the call.';
}

class TwilioCall implements PhoneCall {
  info: PhoneCallInfo;
  private events = emitter<PhoneCallEvents>();
  private over = false;

  constructor(
    readonly call: Call,
    info: PhoneCallInfo,
  ) {
    this.info = info;
    call.on('accept', () => {
      const sid = call.parameters.CallSid;
      if (sid && sid !== this.info.sid) {
        this.info = { ...this.info, sid };
        this.events.emit('updated', this.info);
      }
      this.events.emit('accepted');
    });
    call.on('disconnect', () => this.finish('the call ended'));
    call.on('cancel', () => this.finish('the caller hung up'));
    call.on('reject', () => this.finish('declined'));
    call.on('error', (error: { code?: number; message?: string }) =>
      this.events.emit('error', twilioMessage(error)),
    );
  }

  on<E extends keyof PhoneCallEvents>(event: E, listener: PhoneCallEvents[E]) {
    return this.events.on(event, listener);
  }

  async accept(): Promise<void> {
    this.call.accept();
  }
  reject(): void {
    this.call.reject();
    this.finish('declined');
  }
  hangUp(): void {
    this.call.disconnect();
    this.finish('hung up');
  }
  mute(on: boolean): void {
    this.call.mute(on);
  }
  /** The customer hears silence and the browser plays nothing while held. */
  hold(on: boolean): void {
    this.call.mute(on);
    const remote = this.call.getRemoteStream();
    for (const track of remote?.getAudioTracks() ?? []) track.enabled = !on;
  }
  sendDigits(digits: string): void {
    if (/^[0-9*#w]+$/.test(digits)) this.call.sendDigits(digits);
  }
  async stats(): Promise<RTCStatsReport | null> {
    // The SDK keeps its peer connection to itself; its media handler holds it.
    const pc = (this.call as unknown as { _mediaHandler?: { version?: { pc?: RTCPeerConnection } } })
      ._mediaHandler?.version?.pc;
    return pc ? pc.getStats() : null;
  }
  finish(reason: string): void {
    if (this.over) return;
    this.over = true;
    this.events.emit('ended', reason);
  }
}

/**
 * The Twilio phone: Twilio's Voice SDK device, registered with an access token the server mints for this
 * person at this location. The SDK is its own chunk, fetched only when someone goes available or dials.
 */
export async function createTwilioPhone(input: {
  identity: string;
  number: string | null;
  devices: AudioDevices;
  token: () => Promise<string>;
}): Promise<Phone> {
  const { Device: TwilioDevice, Call: TwilioCallClass } = await import('@twilio/voice-sdk');
  const device: Device = new TwilioDevice(await input.token(), {
    codecPreferences: [TwilioCallClass.Codec.Opus, TwilioCallClass.Codec.PCMU],
    closeProtection: 'A call is in progress. Leave the page and hang it up?',
    logLevel: 'silent',
  });
  // The app rings with the person's own ringtone and shows the call's progress itself.
  device.audio?.incoming(false);
  device.audio?.outgoing(false);
  device.audio?.disconnect(false);
  const incoming = new Set<(call: PhoneCall) => void>();
  const wrap = (call: Call, direction: 'in' | 'out', to: string, enquiryId: string | null) =>
    new TwilioCall(call, {
      sid: call.parameters.CallSid ?? '',
      direction,
      from: direction === 'in' ? (call.parameters.From ?? '') : (input.number ?? ''),
      to,
      callerName: call.customParameters.get('callerName') ?? null,
      enquiryId: call.customParameters.get('enquiryId') ?? enquiryId,
      callId: call.customParameters.get('callId') ?? null,
    });
  device.on('incoming', (call: Call) => {
    const wrapped = wrap(call, 'in', call.parameters.To ?? input.number ?? '', null);
    for (const listener of incoming) listener(wrapped);
  });
  device.on('tokenWillExpire', () => {
    void input
      .token()
      .then((t) => device.updateToken(t))
      .catch(() => {});
  });

  const setDevices = async (d: AudioDevices) => {
    if (!device.audio) return;
    if (d.input) await device.audio.setInputDevice(d.input).catch(() => {});
    if (d.output) await device.audio.speakerDevices.set([d.output]).catch(() => {});
    if (d.ringing) await device.audio.ringtoneDevices.set([d.ringing]).catch(() => {});
  };
  await setDevices(input.devices);

  return {
    provider: 'twilio',
    async register() {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          device.off('registered', done);
          device.off('error', failed);
          resolve();
        };
        const failed = (error: { code?: number; message?: string }) => {
          device.off('registered', done);
          device.off('error', failed);
          reject(new Error(twilioMessage(error)));
        };
        device.on('registered', done);
        device.on('error', failed);
        device.register().catch(failed);
      });
    },
    async unregister() {
      if (device.state === 'registered') await device.unregister();
    },
    async call(to, context) {
      const call = await device.connect({
        params: { To: to, ...(context.enquiryId ? { enquiryId: context.enquiryId } : {}) },
      });
      return wrap(call, 'out', to, context.enquiryId ?? null);
    },
    onIncoming(listener) {
      incoming.add(listener);
      return () => incoming.delete(listener);
    },
    setDevices,
    destroy() {
      device.destroy();
    },
  };
}
