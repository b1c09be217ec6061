import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/** A fresh Australian mobile, so each run starts anew. */
const mobile = () => `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** A phone with its keyboard up. */
const KEYBOARD_UP = { width: 390, height: 500 };

type Size = { width: number; height: number };

async function browse(
  browser: Browser,
  size: Size,
  touch: boolean,
  email: string = LOGINS.staff.email,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: size,
    permissions: ['microphone'],
    ...(touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  await logIn(page, email);
  return { context, page };
}

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

/** A customer texts in; answers the new enquiry's id. */
async function customerWrites(page: Page, name: string, message: string): Promise<string> {
  const { headers, locationId } = await signedInApi(page);
  const res = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: { channel: 'sms', location_id: locationId, from: { phone: mobile(), name }, message },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).body.enquiry_id as string;
}

/** A tall PNG drawn by the browser, so an image has no height until it has loaded. */
async function tallPng(page: Page, hue: number): Promise<Buffer> {
  const data = await page.evaluate((h) => {
    const canvas = document.createElement('canvas');
    canvas.width = 300;
    canvas.height = 700;
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no canvas');
    g.fillStyle = `hsl(${h} 60% 60%)`;
    g.fillRect(0, 0, 300, 700);
    return canvas.toDataURL('image/png').split(',')[1] ?? '';
  }, hue);
  return Buffer.from(data, 'base64');
}

/** Staff send a reply carrying two images, through the API. */
async function replyWithImages(page: Page, enquiryId: string, text: string, hue: number): Promise<void> {
  const { headers } = await signedInApi(page);
  const ids: string[] = [];
  for (const n of [0, 1]) {
    const up = await page.request.post('/api/v1/uploads', {
      headers,
      multipart: {
        file: {
          name: `xray-${hue}-${n}.png`,
          mimeType: 'image/png',
          buffer: await tallPng(page, hue + n * 20),
        },
      },
    });
    expect(up.ok(), await up.text()).toBe(true);
    ids.push((await up.json()).body.id as string);
  }
  const sent = await page.request.post(`/api/v1/enquiries/${enquiryId}/messages`, {
    headers,
    data: { message: text, attachments: ids },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

/** The element's box lies wholly inside the window. */
async function expectOnScreen(page: Page, el: Locator, what: string): Promise<void> {
  await expect(el, what).toBeVisible();
  const box = await el.boundingBox();
  const size = page.viewportSize();
  expect(box, what).not.toBeNull();
  if (!box || !size) return;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(size.width + 0.5);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(size.height + 0.5);
}

/** Something to tap is at least 44 × 44 px. */
async function expectTappable(el: Locator, what: string): Promise<void> {
  const box = await el.boundingBox();
  expect(box, what).not.toBeNull();
  expect(Math.round(box?.width ?? 0), `${what}: width`).toBeGreaterThanOrEqual(44);
  expect(Math.round(box?.height ?? 0), `${what}: height`).toBeGreaterThanOrEqual(44);
}

const thread = (page: Page) => page.locator('.ib-thread');
const composer = (page: Page) => page.locator('.ib-composer');

/** Send, Attach and Templates are on screen, and the thread has at least `share` of the window's height. */
async function expectReplyFits(page: Page, share: number, where: string): Promise<void> {
  for (const name of ['Send', 'Attach', 'Templates'])
    await expectOnScreen(page, page.getByRole('button', { name, exact: true }), `${where}: ${name}`);
  await expectOnScreen(page, page.getByRole('textbox', { name: 'Message' }), `${where}: the reply box`);
  const box = await thread(page).boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  expect(box?.height ?? 0, `${where}: the thread's height`).toBeGreaterThanOrEqual(height * share);
}

