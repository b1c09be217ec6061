import { calls, messages } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcmWav } from '../../lib/wav.ts';
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

/** The AI model: summarises Omar's voicemail; is down for every other call (the extract stands then). */
const summariser = (req: { text: string }) =>
  req.text.includes('Omar')
    ? {
        json: {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o-mini',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: {
                role: 'assistant',
                content: 'Omar is cancelling his Friday appointment and wants a call back.',
              },
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
      }
    : { status: 503, json: { error: { message: 'model is loading' } } };

describe('call transcripts and summaries', SUITE_TIMEOUTS, () => {
  let fake: FakeProvider;
  let t: TestApp;
  let outage = false;
  /** A transcript to answer with instead of Dana's. */
  let spoken: { text: string; segments: { start: number; end: number; text: string }[] } | null = null;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    t = await channelTestApp(fake, {
      TRANSCRIBE_BASE_URL: fake.url,
      TRANSCRIBE_API_KEY: 'sk-transcribe',
      // An AI model summarises calls; when it is down the summary is the extract from the transcript.
      AI_BASE_URL: `${fake.url}/v1`,
    });
    const owner = await t.login(DEMO_LOGINS.owner);
    const location = (await getMe(t, owner)).businesses.find((b) => b.selected)!.locations[0]!.id;
    await connect(t, owner, {
      location_id: location,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
    });
    fake
      .on('POST', '/v1/chat/completions', summariser)
      .on('GET', /\/Recordings\/RE\w+\.mp3$/, {
        body: Buffer.from('ID3-voicemail'),
        headers: { 'content-type': 'audio/mpeg' },
      })
      .on('GET', /\/Recordings\/REdual\.wav$/, {
        body: pcmWav(Buffer.alloc(8000 * 4), 8000, 2),
        headers: { 'content-type': 'audio/wav' },
      })
      .on('POST', '/v1/audio/transcriptions', (req) =>
        req.text.includes('filename="customer.wav"')
          ? {
              json: {
                text: 'Can I move my appointment? Thursday works.',
                segments: [
                  { start: 0.5, end: 2, text: ' Can I move my appointment?' },
                  { start: 4, end: 5, text: ' Thursday works.' },
                ],
              },
            }
          : req.text.includes('filename="staff.wav"')
            ? {
                json: {
                  text: 'Of course, how about Thursday?',
                  segments: [{ start: 2.2, end: 3.8, text: ' Of course, how about Thursday?' }],
                },
              }
            : outage
              ? { status: 503, json: { error: { message: 'model is loading' } } }
              : spoken
                ? { json: spoken }
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
    // The model was asked, could not answer, and the extract stands.
    expect(fake.received('POST', '/v1/chat/completions').length).toBeGreaterThan(0);
    expect(done.summary).toBe("I'm calling to reschedule my check-up.");
    expect(done.summary_details).toMatchObject({ reasons: ["I'm calling to reschedule my check-up."] });
    expect((done.summary_details as { follow_up: string }).follow_up).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const sent = fake.received('POST', '/v1/audio/transcriptions')[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-transcribe');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.text).toContain('name="model"\r\n\r\nwhisper-1');
    expect(sent.text).toContain('ID3-voicemail');
  });

  it('transcribes each end of a dual-channel call on its own and says who spoke, in the order they spoke', async () => {
    const sid = `CA${'5'.repeat(32)}`;
    await postTwilio(t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      From: '+61491570052',
      To: NUMBER,
    });
    await postTwilio(t, `${VOICE}/recording-status`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      RecordingSid: 'REdual',
      RecordingUrl: `${fake.url}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/REdual`,
      RecordingStatus: 'completed',
      RecordingDuration: '8',
      RecordingChannels: '2',
      RecordingSource: 'DialVerb',
    });
    const [call] = await t.database.db.select().from(calls).where(eq(calls.provider_call_sid, sid));
    const done = await eventually(async () => {
      const m = await messageOf(call!.message_id);
      return m.call_transcription_status === 'completed' ? m : null;
    }, 20_000);
    // Fetched as WAV (not MP3), so its channels could be split.
    expect(fake.received('GET', /\/Recordings\/REdual\.wav$/)).toHaveLength(1);
    expect(done.attachments).toEqual([expect.objectContaining({ content_type: 'audio/wav' })]);
    expect(done.meta.call_transcript).toEqual({
      text: 'Customer: Can I move my appointment?\nStaff: Of course, how about Thursday?\nCustomer: Thursday works.',
      segments: [
        { start: 0.5, end: 2, text: 'Can I move my appointment?', speaker: 'customer' },
        { start: 2.2, end: 3.8, text: 'Of course, how about Thursday?', speaker: 'staff' },
        { start: 4, end: 5, text: 'Thursday works.', speaker: 'customer' },
      ],
    });
  });

  it('keeps a transcript carrying a NUL or half an emoji, cleaned, rather than failing the call', async () => {
    spoken = {
      text: 'Please call me\u0000 back 😀 today \ud83d',
      segments: [{ start: 0, end: 3, text: ' Please call me\u0000 back \ude00' }],
    };
    try {
      const call = await voicemail(`CA${'8'.repeat(32)}`, 'REtranscribe8');
      const done = await eventually(async () => {
        const m = await messageOf(call.message_id);
        return m.call_transcription_status === 'completed' ? m : null;
      }, 20_000);
      expect(done.meta.call_transcript).toMatchObject({
        text: 'Please call me back 😀 today \ufffd',
        segments: [{ start: 0, end: 3, text: 'Please call me back \ufffd' }],
      });
    } finally {
      spoken = null;
    }
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

describe('voicemails transcribed by Twilio', SUITE_TIMEOUTS, () => {
  let fake: FakeProvider;
  let t: TestApp;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    fake.on('POST', '/v1/chat/completions', summariser);
    t = await channelTestApp(fake, { TRANSCRIBE_PROVIDER: 'twilio', AI_BASE_URL: `${fake.url}/v1` });
    const owner = await t.login(DEMO_LOGINS.owner);
    const location = (await getMe(t, owner)).businesses.find((b) => b.selected)!.locations[0]!.id;
    await connect(t, owner, {
      location_id: location,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
    });
    fake.on('GET', /\/Recordings\/RE\w+\.mp3$/, {
      body: Buffer.from('ID3-voicemail'),
      headers: { 'content-type': 'audio/mpeg' },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("asks Twilio to transcribe the voicemail, keeps its transcript and summarises it; Twilio's failure is said", async () => {
    const sid = `CA${'6'.repeat(32)}`;
    const twiml = await postTwilio(t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      From: '+61491570053',
      To: NUMBER,
    });
    expect(twiml.body).toContain('transcribe="true"');
    expect(twiml.body).toContain(
      `transcribeCallback="${t.app.config.publicUrl}/webhooks/twilio/voice/transcription"`,
    );
    await postTwilio(t, `${VOICE}/recording-status`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      RecordingSid: 'REtwiliotranscribes',
      RecordingUrl: `${fake.url}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/REtwiliotranscribes`,
      RecordingStatus: 'completed',
      RecordingDuration: '6',
      RecordingChannels: '1',
      RecordingSource: 'RecordVerb',
    });
    const [call] = await t.database.db.select().from(calls).where(eq(calls.provider_call_sid, sid));
    const messageOf = async () =>
      (await t.database.db.select().from(messages).where(eq(messages.id, call!.message_id)))[0]!;
    await eventually(async () => (await messageOf()).call_transcription_status === 'in_progress', 20_000);

    // Unsigned: refused, nothing kept.
    const unsigned = await t.app.inject({
      method: 'POST',
      url: `${VOICE}/transcription`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        AccountSid: TWILIO_SID,
        CallSid: sid,
        TranscriptionStatus: 'completed',
        TranscriptionText: 'forged',
      }).toString(),
    });
    expect(unsigned.statusCode).toBe(403);

    await postTwilio(t, `${VOICE}/transcription`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      RecordingSid: 'REtwiliotranscribes',
      TranscriptionSid: `TR${'1'.repeat(32)}`,
      TranscriptionStatus: 'completed',
      TranscriptionText: 'Hi, this is Omar. I need to cancel my appointment on Friday. Please call me back.',
    });
    const done = await eventually(async () => {
      const m = await messageOf();
      return m.call_summary_status === 'completed' ? m : null;
    }, 20_000);
    expect(done.call_transcription_status).toBe('completed');
    expect((done.meta.call_transcript as { text: string }).text).toContain('cancel my appointment');
    expect(done.summary).toBe('Omar is cancelling his Friday appointment and wants a call back.');
    expect(done.summary_details).toMatchObject({ reasons: ['I need to cancel my appointment on Friday.'] });

    // Another voicemail Twilio could not transcribe says so.
    const failedSid = `CA${'7'.repeat(32)}`;
    await postTwilio(t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: failedSid,
      From: '+61491570054',
      To: NUMBER,
    });
    await postTwilio(t, `${VOICE}/transcription`, {
      AccountSid: TWILIO_SID,
      CallSid: failedSid,
      TranscriptionStatus: 'failed',
    });
    const [failedCall] = await t.database.db
      .select()
      .from(calls)
      .where(eq(calls.provider_call_sid, failedSid));
    const failed = (
      await t.database.db.select().from(messages).where(eq(messages.id, failedCall!.message_id))
    )[0]!;
    expect(failed.call_transcription_status).toBe('failed');
    expect(failed.meta.call_transcript_note).toBe('Twilio could not transcribe this voicemail.');
  });
});
