import { NOTIFICATION_SOUNDS, type NotificationSound, UPLOADED_SOUND } from '@switchboard/shared';
import { LONG_POP } from './sound-rules.ts';

export const SOUND_LABELS: Record<NotificationSound, string> = {
  'long-pop': 'Long pop',
  chime: 'Chime',
  ding: 'Ding',
  knock: 'Knock',
};

export const isShippedSound = (value: string): value is NotificationSound =>
  (NOTIFICATION_SOUNDS as readonly string[]).includes(value);

/** Where an uploaded sound (`upload:<id>`) is played from: the person's own, in any business they open. */
export function uploadedSoundUrl(ringtone: string): string | null {
  const id = UPLOADED_SOUND.exec(ringtone)?.[1];
  return id ? `/api/v1/user/me/sounds/${id}` : null;
}

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  return context;
}

/**
 * Browsers keep a page silent until the person has interacted with it: the first click or key press after the
 * app opens wakes the sound up, so a notice that comes later (with the tab in the background) is heard.
 */
export function unlockAudioOnFirstGesture(): () => void {
  const unlock = () => {
    const ctx = audioContext();
    if (ctx && ctx.state !== 'running') void ctx.resume().catch(() => {});
    stop();
  };
  const stop = () => {
    window.removeEventListener('pointerdown', unlock, true);
    window.removeEventListener('keydown', unlock, true);
  };
  window.addEventListener('pointerdown', unlock, true);
  window.addEventListener('keydown', unlock, true);
  return stop;
}

/** One tone: a sine from `from` to `to` Hz, with a quick attack and a tail of `length` seconds. */
function tone(ctx: AudioContext, at: number, from: number, to: number, length: number, peak: number) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.setValueAtTime(from, at);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, at + Math.min(0.18, length / 2));
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/**
 * The shipped sounds, made rather than downloaded. The long pop (spec §4's default) is a sine that drops an
 * octave with a long soft tail, noticed from another tab without being shrill.
 */
const SHIPPED: Record<NotificationSound, (ctx: AudioContext, at: number) => void> = {
  'long-pop': (ctx, at) => tone(ctx, at, 880, 440, 0.6, 0.35),
  chime: (ctx, at) => {
    tone(ctx, at, 659.25, 659.25, 0.35, 0.2);
    tone(ctx, at + 0.18, 987.77, 987.77, 0.6, 0.2);
  },
  ding: (ctx, at) => tone(ctx, at, 1318.5, 1318.5, 0.9, 0.22),
  knock: (ctx, at) => {
    tone(ctx, at, 180, 120, 0.09, 0.5);
    tone(ctx, at + 0.16, 180, 120, 0.09, 0.5);
  },
};

/** Plays a notification sound: a shipped one, or the person's uploaded file. */
export function playRingtone(ringtone: string): void {
  const url = uploadedSoundUrl(ringtone);
  if (url) {
    // A browser blocks sound it thinks nobody asked for; the notice is a nicety, so that is not an error.
    void new Audio(url).play().catch(() => {});
    return;
  }
  const ctx = audioContext();
  if (!ctx) return;
  void ctx.resume().catch(() => {});
  SHIPPED[isShippedSound(ringtone) ? ringtone : LONG_POP](ctx, ctx.currentTime + 0.01);
}
