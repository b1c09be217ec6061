import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

describe('replying to an unassigned enquiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('assigns it to whoever replies, unless they turned that off; the counters follow', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const staff = await t.login(DEMO_LOGINS.staff1);
    const staffId = (await getMe(t, staff)).id;
    const location = await selectedLocation(t, owner);
    const counts = async () =>
      (
        await t.request({
          method: 'GET',
          url: `/api/v1/enquiries/counts?location_id=${location}`,
          token: owner,
        })
      ).json().body as { assigned_count_open: number; unassigned_count_open: number };
    const reply = (id: string) =>
      t.request({
        method: 'POST',
        url: `/api/v1/enquiries/${id}/messages`,
        token: staff,
        payload: { message: 'On it' },
      });
    const enquiry = async (id: string) =>
      (await t.request({ method: 'GET', url: `/api/v1/enquiries/${id}`, token: owner })).json().body;

    const a = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570901' },
      message: 'Hi',
    });
    const before = await counts();
    expect((await reply(a.enquiry_id)).statusCode).toBe(200);
    expect((await enquiry(a.enquiry_id)).assigned_to).toBe(staffId);
    expect(await counts()).toMatchObject({
      assigned_count_open: before.assigned_count_open + 1,
      unassigned_count_open: before.unassigned_count_open - 1,
    });

    const off = await t.request({
      method: 'PATCH',
      url: '/api/v1/user/me',
      token: staff,
      payload: { assign_on_reply: false },
    });
    expect(off.json().body.assign_on_reply).toBe(false);
    const b = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570902' },
      message: 'Hello',
    });
    expect((await reply(b.enquiry_id)).statusCode).toBe(200);
    expect((await enquiry(b.enquiry_id)).assigned_to).toBeNull();
  });
});
