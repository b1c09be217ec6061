import type { Page } from '@playwright/test';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const notices = (page: Page) => page.locator('.ant-notification-notice');

async function newEnquiry(page: Page, customer: string) {
  const { headers, locationId } = await signedInApi(page);
  const res = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6140${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: customer },
      message: 'Is anyone there?',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).body.enquiry_id as string;
}

test('a server failure on the list says so with its error code, not "check your connection"', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  await page.route(/\/api\/v1\/enquiries\?/, (route) =>
    route.fulfill({
      status: 500,
      headers: { 'content-type': 'application/json', 'request-id': 'list-req-1' },
      body: JSON.stringify({ message: 'Something went wrong on our side.', code: 'internal_error' }),
    }),
  );
  await page.goto('/inbox');
  const pane = page.getByRole('region', { name: 'Enquiry list' });
  await expect(pane).toContainText('We could not load enquiries');
  await expect(pane).toContainText('Something went wrong on our side (Error Code: 400-list-req-1)');
  await expect(pane).not.toContainText('connection');
  await expect(notices(page).filter({ hasText: 'Error Code: 400-list-req-1' })).toHaveCount(1);
});

test('a failed send is marked on the message with the reason and Retry sends it once; offline, a reply waits and says so', async ({
  page,
  context,
}) => {
  await logIn(page, LOGINS.owner.email);
  const enquiryId = await newEnquiry(page, `Failing Send ${Date.now() % 100000}`);
  await page.goto(`/inbox/${enquiryId}`);
  const box = page.getByRole('textbox', { name: 'Message' });
  const thread = page.getByRole('list', { name: 'Messages' });

  // The server fails the first attempt.
  const sendUrl = new RegExp(`/api/v1/enquiries/${enquiryId}/messages$`);
  await page.route(sendUrl, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 500,
          headers: { 'content-type': 'application/json', 'request-id': 'send-req-1' },
          body: JSON.stringify({ message: 'Something went wrong on our side.', code: 'internal_error' }),
        })
      : route.continue(),
  );
  await box.fill('We have a slot at 3pm');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const failed = thread.locator('.ib-msg').filter({ hasText: 'We have a slot at 3pm' });
  await expect(failed).toContainText(
    'Not sent. Something went wrong on our side (Error Code: 400-send-req-1)',
  );
  // One notice for one failure: the message itself.
  await expect(notices(page)).toHaveCount(0);

  await page.unroute(sendUrl);
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(failed).not.toContainText('Not sent');
  await expect(failed.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(thread.locator('.ib-msg').filter({ hasText: 'We have a slot at 3pm' })).toHaveCount(1);

  // Offline: the reply waits in the browser and says so; back online, it goes by itself.
  await context.setOffline(true);
  await box.fill('Or 4pm if that suits');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const offline = thread.locator('.ib-msg').filter({ hasText: 'Or 4pm if that suits' });
  await expect(offline).toContainText('Waiting for a connection: it will be sent when you are back online.');
  await context.setOffline(false);
  await expect(offline).not.toContainText('Waiting for a connection');
  await expect(offline).toHaveAttribute('data-status', /sent|delivered/);

  // After a reload both are there once each, as the server stored them.
  await page.reload();
  for (const text of ['We have a slot at 3pm', 'Or 4pm if that suits'])
    await expect(thread.locator('.ib-msg').filter({ hasText: text })).toHaveCount(1);
});

test('an unknown enquiry says so once, in place', async ({ page }) => {
  await logIn(page, LOGINS.owner.email);
  await page.goto('/inbox/0199aaaa-0000-7000-8000-000000000000');
  await expect(page.getByText('This enquiry is not here')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the inbox' })).toBeVisible();
  await expect(notices(page)).toHaveCount(0);
});
