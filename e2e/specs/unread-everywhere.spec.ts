import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('the unread count of every location the person works at is in the tab title and on the Inbox menu item on every page, live', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId } = await signedInApi(page);
  const unreadNow = async () =>
    (
      (await (await page.request.get('/api/v1/enquiries/unread', { headers })).json()).body.items as {
        location_id: string;
        unread: number;
      }[]
    ).reduce((sum, r) => sum + r.unread, 0);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('menuitem', { name: /Locations/ })
    .click();
  await expect(page).toHaveURL(/\/locations$/);
  const before = await unreadNow();

  const res = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6143${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: 'Una Read' },
      message: 'Anyone there?',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const enquiryId = (await res.json()).body.enquiry_id as string;

  // On the Locations page, without a reload.
  await expect(page).toHaveTitle(`(${before + 1}) Switchboard`);
  const inboxItem = page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: /Inbox/ });
  await expect(inboxItem).toContainText(String(before + 1));

  // Reading it takes it off.
  await page.goto(`/inbox/${enquiryId}`);
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Anyone there?');
  await expect(page).toHaveTitle(before > 0 ? `(${before}) Switchboard` : 'Switchboard');

  // Marked as unread again: back to the list, bold, and counted.
  await page.getByRole('button', { name: 'Mark as unread' }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(
    page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: /Una Read/ })
      .first(),
  ).toContainText('Unread');
  await expect(page).toHaveTitle(`(${before + 1}) Switchboard`);
});
