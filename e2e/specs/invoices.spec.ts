import { readFile } from 'node:fs/promises';
import { extractText, getDocumentProxy } from 'unpdf';
import { customerWrites, logIn, sendInvoice } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('the owner sends an invoice from the conversation, the customer pays it on their phone, and the inbox shows it paid', async ({
  page,
  browser,
}) => {
  await logIn(page, LOGINS.owner.email);
  const enquiryId = await customerWrites(page, 'Ивана Petrova', 'Could you send me the bill?');

  // The owner connects Stripe (sandbox: the account is ready at once, and Stripe sends them back to settings).
  await page.goto('/settings/payments');
  await expect(page.getByText(/Card payments/).first()).toBeVisible();
  const connect = page.getByRole('button', { name: 'Connect Stripe' });
  if (await connect.isVisible()) {
    await connect.click();
    await page.waitForURL(/\/settings\/payments\?stripe=return/);
  }
  await expect(page.getByText('Can take card payments: yes')).toBeVisible();

  // An invoice written and sent without leaving the conversation.
  await page.goto(`/inbox/${enquiryId}`);
  await page.getByRole('button', { name: 'Invoice' }).click();
  await page.getByRole('button', { name: 'New invoice' }).click();
  const editor = page.getByRole('dialog', { name: 'New invoice' });
  await expect(editor.getByLabel('Bill to')).toHaveValue('Ивана Petrova');
  await editor.getByLabel('Description of item 1').fill('Check-up and clean');
  await editor.getByLabel('Price of item 1').fill('120');
  await editor.getByRole('button', { name: 'Add item' }).click();
  await editor.getByLabel('Description of item 2').fill('X-ray');
  await editor.getByLabel('Quantity of item 2').fill('2');
  await editor.getByLabel('Price of item 2').fill('45');
  await expect(editor.getByLabel('Totals')).toContainText('$231.00');
  await editor.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText(/INV-\d{4} sent with its pay link/)).toBeVisible();
  const notice = (await page.getByText(/INV-\d{4} sent with its pay link/).textContent()) ?? '';
  const number = notice.match(/INV-\d{4}/)![0];
  await page.keyboard.press('Escape');
  const sent = page
    .locator('.ib-msg-text, .ib-msg')
    .filter({ hasText: `invoice ${number}` })
    .last();
  await expect(sent).toContainText('View and pay:');
  const payUrl = ((await sent.textContent()) ?? '').match(/https?:\/\/\S+?\/pay\/[\w-]{32}/)![0];

  // The customer opens the link on a phone, in another browser, and pays.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const customer = await phone.newPage();
  await customer.goto(payUrl);
  await expect(customer.getByRole('article', { name: `Invoice ${number}` })).toBeVisible();
  await expect(customer.getByText('Ивана Petrova')).toBeVisible();
  const pay = customer.getByRole('button', { name: /Pay \$231\.00/ });
  await expect(pay).toBeVisible();
  expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await pay.click();
  await customer.waitForURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await expect(customer.getByText('Sandbox payment page')).toBeVisible();
  await customer.getByRole('button', { name: /Pay \$231\.00/ }).click();
  await customer.waitForURL(/\?paid=1$/);
  await expect(customer.getByText(/Paid on .*Thank you!/)).toBeVisible();
  await phone.close();

  // The inbox hears of it without a reload.
  await expect(
    page.getByRole('listitem', { name: 'Activity' }).filter({ hasText: `Invoice ${number} paid: $231.00.` }),
  ).toBeVisible();

  // The PDF downloads, and it is that invoice.
  await page.getByRole('button', { name: 'Invoice' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: `Download ${number} as PDF` }).click();
  const file = await (await download).path();
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await readFile(file))), {
    mergePages: true,
  });
  expect(text).toContain(number);
  expect(text).toContain('Ивана Petrova');
  expect(text).toContain('PAID');
});

test('a declined card is said on the pay page, and the invoice can still be paid', async ({
  page,
  browser,
}) => {
  await logIn(page, LOGINS.owner.email);
  const enquiryId = await customerWrites(page, 'Dana Decline', 'Bill me');
  const invoice = await sendInvoice(page, enquiryId, { description: 'Whitening', unit_price_cents: 30000 });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const customer = await phone.newPage();
  await customer.goto(invoice.pay_url);
  await customer.getByRole('button', { name: /Pay \$330\.00/ }).click();
  await customer.getByRole('button', { name: 'Decline the card' }).click();
  await customer.waitForURL(invoice.pay_url);
  await expect(customer.getByText('Your last payment did not go through')).toBeVisible();
  await expect(customer.getByText('Your card was declined. Try again, or use another card.')).toBeVisible();
  await expect(customer.getByRole('button', { name: /Pay \$330\.00/ })).toBeVisible();
  await phone.close();
});