/** The thread shows its newest item and is scrolled to its end, once every image in it has loaded. */
async function expectNewestInView(page: Page, where: string): Promise<void> {
  const items = page.getByRole('list', { name: 'Messages' }).locator(':scope > li');
  await expect(items.last()).toBeVisible();
  await expect
    .poll(
      () =>
        thread(page).evaluate((el) =>
          [...el.querySelectorAll('img')].every((img) => img.complete && img.naturalHeight > 0),
        ),
      { message: `${where}: images loaded` },
    )
    .toBe(true);
  // Give the layout a moment to settle after the last image decoded.
  await page.waitForTimeout(300);
  const gap = await thread(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  expect(gap, `${where}: pixels left below the view`).toBeLessThanOrEqual(2);
  const threadBox = await thread(page).boundingBox();
  const last = await items.last().boundingBox();
  expect(last && threadBox && last.y + last.height <= threadBox.y + threadBox.height + 1, where).toBe(true);
}

test('on a phone, keyboard up or not, and on a desktop the reply box, Send, Attach and Templates stay on screen with most of the height for the thread; the header is one line; Templates opens on the screen; tooltips do not stick; controls are 44 px to tap; Back returns to the same place in the list', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const setup = await browse(browser, DESKTOP, false);
  // More conversations than a phone shows, so the list scrolls.
  const stamp = Date.now() % 100000;
  const ids: string[] = [];
  for (let i = 0; i < 16; i++)
    ids.push(await customerWrites(setup.page, `Fit ${stamp} patient ${i}`, `Can I move my check-up? (${i})`));
  const target = ids[0] as string;

  // A desktop.
  await setup.page.goto(`/inbox/${target}`);
  await expectReplyFits(setup.page, 0.4, '1440×900');
  await shot(setup.page, 'conversation-1440x900');
  await setup.context.close();

  // A phone: the header is one line, everything in the conversation is 44 px to tap.
  const phone = await browse(browser, PHONE, true);
  const { page } = phone;
  try {
    await page.goto(`/inbox/${target}`);
    await expectReplyFits(page, 0.5, '390×844');
    const head = page.locator('.ib-view-head');
    expect((await head.boundingBox())?.height ?? 999, 'the header stays one line').toBeLessThanOrEqual(64);
    const back = page.getByRole('link', { name: 'Back to the list' });
    const actions = page.getByRole('button', { name: 'Conversation actions' });
    for (const [el, what] of [
      [back, 'Back'],
      [actions, 'Conversation actions'],
      [page.getByRole('button', { name: 'Attach', exact: true }), 'Attach'],
      [page.getByRole('button', { name: 'Templates', exact: true }), 'Templates'],
      [page.getByRole('button', { name: 'Suggest reply' }), 'Suggest'],
      [page.getByRole('button', { name: 'Rewrite' }), 'Rewrite'],
      [page.getByRole('button', { name: 'Send', exact: true }), 'Send'],
    ] as const)
      await expectTappable(el, what);
    await shot(page, 'conversation-390x844');

    // Templates opens on the screen.
    await page.getByRole('button', { name: 'Templates', exact: true }).tap();
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
    // Measured with the templates in it (the demo business has some), once it has finished opening.
    await expect(menu.locator('.ib-template-item').first()).toBeVisible();
    await page.waitForTimeout(400);
    await expectOnScreen(page, menu, 'the Templates menu');
    await shot(page, 'templates-390x844');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    // The actions menu holds the customer's details; tapping them leaves no tooltip over the drawer.
    await actions.tap();
    const details = page.getByRole('button', { name: 'Customer details' });
    await expect(details).toBeVisible();
    // Measured once the menu has finished opening (it grows into place).
    await page.waitForTimeout(500);
    await expectTappable(details, 'Customer details');
    await details.tap();
    const drawer = page.getByRole('dialog', { name: 'Customer' });
    await expect(drawer).toBeVisible();
    await page.waitForTimeout(600);
    await expect(page.locator('.ant-tooltip:visible')).toHaveCount(0);
    await expect(page.locator('.ib-view-actions-menu')).toBeHidden();
    await shot(page, 'customer-drawer-390x844');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // The keyboard up: the reply box and its buttons stay, the thread keeps at least 40 %.
    await page.getByRole('textbox', { name: 'Message' }).tap();
    await page.setViewportSize(KEYBOARD_UP);
    await page.getByRole('textbox', { name: 'Message' }).fill('We can see you on Tuesday at 3.');
    await expectReplyFits(page, 0.4, '390×500');
    await shot(page, 'conversation-390x500');
    // A long reply grows the box, not past a third of the screen: the thread keeps its share.
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill(Array(20).fill('A line of the reply.').join('\n'));
    await expectReplyFits(page, 0.4, '390×500, a long reply');
    await page.getByRole('textbox', { name: 'Message' }).fill('');
    await page.setViewportSize(PHONE);

    // The list: Select and Snoozed are 44 px; Back returns to the same place.
    await back.tap();
    const list = page.locator('.ib-scroll');
    await expect(page.getByRole('list', { name: 'Enquiries' })).toBeVisible();
    await expectTappable(page.getByRole('button', { name: 'Select' }), 'Select');
    await expectTappable(page.getByRole('button', { name: 'Snoozed' }), 'Snoozed');
    // Half way down: several rows from the top, and not at the end.
    await list.evaluate((el) => el.scrollTo({ top: Math.round((el.scrollHeight - el.clientHeight) / 2) }));
    await page.waitForTimeout(200);
    const before = await list.evaluate((el) => el.scrollTop);
    expect(before).toBeGreaterThan(200);
    // A row wholly in view, so tapping it does not scroll the list first.
    const picked = await list.evaluate((el) => {
      const { top, bottom } = el.getBoundingClientRect();
      const rows = [...el.querySelectorAll<HTMLAnchorElement>('a[href^="/inbox/"]')];
      const inView = rows.filter((a) => {
        const box = a.getBoundingClientRect();
        return box.top >= top && box.bottom <= bottom;
      });
      return inView[1]?.getAttribute('href') ?? null;
    });
    expect(picked).toBeTruthy();
    const visibleRow = page.locator(`a[href="${picked}"]`);
    await visibleRow.tap();
    await expect(page).toHaveURL(new RegExp(`${picked}$`));
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the list' }).tap();
    await expect(page.getByRole('list', { name: 'Enquiries' })).toBeVisible();
    const after = await list.evaluate((el) => el.scrollTop);
    expect(Math.abs(after - before), 'the list is where it was left').toBeLessThanOrEqual(2);
    await expect(page.locator(`a[href="${picked}"]`)).toBeInViewport();
    await shot(page, 'list-after-back-390x844');
  } finally {
    await phone.context.close();
  }
});

