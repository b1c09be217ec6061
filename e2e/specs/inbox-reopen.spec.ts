import type { APIRequestContext } from '@playwright/test';
import { logIn } from '../fixtures/app.ts';
import { DEMO_PASSWORD, LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const SAM = { email: 'staff1@harbourside.test', name: 'Sam Nguyen' };

async function apiAs(request: APIRequestContext, email: string) {
  const login = await request.post('/api/v1/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  const headers = { authorization: `Bearer ${(await login.json()).body.token}` };
  const me = (await (await request.get('/api/v1/user/me', { headers })).json()).body;
  return { headers, me };
}

test('a customer writing again reopens their closed enquiry: the assignee is told on any page, the history and an earlier conversation are there', async ({
  browser,
  request,
}) => {
  const owner = await apiAs(request, LOGINS.owner.email);
  const sam = await apiAs(request, SAM.email);
  const locationId = owner.me.businesses
    .find((b: { selected: boolean }) => b.selected)
    .locations.find((l: { selected: boolean }) => l.selected).id;
  const phone = `+6143${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const customer = `Back Again ${Date.now() % 100000}`;
  const inbound = async (channel: string, message: string) => {
    const res = await request.post('/api/v1/sandbox/inbound', {
      headers: owner.headers,
      data: { channel, location_id: locationId, from: { phone, name: customer }, message },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()).body.enquiry_id as string;
  };

  // An older WhatsApp conversation, then an SMS enquiry assigned to Sam and closed.
  await inbound('whatsapp', 'Do you open on Saturdays?');
  const enquiryId = await inbound('sms', 'Booking for Tuesday please');
  const patch = (data: object) =>
    request.patch(`/api/v1/enquiries/${enquiryId}`, { headers: owner.headers, data });
  expect((await patch({ assigned_to: sam.me.id })).ok()).toBe(true);
  expect((await patch({ status: 'closed' })).ok()).toBe(true);

  // Sam is on another page of the app when the customer writes again.
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, SAM.email);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Locations' }).click();
  await expect(page).toHaveURL(/\/locations$/);
  expect(await inbound('sms', 'Sorry, can we make it Wednesday?')).toBe(enquiryId);

  const notice = page.locator('.ant-notification-notice').filter({ hasText: `${customer} wrote again` });
  await expect(notice).toContainText('still assigned to you: “Sorry, can we make it Wednesday?”');
  await notice.getByRole('button', { name: 'Open the enquiry' }).click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${enquiryId}$`));

  // The same conversation, open and still Sam's, with the first message above the new one.
  await expect(page.locator('.ib-view-head').getByText('Assigned to you')).toBeVisible();
  await expect(page.locator('.ib-view-head').getByText('Open', { exact: true })).toBeVisible();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages).toContainText('Booking for Tuesday please');
  await expect(messages).toContainText('Sorry, can we make it Wednesday?');

  // The WhatsApp conversation before it is one click away, loaded in place.
  await page.getByRole('button', { name: 'Show an earlier conversation' }).click();
  await page.getByRole('button', { name: /^Show the WhatsApp conversation of/ }).click();
  await expect(page.getByRole('list', { name: 'Earlier messages' })).toContainText(
    'Do you open on Saturdays?',
  );
  await context.close();
});
