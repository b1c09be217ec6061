/** The recording's rate: telephone quality, small enough to keep and send. */
const RATE = 8000;

/**
 * Records audio streams into a 16-bit PCM WAV, each stream on its own channel (a dual-channel call recording
 * keeps the two speakers apart, so a transcript can tell them apart). MediaRecorder only makes compressed
 * mixes, which the server could not split.
 */
export class WavRecorder {
  private ctx = new AudioContext();
  private merger: ChannelMergerNode;
  private processor: ScriptProcessorNode;
  private chunks: Float32Array[][] = [];
  private sources: MediaStreamAudioSourceNode[] = [];

  constructor(private channels: 1 | 2) {
    this.merger = this.ctx.createChannelMerger(channels);
    this.processor = this.ctx.createScriptProcessor(4096, channels, channels);
    this.processor.onaudioprocess = (e) => {
      const frame: Float32Array[] = [];
      for (let c = 0; c < channels; c++) frame.push(new Float32Array(e.inputBuffer.getChannelData(c)));
      this.chunks.push(frame);
    };
    this.merger.connect(this.processor);
    // A processor only runs while connected to the output; it writes nothing to it.
    this.processor.connect(this.ctx.destination);
    void this.ctx.resume().catch(() => {});
  }

  /** Records `stream` on `channel`. */
  add(stream: MediaStream, channel: number): void {
    if (stream.getAudioTracks().length === 0) return;
    const source = this.ctx.createMediaStreamSource(stream);
    source.connect(this.merger, 0, Math.min(channel, this.channels - 1));
    this.sources.push(source);
  }

  /** Stops and gives the WAV (null when nothing was heard at all). */
  stop(): Blob | null {
    for (const s of this.sources) s.disconnect();
    this.processor.disconnect();
    this.merger.disconnect();
    const rate = this.ctx.sampleRate;
    void this.ctx.close();
    if (this.chunks.length === 0) return null;
    const frames = this.chunks.reduce((n, f) => n + (f[0]?.length ?? 0), 0);
    const step = rate / RATE;
    const out = Math.floor(frames / step);
    const pcm = new DataView(new ArrayBuffer(44 + out * this.channels * 2));
    const joined = Array.from({ length: this.channels }, (_, c) => {
      const all = new Float32Array(frames);
      let at = 0;
      for (const f of this.chunks) {
        const data = f[c] ?? new Float32Array(f[0]?.length ?? 0);
        all.set(data, at);
        at += data.length;
      }
      return all;
    });
    for (let i = 0; i < out; i++) {
      const from = Math.floor(i * step);
      const to = Math.min(frames, Math.floor((i + 1) * step));
      for (let c = 0; c < this.channels; c++) {
        // The average over the step: a simple low-pass before dropping samples.
        const samples = joined[c] ?? new Float32Array(0);
        let sum = 0;
        for (let j = from; j < to; j++) sum += samples[j] ?? 0;
        const v = Math.max(-1, Math.min(1, sum / Math.max(1, to - from)));
        pcm.setInt16(44 + (i * this.channels + c) * 2, v < 0 ? v * 0x8000 : v * 0x7fff, true);
      }
    }
    const text = (at: number, s: string) => {
      for (let i = 0; i < s.length; i++) pcm.setUint8(at + i, s.charCodeAt(i));
    };
    text(0, 'RIFF');
    pcm.setUint32(4, 36 + out * this.channels * 2, true);
    text(8, 'WAVEfmt ');
    pcm.setUint32(16, 16, true);
    pcm.setUint16(20, 1, true);
    pcm.setUint16(22, this.channels, true);
    pcm.setUint32(24, RATE, true);
    pcm.setUint32(28, RATE * this.channels * 2, true);
    pcm.setUint16(32, this.channels * 2, true);
    pcm.setUint16(34, 16, true);
    text(36, 'data');
    pcm.setUint32(40, out * this.channels * 2, true);
    return new Blob([pcm.buffer], { type: 'audio/wav' });
  }
}
