import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

/** The simulator finds its customer's conversation on the server, whoever wrote first. */
describe('the sandbox conversation of a simulated customer', () => {
  let t: TestApp;
  let owner: string;
  let location: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    location = await selectedLocation(t, owner);
  }, 120_000);
  afterAll(() => t.close());

  const find = (query: Record<string, string>, token = owner) =>
    t.request({ method: 'GET', url: `/api/v1/sandbox/conversation?${new URLSearchParams(query)}`, token });

  it('finds the conversation the business began by text, before the customer wrote, by the number as typed', async () => {
    const none = await find({ location_id: location, channel: 'sms', identity: '0412 000 040' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().body).toEqual({ enquiry_id: null });

    const started = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      token: owner,
      payload: {
        channel: 'sms',
        phone: '+61412000040',
        location_id: location,
        message: 'Your crown is ready',
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { enquiry_id } = started.json().body;
    for (const channel of ['sms', 'mms'])
      expect((await find({ location_id: location, channel, identity: '0412 000 040' })).json().body).toEqual({
        enquiry_id,
      });
    // WhatsApp from the same number is a conversation of its own.
    expect(
      (await find({ location_id: location, channel: 'whatsapp', identity: '+61412000040' })).json().body,
    ).toEqual({ enquiry_id: null });
  });

  it('finds email and network-id customers as the inbound door stores them', async () => {
    const mail = await inbound(t, owner, {
      channel: 'email',
      location_id: location,
      from: { email: 'Pat.Sim@example.com' },
      message: 'Hello',
      subject: 'Hi',
    });
    expect(
      (await find({ location_id: location, channel: 'email', identity: 'pat.sim@EXAMPLE.com' })).json().body,
    ).toEqual({ enquiry_id: mail.enquiry_id });
    const fb = await inbound(t, owner, {
      channel: 'facebook',
      location_id: location,
      from: { external_id: '2400012345678901' },
      message: 'Hi',
    });
    expect(
      (await find({ location_id: location, channel: 'facebook', identity: '2400012345678901' })).json().body,
    ).toEqual({ enquiry_id: fb.enquiry_id });
  });

  it("refuses what it cannot read saying why, and another business's location is not found", async () => {
    const badPhone = await find({ location_id: location, channel: 'sms', identity: '12' });
    expect(badPhone.statusCode).toBe(422);
    expect(badPhone.json().message).toContain('12 is not a valid phone number');
    const badEmail = await find({ location_id: location, channel: 'email', identity: 'pat@' });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json().message).toBe('Give the customer a valid email address.');
    const empty = await find({ location_id: location, channel: 'sms', identity: ' ' });
    expect(empty.statusCode).toBe(400);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = await find({
      location_id: await selectedLocation(t, north),
      channel: 'sms',
      identity: '0412000040',
    });
    expect(theirs.statusCode).toBe(404);
  });
});
