import type { Page } from '@playwright/test';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const ROUTES = [
  '/inbox',
  '/customers',
  '/locations',
  '/settings/business',
  '/settings/contacts',
  '/settings/channels',
  '/settings/widget',
  '/settings/templates',
  '/settings/labels',
  '/profile',
  '/sandbox',
];

/** Nothing on the page reaches past the window's right edge, and the page does not scroll sideways. */
async function expectNoSidewaysOverflow(page: Page, where: string) {
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`page scrolls to ${document.documentElement.scrollWidth}px`);
    for (const el of document.querySelectorAll<HTMLElement>('button, a, input, textarea, [role="button"]')) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      // Only what sits in an area that cannot scroll sideways by itself.
      let clipped = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if ((o === 'auto' || o === 'scroll') && p.scrollWidth > p.clientWidth) clipped = true;
      }
      if (!clipped && (r.right > width + 1 || r.left < -1))
        out.push(
          `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" at ${Math.round(r.left)}–${Math.round(r.right)}`,
        );
    }
    return out;
  });
  expect(overflow, where).toEqual([]);
}

async function seedEnquiry(page: Page) {
  const { headers, locationId } = await signedInApi(page);
  const name = `Responsive ${Date.now() % 100000} Alexandra Catherine Montgomery-Smythe`;
  const res = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'whatsapp',
      location_id: locationId,
      from: { phone: `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name },
      message:
        'A long first message about a cracked crown that needs looking at as soon as you can, thank you',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return name;
}

for (const viewport of [
  { width: 390, height: 844, label: 'phone' },
  { width: 768, height: 1024, label: 'tablet' },
] as const) {
  test(`every page fits a ${viewport.label} (${viewport.width}×${viewport.height}); the inbox goes list → thread → back`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await logIn(page, LOGINS.owner.email);
    const customer = await seedEnquiry(page);

    // The menu is out of the way: a drawer closed by default on a phone, icons only on a tablet.
    const menu = page.getByRole('navigation', { name: 'Main' });
    if (viewport.label === 'phone') {
      await expect(menu.getByRole('menuitem', { name: 'Locations' })).not.toBeInViewport();
      await page.getByRole('button', { name: 'Open the menu' }).click();
      await menu.getByRole('menuitem', { name: 'Locations' }).click();
      await expect(page).toHaveURL(/\/locations$/);
      await expect(menu.getByRole('menuitem', { name: 'Locations' })).not.toBeInViewport();
    } else {
      const box = await menu.boundingBox();
      expect(box?.width).toBeLessThanOrEqual(80);
    }

    for (const route of ROUTES) {
      await page.goto(route);
      await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysOverflow(page, route);
    }

    // The inbox shows one pane at a time: the list, then the conversation with every button in view, then back.
    // Found by search, as staff find one conversation among many.
    await page.goto(`/inbox?q=${encodeURIComponent(customer.slice(0, 16))}`);
    const row = page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: new RegExp(customer.slice(0, 16)) });
    await row.click();
    await expect(page.getByRole('list', { name: 'Enquiries' })).not.toBeVisible();
    const main = page.getByRole('main');
    // On a phone the conversation's actions sit behind one button, which opens them all in view.
    const more = main.getByRole('button', { name: 'Conversation actions' });
    await expect(more.or(main.getByRole('button', { name: /Close$/ })).first()).toBeVisible();
    if (await more.isVisible()) {
      await expect(more).toBeInViewport({ ratio: 1 });
      await more.click();
      const menu = page.getByRole('toolbar', { name: 'Conversation actions' });
      for (const control of [
        menu.getByRole('button', { name: /Close$/ }),
        menu.getByRole('button', { name: 'Assign to a teammate' }),
      ])
        await expect(control).toBeInViewport({ ratio: 1 });
      await page.keyboard.press('Escape');
    } else {
      for (const control of [
        main.getByRole('button', { name: /Close$/ }),
        main.getByRole('button', { name: 'Assign to a teammate' }),
      ])
        await expect(control).toBeInViewport({ ratio: 1 });
    }
    for (const control of [
      main.getByRole('button', { name: 'Send', exact: true }),
      main.getByRole('button', { name: 'Templates', exact: true }),
      main.getByRole('button', { name: 'Attach', exact: true }),
      main.getByRole('link', { name: 'Back to the list' }),
    ])
      await expect(control).toBeInViewport({ ratio: 1 });
    await page.getByRole('textbox', { name: 'Message' }).fill('We can see you tomorrow at 9.');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
    await expectNoSidewaysOverflow(page, 'the open conversation');
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await expect(row).toBeVisible();
    await context.close();
  });
}
