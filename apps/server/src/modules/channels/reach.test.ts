import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from './test-support.ts';

describe('how customers reach a location', SUITE_TIMEOUTS, () => {
  let suite: ChannelSuite;
  beforeAll(async () => {
    suite = await startChannelSuite();
  }, SETUP_TIMEOUT_MS);
  afterAll(() => suite.close(), SETUP_TIMEOUT_MS);

  const reach = (location: string, token: string) =>
    suite.t.request({ method: 'GET', url: `/api/v1/channels/reach?location_id=${location}`, token });

  it('lists every number and address from the connected channels and says which starts conversations', async () => {
    const { t, owner, staff, locations } = suite;
    const [docklands] = locations;
    // In sandbox mode, before any account: the location's sandbox number texts, and starts conversations.
    const before = (await reach(docklands, staff)).json().body.items;
    expect(before.find((i: { channel: string }) => i.channel === 'sms')).toMatchObject({
      address: '+61491570156',
      via: 'Sandbox',
      starts_conversations: true,
    });

    await connect(t, owner, {
      location_id: docklands,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+15555550100' },
    });
    const res = await reach(docklands, staff);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().body.items as {
      label: string;
      address: string;
      via: string;
      starts_conversations: boolean;
    }[];
    expect(items.map((i) => [i.label, i.address, i.via, i.starts_conversations])).toEqual([
      ['SMS & MMS', '+15555550100', 'Twilio', true],
      // The seeded number belongs to no connected account any more: said so, and not used.
      ['SMS & MMS', '+61491570156', 'Not connected', false],
      ['Email', expect.stringMatching(/@/), 'Switchboard mail', false],
      ['Email', 'docklands@harbourside.test', 'Switchboard mail', true],
      ['Website chat', 'The chat bubble on your website', 'Switchboard', false],
    ]);
    expect(JSON.stringify(items)).not.toContain(TWILIO_TOKEN);

    const north = await t.login(DEMO_LOGINS.northsideOwner);
    expect((await reach(docklands, north)).statusCode).toBe(404);
    expect((await reach('not-a-uuid', owner)).statusCode).toBe(400);
  });

  it('shows a landline typed as the location phone as a number to ring, not as its texting number', async () => {
    const { t, owner, locations } = suite;
    const other = locations[1]!;
    const saved = await t.request({
      method: 'PATCH',
      url: `/api/v1/business/locations/${other}`,
      token: owner,
      payload: { phone_number: '+61396501234' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const items = (await reach(other, owner)).json().body.items as { channel: string; label: string }[];
    expect(items.find((i) => i.channel === 'sms')).toBeUndefined();
    expect(items.find((i) => i.channel === 'phone_call')).toMatchObject({
      label: 'Phone',
      address: '+61396501234',
      via: 'Landline',
      starts_conversations: false,
    });
  });
});
