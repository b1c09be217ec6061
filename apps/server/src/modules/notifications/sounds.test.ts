import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestApp, DEMO_LOGINS, fileUpload, type TestApp } from '../../test/helpers.ts';

/** A short, silent WAV file: a RIFF header and a tenth of a second of 8 kHz samples. */
function wav(): Buffer {
  const samples = Buffer.alloc(800);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

describe('notification sounds', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const upload = async (token: string, name: string, type: string, bytes: Buffer) => {
    const file = await fileUpload('file', name, type, bytes);
    const res = await t.request({ method: 'POST', url: '/api/v1/uploads', token, ...file });
    return res.json().body as { id: string; content_type: string };
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
  });
  afterAll(() => t.close());

  it('takes a shipped sound, or one’s own uploaded sound, served back to its owner only', async () => {
    const chime = await api('PATCH', '/user/me', staff, { ringtone_enquiry: 'chime' });
    expect(chime.body.body.ringtone_enquiry).toBe('chime');
    const unknown = await api('PATCH', '/user/me', staff, { ringtone_enquiry: 'foghorn' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Choose one of the sounds offered/);

    const sound = await upload(staff, 'bell.wav', 'audio/wav', wav());
    expect(sound.content_type).toMatch(/^audio\//);
    const mine = await api('PATCH', '/user/me', staff, { ringtone_message: `upload:${sound.id}` });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.body.ringtone_message).toBe(`upload:${sound.id}`);
    const played = await t.request({
      method: 'GET',
      url: `/api/v1/user/me/sounds/${sound.id}`,
      token: staff,
    });
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toMatch(/^audio\//);
    expect(played.rawPayload.length).toBe(wav().length);

    // Someone else's sound is not theirs to choose or to play.
    expect((await api('PATCH', '/user/me', owner, { ringtone_message: `upload:${sound.id}` })).status).toBe(
      404,
    );
    const theirs = await t.request({
      method: 'GET',
      url: `/api/v1/user/me/sounds/${sound.id}`,
      token: owner,
    });
    expect(theirs.statusCode).toBe(404);

    // A file that is not a sound is refused, and nothing changes.
    const text = await upload(staff, 'notes.txt', 'text/plain', Buffer.from('not a sound'));
    const refused = await api('PATCH', '/user/me', staff, { ringtone_message: `upload:${text.id}` });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/not a sound/);
    expect((await api('GET', '/user/me', staff)).body.body.ringtone_message).toBe(`upload:${sound.id}`);
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/user/me/sounds/${text.id}`, token: staff })).statusCode,
    ).toBe(404);
  });
});
