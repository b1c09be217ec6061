import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_HEAD_BYTES,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPE_REFUSAL,
  attachmentRefusal,
  isPlainText,
} from './attachments.ts';

const MB = 1024 * 1024;
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('attachmentRefusal: what the browser refuses before uploading', () => {
  it('refuses a file over the limit, saying the limit and the file size, whatever its kind', () => {
    expect(attachmentRefusal({ name: 'scan.pdf', size: 30 * MB, type: 'application/pdf' })).toBe(
      'The file is too large. Attach files of at most 25 MB. This one is 30 MB.',
    );
    expect(
      attachmentRefusal({ name: 'x.pdf', size: ATTACHMENT_MAX_BYTES, type: 'application/pdf' }),
    ).toBeNull();
    expect(
      attachmentRefusal({ name: 'x.pdf', size: 6 * MB, type: 'application/pdf' }, undefined, 5 * MB),
    ).toMatch(/at most 5 MB/);
  });

  it('refuses an empty file', () => {
    expect(attachmentRefusal({ name: 'x.png', size: 0, type: 'image/png' })).toBe('The file is empty.');
  });

  it('lets the accepted kinds go by their type or, when the browser gives none, by their name', () => {
    expect(attachmentRefusal({ name: 'photo', size: 10, type: 'image/jpeg' })).toBeNull();
    expect(attachmentRefusal({ name: 'IMG_0001.HEIC', size: 10, type: '' })).toBeNull();
    expect(attachmentRefusal({ name: 'notes.csv', size: 10, type: '' })).toBeNull();
    expect(attachmentRefusal({ name: 'page.html', size: 10, type: 'text/html' })).toBeNull();
  });

  it('asks for the first bytes of a file it cannot place, and judges them as text or not', () => {
    const unknown = { name: 'setup.exe', size: 9000, type: 'application/x-msdownload' };
    expect(attachmentRefusal(unknown)).toBe('need-head');
    expect(attachmentRefusal(unknown, new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]))).toBe(
      ATTACHMENT_TYPE_REFUSAL,
    );
    const readme = { name: 'README', size: 40, type: '' };
    expect(attachmentRefusal(readme, utf8('Ōtautahi clinic — שלום 👋🏽 e\u0301'))).toBeNull();
    // No extension at all is judged by the bytes too, never by a name without a dot.
    expect(attachmentRefusal({ name: 'pdf', size: 5, type: '' }, new Uint8Array([1, 2, 3, 4, 5]))).toBe(
      ATTACHMENT_TYPE_REFUSAL,
    );
  });
});

describe('isPlainText', () => {
  it('accepts UTF-8 with emoji, combining marks and right-to-left text', () => {
    expect(isPlainText(utf8('Café e\u0301 مرحبا 👩‍⚕️\r\n\tend'))).toBe(true);
  });

  it('refuses NUL, control bytes and invalid UTF-8', () => {
    expect(isPlainText(new Uint8Array([0x68, 0x00, 0x69]))).toBe(false);
    expect(isPlainText(new Uint8Array([0x68, 0x07]))).toBe(false);
    expect(isPlainText(new Uint8Array([0xff, 0xfe, 0x41]))).toBe(false);
  });

  it('forgives a character cut in two at the end of a partial read, not in a whole file', () => {
    const emoji = utf8(`${'a'.repeat(ATTACHMENT_HEAD_BYTES - 2)}👋`).slice(0, ATTACHMENT_HEAD_BYTES);
    expect(isPlainText(emoji, true)).toBe(true);
    expect(isPlainText(emoji, false)).toBe(false);
  });
});
