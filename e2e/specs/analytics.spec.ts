import { readFileSync } from 'node:fs';
import { customerWrites, logIn, sendInvoice } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('the owner sees where this week’s enquiries came from, as a chart and a table, and downloads one as CSV', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  // Three customers write in today.
  for (const name of ['Ana Analytics', 'Ben Bucket', 'Cy Chart']) {
    await customerWrites(page, `${name} ${Date.now()}`, 'Do you have an appointment this week?');
  }

  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(/\/analytics$/);
  await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
  // The default period: the last 7 days in Melbourne.
  const zone = page.locator('.ant-select').filter({ has: page.getByLabel('Time zone') });
  await expect(zone).toContainText('Australia/Melbourne');

  const channels = page
    .locator('.ant-card')
    .filter({ has: page.getByText('Enquiries by channel', { exact: true }) });
  // A chart is drawn…
  await expect(channels.locator('.recharts-bar-rectangle').first()).toBeVisible();
  // …and the same numbers read as a table.
  await channels.getByText('Table', { exact: true }).click();
  const sms = channels.getByRole('row').filter({ hasText: 'SMS' });
  await expect(sms).toBeVisible();
  const smsCount = Number(await sms.locator('td').nth(1).textContent());
  expect(smsCount).toBeGreaterThanOrEqual(3);

  const download = page.waitForEvent('download');
  await channels.getByRole('button', { name: 'Download Enquiries by channel as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^channels-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe('Name,This period,Period before');
  expect(csv).toContain(`SMS,${smsCount},`);

  // Another time zone re-reads the figures for the same days there.
  await page.getByLabel('Time zone').click();
  await page.locator('.ant-select-dropdown').getByTitle('Australia/Perth').click();
  await expect(zone).toContainText('Australia/Perth');
  await expect(channels.getByRole('row').filter({ hasText: 'SMS' })).toBeVisible();
});

test('the owner sees invoices sent today, and review requests as a table and a CSV', async ({ page }) => {
  await logIn(page, LOGINS.owner.email);
  const enquiryId = await customerWrites(page, `Ivy Invoice ${Date.now()}`, 'Please send the bill');
  await sendInvoice(page, enquiryId, { description: 'Check-up', unit_price_cents: 12000 });

  await page.goto('/analytics');
  await expect(page.getByText('Invoices paid')).toBeVisible();
  const invoices = page.locator('.ant-card').filter({ has: page.getByText('Invoices', { exact: true }) });
  await expect(invoices.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await invoices.getByText('Table', { exact: true }).click();
  // Today is the last row; this invoice is among those sent today.
  const today = invoices.getByRole('row').last();
  expect(Number(await today.locator('td').nth(1).textContent())).toBeGreaterThanOrEqual(1);
  const amounts = page
    .locator('.ant-card')
    .filter({ has: page.getByText('Invoice amounts', { exact: true }) });
  await amounts.getByText('Table', { exact: true }).click();
  await expect(amounts.getByRole('row').filter({ hasText: 'AUD' })).toBeVisible();

  const reviews = page
    .locator('.ant-card')
    .filter({ has: page.getByText('Review requests', { exact: true }) });
  const download = page.waitForEvent('download');
  await reviews.getByRole('button', { name: 'Download Review requests as CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8').split('\n');
  expect(csv[0]).toBe('Day,Sent,Opened');
  expect(csv.filter((line) => /^\d{4}-\d{2}-\d{2},\d+,\d+$/.test(line))).toHaveLength(7);
  await expect(page.locator('html')).toHaveJSProperty('scrollWidth', 1366);
});
