import { describe, expect, it } from 'vitest';
import { pcmWav, readWav, splitWavChannels, wavChannels, wavSeconds } from './wav.ts';

/** A stereo 16-bit WAV whose left samples are 1, 2, 3… and right samples -1, -2, -3…, with a LIST chunk first. */
function stereo(frames: number, rate = 8000): Buffer {
  const data = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    data.writeInt16LE(i + 1, i * 4);
    data.writeInt16LE(-(i + 1), i * 4 + 2);
  }
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(2, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate * 4, 16);
  fmt.writeUInt16LE(4, 20);
  fmt.writeUInt16LE(16, 22);
  const list = Buffer.concat([
    Buffer.from('LIST'),
    Buffer.from([3, 0, 0, 0]),
    Buffer.from('abc'),
    Buffer.from([0]),
  ]);
  const dataHead = Buffer.alloc(8);
  dataHead.write('data', 0, 'ascii');
  dataHead.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE'), list, fmt, dataHead, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

describe('call recordings as WAV', () => {
  it('reads the format past other chunks, and the length in seconds', () => {
    const wav = stereo(16_000);
    expect(readWav(wav)).toMatchObject({ format: 1, channels: 2, sampleRate: 8000, bitsPerSample: 16 });
    expect(wavChannels(wav)).toBe(2);
    expect(wavSeconds(wav)).toBe(2);
    expect(readWav(Buffer.from('ID3 an mp3'))).toBeNull();
  });

  it('splits the two ends of a dual-channel recording into mono files, sample for sample', () => {
    const [left, right] = splitWavChannels(stereo(5))!;
    expect(readWav(left!)).toMatchObject({ channels: 1, sampleRate: 8000, dataLength: 10 });
    const samples = (b: Buffer) => Array.from({ length: 5 }, (_, i) => b.readInt16LE(44 + i * 2));
    expect(samples(left!)).toEqual([1, 2, 3, 4, 5]);
    expect(samples(right!)).toEqual([-1, -2, -3, -4, -5]);
  });

  it('does not split a mono file', () => {
    expect(splitWavChannels(pcmWav(Buffer.alloc(20), 8000))).toBeNull();
  });
});
