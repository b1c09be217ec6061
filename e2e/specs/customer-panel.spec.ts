import { expect, type Page, test } from '@playwright/test';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';

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
  await sandboxInbound(page, { channel: 'whatsapp', from: { phone }, message: 'Are you open late?' });
  const enquiryId = await sandboxInbound(page, { from: { phone }, message: 'Need a check-up' });
  await sandboxInbound(page, { from: { phone: taken, name: 'Someone Else' }, message: 'Hi' });
  await page.goto(`/inbox/${enquiryId}`);

  const panel = page.getByRole('complementary', { name: 'Customer' });
  await expect(panel).toContainText(phone);
  await expect(panel).toContainText('No name yet');
  await expect(panel).toContainText('Allowed');
  await expect(panel.getByRole('region', { name: 'Their enquiries' })).toContainText(
    'Their other enquiries (1)',
  );
  await expect(panel.getByRole('link', { name: /^WhatsApp/ })).toBeVisible();

  // The bare number gets a name, and the conversation's header and list row follow.
  await panel.getByRole('button', { name: 'Edit name' }).click();
  await panel.getByRole('textbox', { name: 'Name' }).fill('Dana Bare');
  await panel.getByRole('button', { name: 'Save' }).click();
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
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    'Another customer already has this phone number. Merge the two instead.',
  );
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel).toContainText(phone);

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
  await page.getByRole('button', { name: 'Customer details' }).click();
  const drawer = page.getByRole('dialog', { name: 'Customer' });
  await expect(drawer).toContainText('Dana Bare');
  await expect(drawer).toContainText(phone);
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
