import { calls, messages } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS, eventually, getMe, type TestApp } from '../../test/helpers.ts';
import {
  channelTestApp,
  connect,
  FakeProvider,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../channels/test-support.ts';

const NUMBER = '+61491570110';
const VOICE = '/webhooks/twilio/voice';

describe('call transcripts and summaries', SUITE_TIMEOUTS, () => {
  let fake: FakeProvider;
  let t: TestApp;
  let outage = false;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    t = await channelTestApp(fake, { TRANSCRIBE_BASE_URL: fake.url, TRANSCRIBE_API_KEY: 'sk-transcribe' });
    const owner = await t.login(DEMO_LOGINS.owner);
    const location = (await getMe(t, owner)).businesses.find((b) => b.selected)!.locations[0]!.id;
    await connect(t, owner, {
      location_id: location,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
    });
    fake
      .on('GET', /\/Recordings\/RE\w+\.mp3$/, {
        body: Buffer.from('ID3-voicemail'),
        headers: { 'content-type': 'audio/mpeg' },
      })
      .on('POST', '/v1/audio/transcriptions', () =>
        outage
          ? { status: 503, json: { error: { message: 'model is loading' } } }
          : {
              json: {
                text: "Hi, it's Dana. I'm calling to reschedule my check-up. Please call me back tomorrow.",
                segments: [
                  { start: 0, end: 2.1, text: " Hi, it's Dana." },
                  { start: 2.1, end: 6, text: " I'm calling to reschedule my check-up." },
                ],
              },
            },
      );
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const voicemail = async (sid: string, recording: string) => {
    await postTwilio(t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      From: '+61491570051',
      To: NUMBER,
    });
    await postTwilio(t, `${VOICE}/recording-status`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      RecordingSid: recording,
      RecordingUrl: `${fake.url}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/${recording}`,
      RecordingStatus: 'completed',
      RecordingDuration: '9',
      RecordingChannels: '1',
      RecordingSource: 'RecordVerb',
    });
    const [call] = await t.database.db.select().from(calls).where(eq(calls.provider_call_sid, sid));
    return call!;
  };
  const messageOf = async (id: string) =>
    (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]!;

  it('transcribes the recording and summarises what the call was about', async () => {
    const call = await voicemail(`CA${'3'.repeat(32)}`, 'REtranscribe1');
    const done = await eventually(async () => {
      const m = await messageOf(call.message_id);
      return m.call_summary_status === 'completed' ? m : null;
    }, 20_000);
    expect(done.call_transcription_status).toBe('completed');
    expect(done.meta.call_transcript).toMatchObject({
      text: "Hi, it's Dana. I'm calling to reschedule my check-up. Please call me back tomorrow.",
      segments: [
        { start: 0, end: 2.1, text: "Hi, it's Dana." },
        { start: 2.1, end: 6 },
      ],
    });
    expect(done.summary).toBe("I'm calling to reschedule my check-up.");
    expect(done.summary_details).toMatchObject({ reasons: ["I'm calling to reschedule my check-up."] });
    expect((done.summary_details as { follow_up: string }).follow_up).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const sent = fake.received('POST', '/v1/audio/transcriptions')[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-transcribe');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.text).toContain('name="model"\r\n\r\nwhisper-1');
    expect(sent.text).toContain('ID3-voicemail');
  });

  it('retries while the service is down, then says the transcription failed and why', async () => {
    outage = true;
    const before = fake.received('POST', '/v1/audio/transcriptions').length;
    const call = await voicemail(`CA${'4'.repeat(32)}`, 'REtranscribe2');
    const failed = await eventually(async () => {
      const m = await messageOf(call.message_id);
      return m.call_transcription_status === 'failed' ? m : null;
    }, 30_000);
    expect(failed.meta.call_transcript_note).toBe(
      'Transcription failed: The transcription service answered 503: model is loading',
    );
    // The first try and every retry reached the service.
    expect(fake.received('POST', '/v1/audio/transcriptions').length - before).toBe(5);
    expect(failed.call_summary_status).toBe('not_started');
    outage = false;
  });
});
