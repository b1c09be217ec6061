import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('snoozing hides an enquiry from Open until its time, lists it under Snoozed, and it comes back live by itself', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId } = await signedInApi(page);
  const customer = `Sleepy ${Date.now() % 100000}`;
  const sent = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6140${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: customer },
      message: 'Please call me next week',
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const enquiryId = (await sent.json()).body.enquiry_id as string;
  const list = page.getByRole('list', { name: 'Enquiries' });
  const row = list.getByRole('link', { name: new RegExp(customer) });

  // Snoozed until tomorrow morning from the header: it leaves Open at once and says until when.
  await page.goto(`/inbox/${enquiryId}`);
  await expect(row).toBeVisible();
  // The menu slides open; a click that lands mid-animation is tried again.
  const choose = async (item: RegExp | string, done: () => Promise<void>) =>
    expect(async () => {
      if (!(await page.getByRole('menuitem', { name: item }).isVisible()))
        await page.getByRole('button', { name: 'Snooze', exact: true }).click();
      await page.getByRole('menuitem', { name: item }).click();
      await done();
    }).toPass({ timeout: 30_000 });
  await choose(/^Tomorrow morning/, () =>
    expect(page.locator('.ib-view-head')).toContainText('Snoozed until', { timeout: 3000 }),
  );
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: /Snoozed$/ }).click();
  await expect(row).toBeVisible();
  await expect(row).toContainText('until');

  // Woken now from the menu: back in Open.
  await choose('Wake it now', () =>
    expect(page.locator('.ib-view-head')).not.toContainText('Snoozed until', { timeout: 3000 }),
  );
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: /Snoozed$/ }).click();
  await expect(row).toBeVisible();

  // A snooze of a few seconds (set as the picker would): it comes back live, without a reload.
  const soon = new Date(Date.now() + 4000).toISOString();
  const res = await page.request.patch(`/api/v1/enquiries/${enquiryId}`, {
    headers,
    data: { snoozed_until: soon },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await expect(row).toHaveCount(0);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('Unread');
});
