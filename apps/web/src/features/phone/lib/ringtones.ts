import type { CallRingtone } from '@switchboard/shared';

type SinkContext = AudioContext & { setSinkId?: (id: string) => Promise<void> };

/** One ring of each shipped ringtone: [frequencies, start, length] tones within a cycle of `cycle` seconds. */
const PATTERNS: Record<CallRingtone, { tones: [number[], number, number][]; cycle: number }> = {
  // A North American ring: 440 + 480 Hz, two seconds on, four off.
  classic: { tones: [[[440, 480], 0, 2]], cycle: 6 },
  // A British double ring: 400 + 450 Hz, 0.4 on, 0.2 off, 0.4 on, two off.
  double: {
    tones: [
      [[400, 450], 0, 0.4],
      [[400, 450], 0.6, 0.4],
    ],
    cycle: 3,
  },
  // Three soft rising notes.
  chime: {
    tones: [
      [[659.25], 0, 0.35],
      [[783.99], 0.35, 0.35],
      [[1046.5], 0.7, 0.6],
    ],
    cycle: 3,
  },
};

export const RINGTONE_LABELS: Record<CallRingtone, string> = {
  classic: 'Classic ring',
  double: 'Double ring',
  chime: 'Chime',
};

async function contextFor(sinkId: string | null): Promise<SinkContext | null> {
  if (typeof AudioContext === 'undefined') return null;
  const ctx: SinkContext = new AudioContext();
  if (sinkId && ctx.setSinkId) await ctx.setSinkId(sinkId).catch(() => {});
  await ctx.resume().catch(() => {});
  return ctx;
}

function schedule(ctx: AudioContext, ringtone: CallRingtone, at: number): void {
  for (const [frequencies, start, length] of PATTERNS[ringtone].tones) {
    const gain = ctx.createGain();
    const t0 = at + start;
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + 0.02);
    gain.gain.setValueAtTime(0.18, t0 + length - 0.05);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
    gain.connect(ctx.destination);
    for (const f of frequencies) {
      const osc = ctx.createOscillator();
      osc.frequency.value = f;
      osc.connect(gain);
      osc.start(t0);
      osc.stop(t0 + length);
    }
  }
}

/** Rings until stopped, on the chosen ringing device. Made by the browser: nothing to download. */
export function startRinging(ringtone: CallRingtone, sinkId: string | null): () => void {
  let stopped = false;
  let ctx: AudioContext | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  void contextFor(sinkId).then((c) => {
    if (!c || stopped) return void c?.close();
    ctx = c;
    const cycle = PATTERNS[ringtone].cycle;
    let next = c.currentTime + 0.05;
    const ahead = () => {
      while (next < c.currentTime + cycle) {
        schedule(c, ringtone, next);
        next += cycle;
      }
    };
    ahead();
    timer = setInterval(ahead, 1000);
  });
  return () => {
    stopped = true;
    if (timer) clearInterval(timer);
    void ctx?.close();
  };
}

/** One ring, to hear a ringtone (or test a speaker) before choosing it. */
export async function playOnce(ringtone: CallRingtone, sinkId: string | null): Promise<void> {
  const ctx = await contextFor(sinkId);
  if (!ctx) throw new Error('This browser cannot play sound.');
  schedule(ctx, ringtone, ctx.currentTime + 0.05);
  const length = Math.max(...PATTERNS[ringtone].tones.map(([, s, l]) => s + l));
  setTimeout(() => void ctx.close(), (length + 0.3) * 1000);
}