for (const [label, size, touch] of [
  ['1440×900', DESKTOP, false],
  ['390×844', PHONE, true],
] as const) {
  test(`${label}: during a call the bar takes its own room, the caller can be texted, and a thread with images and a call card opens at its newest item, also with the images cached`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const staff = await browse(browser, size, touch);
    // The owner plays the customer on the Sandbox page.
    const simulator = await browse(browser, DESKTOP, false, LOGINS.owner.email).catch(async (e) => {
      await staff.context.close();
      throw e;
    });
    const { page } = staff;
    try {
      const name = `Caller ${Date.now() % 100000}`;
      const enquiryId = await customerWrites(page, name, 'Please call me about my crown');
      await replyWithImages(page, enquiryId, 'Here are your x-rays', 200);
      await simulator.page.goto('/sandbox');
      const line = simulator.page.getByRole('region', { name: 'Phone line' });
      await expect(line.getByRole('button', { name: /Call Harbourside/ })).toBeVisible();

      await page.goto(`/inbox/${enquiryId}`);
      const call = page.getByRole('button', { name: `Call ${name}` });
      if (touch) await page.getByRole('button', { name: 'Conversation actions' }).tap();
      await call.click();
      const bar = page.getByRole('region', { name: 'Call in progress' });
      await expect(bar).toBeVisible();
      await expect(line).toContainText('is calling you');
      await line.getByRole('button', { name: 'Answer' }).click();
      await expect(line).toContainText('On the call');
      await page.keyboard.press('Escape');

      // The bar and the reply box do not overlap; Send, Attach and Templates stay usable.
      await expectReplyFits(page, 0.3, `${label}, on a call`);
      const barBox = await bar.boundingBox();
      const composerBox = await composer(page).boundingBox();
      expect(barBox && composerBox, 'both on screen').toBeTruthy();
      if (barBox && composerBox)
        expect(
          composerBox.y + composerBox.height,
          'the reply box ends above the call bar',
        ).toBeLessThanOrEqual(barBox.y + 1);
      await shot(page, `call-${size.width}x${size.height}`);

      // The caller can be texted during the call.
      await page.getByRole('textbox', { name: 'Message' }).fill('Texting you the address now');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(
        page.getByRole('list', { name: 'Messages' }).getByText('Texting you the address now'),
      ).toBeVisible();

      if (touch) {
        // The keyboard up during the call.
        await page.setViewportSize(KEYBOARD_UP);
        await expectReplyFits(page, 0.3, '390×500, on a call');
        const small = await bar.boundingBox();
        const box = await composer(page).boundingBox();
        if (small && box) expect(box.y + box.height).toBeLessThanOrEqual(small.y + 1);
        await shot(page, 'call-390x500');
        await page.setViewportSize(size);
      }

      await bar.getByRole('button', { name: 'Hang up' }).click();
      await expect(bar).toBeHidden();
      await expect(page.getByRole('region', { name: /^Call to / })).toBeVisible();
      // More images after the call, so the newest item sits below images and the call card.
      await replyWithImages(page, enquiryId, 'And the treatment plan', 260);
      await replyWithImages(page, enquiryId, 'Last one: the before and after', 300);

      // Opened afresh, and again with its images cached: at its newest item both times.
      for (const time of ['first', 'second', 'third']) {
        await page.goto('/inbox');
        await expect(page.getByRole('list', { name: 'Enquiries' })).toBeVisible();
        await page.locator(`a[href^="/inbox/${enquiryId}"]`).click();
        await expectNewestInView(page, `${label}, opened a ${time} time`);
      }
      await shot(page, `images-thread-${size.width}x${size.height}`);
    } finally {
      await staff.context.close();
      await simulator.context.close();
    }
  });
}
