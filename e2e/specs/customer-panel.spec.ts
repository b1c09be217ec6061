import type { Page } from '@playwright/test';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { conversationAction, logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const randomMobile = () => `+6146${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

async function sandboxInbound(page: Page, data: Record<string, unknown>) {
  const { headers, locationId } = await signedInApi(page);
  const res = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: { channel: 'sms', location_id: locationId, ...data },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).body.enquiry_id as string;
}

test('the customer beside the conversation: a bare number becomes a person, a clash is explained, the panel folds away', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await logIn(page, LOGINS.owner.email);
  const phone = randomMobile();
  const taken = randomMobile();
  // Shown as dialled in Australia, where the business is.
  const shown = parsePhoneNumberFromString(phone)!.formatNational();
  await sandboxInbound(page, { channel: 'whatsapp', from: { phone }, message: 'Are you open late?' });
  const enquiryId = await sandboxInbound(page, { from: { phone }, message: 'Need a check-up' });
  await sandboxInbound(page, { from: { phone: taken, name: 'Someone Else' }, message: 'Hi' });
  await page.goto(`/inbox/${enquiryId}`);

  const panel = page.getByRole('complementary', { name: 'Customer' });
  await expect(panel).toContainText(shown);
  await expect(panel).toContainText('No name yet');
  await expect(panel).toContainText('Allowed');
  await expect(panel.getByRole('region', { name: 'Their enquiries' })).toContainText(
    'Their other enquiries (1)',
  );
  await expect(panel.getByRole('link', { name: /^WhatsApp/ })).toBeVisible();

  // The bare number gets a name, and the conversation's header and list row follow.
  await panel.getByRole('button', { name: 'Edit name' }).click();
  await panel.getByRole('textbox', { name: 'Name' }).fill('Dana Bare');
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.ib-view-head h2')).toHaveText('Dana Bare');
  await expect(
    page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: /Dana Bare/ })
      .first(),
  ).toBeVisible();

  // A number another customer has is refused, with what to do instead; nothing changes.
  await panel.getByRole('button', { name: 'Edit phone' }).click();
  await panel.getByRole('textbox', { name: 'Phone' }).fill(taken);
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    'Another customer already has this phone number. Merge the two instead.',
  );
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel).toContainText(shown);

  // Folded away, it stays folded after a reload.
  await page.getByRole('button', { name: 'Customer details' }).click();
  await expect(panel).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.ib-view-head h2')).toHaveText('Dana Bare');
  await expect(panel).toHaveCount(0);
  await page.getByRole('button', { name: 'Customer details' }).click();
  await expect(panel).toContainText('Dana Bare');

  // On a phone the customer opens in a drawer.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel).toHaveCount(0);
  await conversationAction(page, 'Customer details');
  const drawer = page.getByRole('dialog', { name: 'Customer' });
  await expect(drawer).toContainText('Dana Bare');
  await expect(drawer).toContainText(shown);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the Customers page finds a customer and merges two records of one person', async ({ page }) => {
  await logIn(page, LOGINS.owner.email);
  const stamp = Date.now() % 100000;
  const name = `Merle Twice ${stamp}`;
  const email = `merle.${stamp}@example.com`;
  await sandboxInbound(page, { from: { phone: randomMobile(), name }, message: 'Texting you' });
  await sandboxInbound(page, {
    channel: 'email',
    from: { email },
    message: 'Emailing you',
    subject: 'Hello',
  });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Customers' }).click();
  await expect(page).toHaveURL(/\/customers$/);
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(name);
  await page.getByRole('searchbox', { name: 'Search customers' }).press('Enter');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByText(name).click();

  const drawer = page.getByRole('dialog', { name: 'Customer' });
  await expect(drawer).toContainText('Their enquiries (1)');
  await drawer.getByRole('button', { name: 'Merge with another customer…' }).click();
  await drawer.getByRole('combobox', { name: 'Customer to merge' }).fill(email);
  await page.locator('.ant-select-dropdown').getByText(email).click();
  await drawer.getByRole('button', { name: 'Merge into this customer' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Merge' }).click();
  await expect(drawer).toContainText('Their enquiries (2)');
  await expect(drawer).toContainText(email);

  // The email record is gone from the list: one customer, with both enquiries.
  await drawer.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(email);
  await page.getByRole('searchbox', { name: 'Search customers' }).press('Enter');
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText(name);
});

for (const size of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`staff keep notes and labels on the customer, seen in every conversation with them (${size.name})`, async ({
    page,
  }) => {
    await logIn(page, 'staff1@harbourside.test');
    await page.setViewportSize(size);
    const phone = randomMobile();
    const first = await sandboxInbound(page, { from: { phone }, message: 'Booking for my son' });
    const second = await sandboxInbound(page, {
      channel: 'whatsapp',
      from: { phone },
      message: 'And me too',
    });
    const { headers } = await signedInApi(page);
    const labels = (await (await page.request.get('/api/v1/labels', { headers })).json()).body.items as {
      id: string;
      name: string;
    }[];
    let label = labels[0]?.name;
    if (!label) {
      // Staff cannot make labels: the owner makes one.
      const ownerPage = await page.context().browser()!.newPage();
      await logIn(ownerPage, LOGINS.owner.email);
      const owner = await signedInApi(ownerPage);
      label = `Family ${Date.now() % 100_000}`;
      await ownerPage.request.post('/api/v1/labels', {
        headers: owner.headers,
        data: { name: label, colour: '#7B3FE4' },
      });
      await ownerPage.close();
    }

    await page.goto(`/inbox/${first}`);
    const openPanel = async () => {
      if (size.width < 800) {
        await conversationAction(page, 'Customer details');
        return page.getByRole('dialog', { name: 'Customer' });
      }
      return page.getByRole('complementary', { name: 'Customer' });
    };
    let panel = await openPanel();
    const note = `Nervous about needles ${Date.now() % 100_000}`;
    await panel.getByRole('textbox', { name: 'Note about this customer' }).fill(note);
    await panel.getByRole('button', { name: 'Save note' }).click();
    await expect(panel.getByRole('listitem', { name: 'Note by You' })).toContainText(note);
    await expect(panel.getByRole('textbox', { name: 'Note about this customer' })).toHaveValue('');

    await panel.getByRole('combobox', { name: 'Customer labels' }).click();
    await expect(async () => {
      await page.locator('.ant-select-dropdown').getByTitle(label!).click({ timeout: 2000 });
      await expect(panel.getByRole('region', { name: 'Labels' })).toContainText(label!, { timeout: 2000 });
    }).toPass();
    await expect(page.locator('html')).toHaveJSProperty('scrollWidth', size.width);

    // The same person's other conversation shows them too, after a reload (stored, not just on screen).
    await page.goto(`/inbox/${second}`);
    panel = await openPanel();
    await expect(panel.getByRole('listitem', { name: 'Note by You' })).toContainText(note);
    await expect(panel.getByRole('region', { name: 'Labels' })).toContainText(label!);

    // When the server fails, the note is not lost: the reason is said and what was written stays in the box.
    await page.route('**/api/v1/customers/*/notes', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'request-id': 'req-notes-down' },
        body: JSON.stringify({ error: 'service_unavailable', message: 'The server is restarting.' }),
      }),
    );
    const box = panel.getByRole('textbox', { name: 'Note about this customer' });
    await box.fill('Prefers mornings');
    await panel.getByRole('button', { name: 'Save note' }).click();
    await expect(panel.getByRole('alert')).toContainText(/restarting|unavailable|try again/i);
    await expect(box).toHaveValue('Prefers mornings');
    await page.unroute('**/api/v1/customers/*/notes');
    await box.fill('');

    // The writer deletes their note.
    await panel
      .getByRole('listitem', { name: 'Note by You' })
      .getByRole('button', { name: 'Delete note' })
      .click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(panel.getByRole('listitem', { name: 'Note by You' })).toHaveCount(0);
    await expect(page.getByText('Note deleted')).toBeVisible();
  });
}
