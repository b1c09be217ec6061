import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import nodemailer from 'nodemailer';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { INBOUND_SMTP_PORT } from '../fixtures/mail.ts';
import { expect, test } from '../fixtures/test.ts';

/** A price list sent as HTML only (no text part): a table wider than a phone and a link. */
function priceListHtml(stamp: string) {
  const rows = ['Check-up and clean', 'Whitening (in chair)', 'Crown, porcelain fused to metal']
    .map(
      (item, i) =>
        `<tr><td>${item}</td><td>$${(i + 1) * 145}.00</td><td>${'available-next-week-'.repeat(3)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html><body>
<p>Hello, here are the prices we were quoted ${stamp}.</p>
<table border="1"><tr><th>Treatment</th><th>Price</th><th>Availability notes</th></tr>${rows}</table>
<p>Details at <a href="https://example.com/prices">our price page</a>.</p>
</body></html>`;
}

/** The signed-in location's inbound address, as Settings shows it. */
async function inboundAddress(page: Page): Promise<string> {
  const { headers, locationId } = await signedInApi(page);
  const res = await page.request.get(`/api/v1/email/inbound-address?location_id=${locationId}`, { headers });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).body.address as string;
}

async function deliver(to: string, from: string, subject: string, html: string) {
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port: INBOUND_SMTP_PORT,
    secure: false,
    ignoreTLS: true,
  });
  try {
    await client.sendMail({ from, to, subject, html });
  } finally {
    client.close();
  }
}

/** No sideways scroll on the page itself: wide email scrolls in its own box. */
async function expectNoPageScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth };
  });
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

for (const size of [
  { width: 1440, height: 900, label: 'desktop' },
  { width: 390, height: 844, label: 'phone' },
] as const) {
  test(`an HTML-only email reads in the thread, and shows its table as sent (${size.width}×${size.height})`, async ({
    browser,
  }) => {
    const context = await browser.newContext(
      size.label === 'phone' ? { viewport: size, hasTouch: true, isMobile: true } : { viewport: size },
    );
    const page = await context.newPage();
    await logIn(page, LOGINS.owner.email);
    const stamp = String(Date.now() % 1_000_000);
    const customer = `Priya Html${stamp}`;
    const to = await inboundAddress(page);
    await deliver(to, `"${customer}" <priya.${stamp}@example.com>`, `Prices ${stamp}`, priceListHtml(stamp));

    // The list row's preview carries the email's words, taken from its HTML.
    await page.goto(`/inbox?q=${encodeURIComponent(`Html${stamp}`)}`);
    const row = page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: new RegExp(`Html${stamp}`) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(`here are the prices we were quoted ${stamp}`);
    await row.click();

    // The bubble shows the words as text; the original's table is one click away.
    const message = page.locator('.ib-msg').filter({ hasText: `quoted ${stamp}` });
    await expect(message.locator('.ib-bubble')).toContainText('Check-up and clean');
    await expect(message.getByRole('table')).toHaveCount(0);
    await expectNoPageScroll(page);

    await message.getByRole('button', { name: 'Show original' }).click();
    const table = message.getByRole('table');
    await expect(table).toBeVisible();
    await expect(table.getByRole('cell', { name: '$290.00' })).toBeVisible();
    const link = message.getByRole('link', { name: 'our price page' });
    await expect(link).toHaveAttribute('href', 'https://example.com/prices');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expectNoPageScroll(page);
    await page.screenshot({
      path: resolve(import.meta.dirname, '..', '..', '.tmp', `email-html-${size.label}.png`),
    });

    await message.getByRole('button', { name: 'Show text' }).click();
    await expect(message.getByRole('table')).toHaveCount(0);
    await expect(message.locator('.ib-bubble')).toContainText('Check-up and clean');
  });
}
