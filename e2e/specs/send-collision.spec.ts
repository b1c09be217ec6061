import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { apiToken, logIn, selectedLocationId } from '../fixtures/app.ts';
import { expect, test } from '../fixtures/test.ts';

const SAM = { email: 'staff1@harbourside.test', name: 'Sam Nguyen' };
const PRIYA = { email: 'staff2@harbourside.test', name: 'Priya Shah' };
const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

/** Screenshots to look at, under the checkout's .tmp. */
const shot = (name: string) => fileURLToPath(new URL(`../../.tmp/shots/${name}.png`, import.meta.url));

const mobile = () => `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

async function customerTexts(request: APIRequestContext, customer: string): Promise<void> {
  const token = await apiToken(request, SAM.email);
  const response = await request.post('/api/v1/sandbox/inbound', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      channel: 'sms',
      location_id: await selectedLocationId(request, token),
      from: { phone: mobile(), name: customer },
      message: 'How much is a check-up and clean?',
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

async function staffPage(browser: Browser, size: (typeof SIZES)[number], email: string) {
  const context = await browser.newContext({
    viewport: size.viewport,
    ...(size.phone ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  await logIn(page, email);
  await expect(page).toHaveURL(/\/inbox$/);
  return page;
}

async function openEnquiry(page: Page, customer: string) {
  await page
    .getByRole('list', { name: 'Enquiries' })
    .getByRole('link', { name: new RegExp(customer) })
    .click();
  await expect(page.getByRole('heading', { name: customer, level: 2 })).toBeVisible();
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const size of SIZES) {
  test(`${size.name}: a reply someone else answered meanwhile comes back with theirs, to send anyway`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const customer = `Noah Twice ${size.name} ${Date.now().toString(36)}`;
    await customerTexts(request, customer);
    const sam = await staffPage(browser, size, SAM.email);
    const priya = await staffPage(browser, size, PRIYA.email);
    await openEnquiry(sam, customer);
    // Priya's thread is slow to arrive, and she starts writing before it has: what she saw is what it then shows.
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    await priya.route(/\/messages\?page=1/, async (route) => {
      await arrived;
      await route.continue();
    });
    await openEnquiry(priya, customer);

    // Priya starts writing; Sam answers first.
    const priyaBox = priya.getByRole('textbox', { name: 'Message' });
    await priyaBox.fill('It is $210 for both.');
    arrive();
    await expect(
      priya.getByRole('list', { name: 'Messages' }).getByText('How much is a check-up and clean?'),
    ).toBeVisible();
    await priya.unrouteAll();
    const samBox = sam.getByRole('textbox', { name: 'Message' });
    await samBox.fill('A check-up and clean is $180.');
    await sam.getByRole('button', { name: 'Send' }).click();
    await expect(samBox).toHaveValue('');
    await expect(
      priya.getByRole('list', { name: 'Messages' }).getByText('A check-up and clean is $180.'),
    ).toBeVisible();

    await priya.getByRole('button', { name: 'Send' }).click();
    const prompt = priya.getByRole('alert', { name: 'Someone else replied' });
    await expect(prompt).toContainText(`${SAM.name} replied to this customer while you were writing`);
    await expect(prompt).toContainText('A check-up and clean is $180.');
    await expect(priyaBox).toHaveValue('It is $210 for both.');
    // The list beside the thread does not show her reply as said: Sam's is the latest.
    if (!size.phone) {
      const row = priya
        .getByRole('list', { name: 'Enquiries' })
        .getByRole('link', { name: new RegExp(customer) });
      await expect(row).toContainText('A check-up and clean is $180.');
      await expect(row).not.toContainText('It is $210 for both.');
    }
    expect(await noSidewaysScroll(priya)).toBe(true);
    await priya.screenshot({ path: shot(`collision-${size.name}`) });
    // Nothing of hers went.
    await expect(sam.getByRole('list', { name: 'Messages' }).getByText('It is $210 for both.')).toHaveCount(
      0,
    );

    await prompt.getByRole('button', { name: 'Send anyway' }).click();
    await expect(prompt).toBeHidden();
    await expect(priyaBox).toHaveValue('');
    await expect(sam.getByRole('list', { name: 'Messages' }).getByText('It is $210 for both.')).toBeVisible();

    // Having seen everything, her next reply simply goes.
    await priyaBox.fill('Any day this week suits.');
    await priya.getByRole('button', { name: 'Send' }).click();
    await expect(
      sam.getByRole('list', { name: 'Messages' }).getByText('Any day this week suits.'),
    ).toBeVisible();
    await expect(priya.getByRole('alert', { name: 'Someone else replied' })).toHaveCount(0);
  });

  test(`${size.name}: attachments are checked before uploading; several at once, the acceptable ones go`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const customer = `Olive Files ${size.name} ${Date.now().toString(36)}`;
    await customerTexts(request, customer);
    const page = await staffPage(browser, size, SAM.email);
    await openEnquiry(page, customer);
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/uploads') uploads.push(r.url());
    });
    const big = 'a-very-long-file-name-for-the-practice-x-ray-of-the-upper-left-molar-2026.pdf';
    await page.getByLabel('Attach files').setInputFiles([
      { name: big, mimeType: 'application/pdf', buffer: Buffer.alloc(30 * 1024 * 1024, 1) },
      {
        name: 'archive.zip',
        mimeType: 'application/zip',
        buffer: Buffer.from('PK\u0003\u0004\u0000\u0000binary'),
      },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Bring the referral letter.') },
    ]);
    const chips = page.getByRole('list', { name: 'Attachments' });
    await expect(chips.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText('B');
    const bigChip = chips.getByRole('listitem').filter({ hasText: big });
    await expect(bigChip).toContainText(
      'The file is too large. Attach files of at most 25 MB. This one is 30 MB.',
    );
    await expect(bigChip.getByRole('button', { name: `Retry ${big}` })).toHaveCount(0);
    const zipChip = chips.getByRole('listitem').filter({ hasText: 'archive.zip' });
    await expect(zipChip).toContainText('This kind of file cannot be attached');
    await expect(zipChip.getByRole('button', { name: 'Retry archive.zip' })).toHaveCount(0);
    // The whole name shows, not squeezed to an ellipsis.
    const nameBox = bigChip.locator('.ib-chip-name');
    expect(await nameBox.evaluate((n) => n.scrollWidth <= n.clientWidth + 1)).toBe(true);
    expect(uploads).toHaveLength(1);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: shot(`attachments-${size.name}`) });

    // The refused files do not hold the reply back: it goes with the one accepted.
    await page.getByRole('textbox', { name: 'Message' }).fill('Here are the notes.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('list', { name: 'Messages' }).getByText('notes.txt')).toBeVisible();
  });
}
