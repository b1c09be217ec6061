/**
 * Reading the WAV files calls are recorded in: 16-bit PCM, one or two channels (a dual-channel call recording
 * keeps each end of the call on its own channel). Written here because the one job — find the `fmt ` and
 * `data` chunks, split interleaved samples — is a few lines, where an audio library would bring decoders the
 * server never needs.
 */

export type WavInfo = {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Where the samples start and how many bytes they take. */
  dataOffset: number;
  dataLength: number;
};

/** The WAV's format, or null when the bytes are not a WAV file. */
export function readWav(bytes: Buffer): WavInfo | null {
  if (
    bytes.length < 12 ||
    bytes.toString('ascii', 0, 4) !== 'RIFF' ||
    bytes.toString('ascii', 8, 12) !== 'WAVE'
  )
    return null;
  let at = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataLength'> | null = null;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      fmt = {
        format: bytes.readUInt16LE(body),
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bitsPerSample: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data' && fmt) {
      return { ...fmt, dataOffset: body, dataLength: Math.min(size, bytes.length - body) };
    }
    at = body + size + (size % 2);
  }
  return null;
}

/** A WAV file's channel count, or null when it is not one. */
export const wavChannels = (bytes: Buffer): number | null => readWav(bytes)?.channels ?? null;

/** A WAV file's length in whole seconds, or null when it is not one. */
export function wavSeconds(bytes: Buffer): number | null {
  const info = readWav(bytes);
  if (!info || info.sampleRate === 0 || info.channels === 0 || info.bitsPerSample === 0) return null;
  return Math.round(info.dataLength / (info.sampleRate * info.channels * (info.bitsPerSample / 8)));
}

/** A 16-bit PCM WAV of these (interleaved) samples. */
export function pcmWav(samples: Buffer, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** Each channel of a 16-bit PCM WAV as a mono WAV, or null for anything else (one channel, other encodings). */
export function splitWavChannels(bytes: Buffer): Buffer[] | null {
  const info = readWav(bytes);
  if (info?.format !== 1 || info.bitsPerSample !== 16 || info.channels < 2) return null;
  const frame = info.channels * 2;
  const frames = Math.floor(info.dataLength / frame);
  const channels = Array.from({ length: info.channels }, () => Buffer.alloc(frames * 2));
  for (let i = 0; i < frames; i++) {
    const at = info.dataOffset + i * frame;
    for (let c = 0; c < info.channels; c++) bytes.copy(channels[c]!, i * 2, at + c * 2, at + c * 2 + 2);
  }
  return channels.map((samples) => pcmWav(samples, info.sampleRate));
}
