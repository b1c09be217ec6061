import { LONG_POP } from './sound-rules.ts';

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  return context;
}

/**
 * The default "long pop", made rather than downloaded: a sine that drops an octave with a quick attack
 * and a long soft tail, so it is noticed from another tab without being shrill.
 */
function playLongPop(): void {
  const ctx = audioContext();
  if (!ctx) return;
  void ctx.resume().catch(() => {});
  const start = ctx.currentTime + 0.01;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.setValueAtTime(880, start);
  osc.frequency.exponentialRampToValueAtTime(440, start + 0.18);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.35, start + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.12, start + 0.12);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.6);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + 0.62);
}

/** Plays a ringtone: the generated long pop, or the user's chosen sound file. */
export function playRingtone(ringtone: string): void {
  if (ringtone === LONG_POP) {
    playLongPop();
    return;
  }
  // A browser blocks sound it thinks nobody asked for; the notice is a nicety, so that is not an error.
  void new Audio(ringtone).play().catch(() => {});
}
