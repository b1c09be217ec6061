import type { Page } from '@playwright/test';
import { accessToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const text = (name: string, body: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(body) });

/** A customer's new enquiry through the sandbox, opened in the inbox. */
async function openNewEnquiry(page: Page, customer: string) {
  const token = await accessToken(page);
  const headers = { authorization: `Bearer ${token}` };
  const me = (await (await page.request.get('/api/v1/user/me', { headers })).json()).body as {
    businesses: { selected: boolean; locations: { id: string; selected: boolean }[] }[];
  };
  const locationId = me.businesses.find((b) => b.selected)!.locations.find((l) => l.selected)!.id;
  const sent = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6142${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: customer },
      message: 'Here is my question',
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const enquiryId = (await sent.json()).body.enquiry_id as string;
  await page.goto(`/inbox/${enquiryId}`);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

const chips = (page: Page) => page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');

test('several files picked together, pasted and dropped all upload; a failure is shown with a retry; each is held once', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  await openNewEnquiry(page, `Files ${Date.now() % 100000}`);

  // The first upload of "flaky.txt" fails on the server; its retry goes through.
  let failures = 0;
  await page.route('**/api/v1/uploads', async (route) => {
    const body = route.request().postDataBuffer()?.toString('latin1') ?? '';
    if (body.includes('filename="flaky.txt"') && failures === 0) {
      failures++;
      await route.fulfill({
        status: 500,
        headers: { 'content-type': 'application/json', 'request-id': 'req-upload-1' },
        body: JSON.stringify({ message: 'Internal Server Error', code: 'internal' }),
      });
      return;
    }
    await route.continue();
  });

  // Three files picked together in the file dialog.
  await page
    .getByLabel('Attach files')
    .setInputFiles([text('notes.txt', 'first'), text('flaky.txt', 'second'), text('third.txt', 'third')]);
  await expect(chips(page)).toHaveCount(3);
  await expect(chips(page).filter({ hasText: 'notes.txt' })).toContainText('B');
  await expect(chips(page).filter({ hasText: 'third.txt' })).toContainText('B');
  const flaky = chips(page).filter({ hasText: 'flaky.txt' });
  await expect(flaky).toContainText(
    'Not uploaded: Something went wrong on our side (Error Code: 400-req-upload-1)',
  );
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await page.getByRole('button', { name: 'Retry flaky.txt' }).click();
  await expect(flaky).not.toContainText('failed');
  await expect(flaky).toContainText('B');
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();

  // An image pasted from the clipboard.
  await page.getByRole('textbox', { name: 'Message' }).evaluate((el, png) => {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, PNG_BASE64);
  await expect(chips(page)).toHaveCount(4);
  await expect(chips(page).filter({ hasText: 'image.png' })).toContainText('B');

  // A file dropped onto the thread.
  const dropped = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['dropped body'], 'dropped.txt', { type: 'text/plain' }));
    return data;
  });
  const thread = page.getByRole('region', { name: /^Conversation with/ });
  await thread.dispatchEvent('dragover', { dataTransfer: dropped });
  await thread.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(chips(page)).toHaveCount(5);
  await expect(chips(page).filter({ hasText: 'dropped.txt' })).toContainText('B');

  // One removed; the draft holds the other four once each, also after a reload.
  await page.getByRole('button', { name: 'Remove third.txt' }).click();
  await expect(chips(page)).toHaveCount(4);
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible();
  await page.reload();
  await expect(chips(page)).toHaveCount(4);
  for (const name of ['notes.txt', 'flaky.txt', 'image.png', 'dropped.txt'])
    await expect(chips(page).filter({ hasText: name })).toHaveCount(1);

  // Sent together: the message carries the four files, the composer is empty.
  await page.getByRole('textbox', { name: 'Message' }).fill('Your files, as promised');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(chips(page)).toHaveCount(0);
  const sent = page.locator('.ib-msg').filter({ hasText: 'Your files, as promised' });
  await expect(sent.locator('.ib-attachments > *')).toHaveCount(4);
});
