import { customerWrites, logIn, sendInvoice } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

test('an Australian business sets its ABN; its invoice is a tax invoice with the ABN and GST, and the phone dialog labels every line', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await logIn(page, LOGINS.owner.email);

  // Settings name the number as Australia does, and check it before saving.
  await page.goto('/settings/payments');
  const abn = page.getByLabel('ABN', { exact: true });
  await abn.fill('51 824 753 557');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByText(
      'ABN: 51 824 753 557 is not a valid Australian business number (its check digits do not add up).',
    ),
  ).toBeVisible();
  await abn.fill('51824753556');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Invoice settings saved.', { exact: false })).toBeVisible();
  await expect(abn).toHaveValue('51 824 753 556');

  // An invoice charging GST, as the customer sees it.
  const enquiryId = await customerWrites(page, 'Casey Customer', 'Can I get an invoice?');
  const invoice = await sendInvoice(page, enquiryId, { description: 'Check-up', unit_price_cents: 12000 });
  const phone = await browser.newContext(PHONE);
  const customer = await phone.newPage();
  await customer.goto(invoice.pay_url);
  const invoiceDoc = customer.getByRole('article', { name: /^Tax invoice INV-\d{4}$/ });
  await expect(invoiceDoc).toBeVisible();
  await expect(invoiceDoc.getByText('Tax invoice', { exact: true })).toBeVisible();
  await expect(invoiceDoc.getByText('ABN 51 824 753 556')).toBeVisible();
  await expect(invoiceDoc.getByRole('term').filter({ hasText: /^GST$/ })).toBeVisible();
  expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await customer.screenshot({ path: test.info().outputPath('pay-page-390.png'), fullPage: true });
  await phone.close();
  await page.goto(invoice.pay_url);
  await expect(page.getByRole('article', { name: /^Tax invoice/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('pay-page-1440.png'), fullPage: true });

  // The invoice dialog on a phone: every line keeps its Qty, Price and Tax labels.
  const staffPhone = await browser.newContext(PHONE);
  const owner = await staffPhone.newPage();
  await logIn(owner, LOGINS.owner.email);
  await owner.goto(`/inbox/${enquiryId}`);
  await owner.getByRole('button', { name: 'Invoice' }).click();
  await owner.getByRole('button', { name: 'New invoice' }).click();
  const editor = owner.getByRole('dialog', { name: 'New invoice' });
  await editor.getByRole('button', { name: 'Add item' }).click();
  const lines = editor.getByRole('list', { name: 'Items' }).getByRole('listitem');
  for (const line of [lines.nth(0), lines.nth(1)]) {
    for (const label of ['Item', 'Qty', 'Price', 'Tax %']) {
      await expect(line.getByText(label, { exact: true })).toBeVisible();
    }
  }
  await expect(editor.getByLabel('Quantity of item 2')).toBeVisible();
  expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await owner.screenshot({ path: test.info().outputPath('invoice-dialog-390.png') });
  await staffPhone.close();
});
