import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS, eventually, getMe } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  messagesByProviderId,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from './test-support.ts';

const NORTH_SID = `AC${'d'.repeat(32)}`;
const NORTH_TOKEN = 'fedcba9876543210fedcba9876543210';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9, 9, 9]);

describe('inbound media of several businesses', SUITE_TIMEOUTS, () => {
  let suite: ChannelSuite;

  beforeAll(async () => {
    suite = await startChannelSuite();
    const { t, owner } = suite;
    await connect(t, owner, {
      location_id: suite.locations[0],
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+15555550100' },
    });
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const northLocation = (await getMe(t, north)).businesses.find((b) => b.selected)!.locations[0]!.id;
    await connect(t, north, {
      location_id: northLocation,
      provider: 'twilio',
      config: { account_sid: NORTH_SID, auth_token: NORTH_TOKEN, phone_number: '+15555550200' },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => suite.close(), SETUP_TIMEOUT_MS);

  const mms = (sid: string, token: string, to: string, messageSid: string, mediaPath: string) =>
    postTwilio(
      suite.t,
      '/webhooks/twilio/messaging',
      {
        AccountSid: sid,
        MessageSid: messageSid,
        From: '+61491570888',
        To: to,
        Body: '',
        NumMedia: '1',
        MediaUrl0: `${suite.fake.url}${mediaPath}`,
        MediaContentType0: 'image/jpeg',
      },
      { token },
    );

  it("gets one business's photos while another's media hangs", async () => {
    const { fake } = suite;
    // Harbourside's customers send four photos whose downloads hang (the provider never answers in time).
    const slow = `/2010-04-01/Accounts/${TWILIO_SID}/Messages/slow/Media`;
    fake.on('GET', new RegExp(`^${slow}`), {
      delayMs: 8000,
      body: JPEG,
      headers: { 'content-type': 'image/jpeg' },
    });
    for (let i = 0; i < 4; i++) {
      const sid = `MMslow${String(i).padStart(28, '0')}`;
      expect((await mms(TWILIO_SID, TWILIO_TOKEN, '+15555550100', sid, `${slow}/ME${i}`)).statusCode).toBe(
        200,
      );
    }
    // Then Northside's customer sends one that downloads at once.
    const quick = `/2010-04-01/Accounts/${NORTH_SID}/Messages/quick/Media/ME0`;
    fake.on('GET', quick, { body: JPEG, headers: { 'content-type': 'image/jpeg' } });
    const sent = Date.now();
    expect(
      (await mms(NORTH_SID, NORTH_TOKEN, '+15555550200', `MMquick${'0'.repeat(27)}`, quick)).statusCode,
    ).toBe(200);
    const attached = await eventually(async () => {
      const [m] = await messagesByProviderId(suite.t, 'twilio', `MMquick${'0'.repeat(27)}`);
      return m && m.attachments.length === 1 && m;
    }, 7000);
    // Well before any of Harbourside's downloads could end: they did not hold Northside's up.
    expect(Date.now() - sent).toBeLessThan(6000);
    expect(attached.attachments[0]).toMatchObject({ content_type: 'image/jpeg', size: JPEG.length });
    const [stillWaiting] = await messagesByProviderId(suite.t, 'twilio', `MMslow${'0'.repeat(28)}`);
    expect(stillWaiting!.meta).toMatchObject({ media_pending: 1 });
  });
});
