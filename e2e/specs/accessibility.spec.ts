import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { customerWrites, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/** WCAG 2.1 A and AA: what the product promises (DESIGN: accessibility). */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const SIZES = [
  { label: 'desktop', viewport: { width: 1440, height: 900 }, touch: false },
  { label: 'phone', viewport: { width: 390, height: 844 }, touch: true },
] as const;
const THEMES = ['light', 'dark'] as const;
const PEOPLE = [
  { role: 'owner', email: LOGINS.owner.email },
  { role: 'staff', email: LOGINS.staff.email },
] as const;

/** The signed-in screens a receptionist and an owner use every day, after the inbox and a conversation. */
const SCREENS = [
  '/invoices',
  '/reviews',
  '/customers',
  '/analytics',
  '/locations',
  '/settings/business',
  '/settings/team',
  '/settings/notifications',
  '/settings/contacts',
  '/settings/channels',
  '/settings/widget',
  '/settings/templates',
  '/settings/labels',
  '/profile',
];

/** The page has finished loading: no skeleton or spinner left, and antd's entrance animations are over. */
async function settled(page: Page): Promise<void> {
  // What the page asked for has arrived: a control enabled by a late answer fades to its colours.
  await page.waitForLoadState('networkidle');
  await expect(
    page.locator('.ant-skeleton, .ant-spin-spinning, .ant-spin-blur, [aria-busy="true"]'),
  ).toHaveCount(0);
  await page.waitForTimeout(400);
  // Colours are read once nothing is fading in: a button half-way through its entrance is not its colour.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/** Runs axe on the page as it is and fails with each violation's rule, help text and the elements at fault. */
async function expectNoViolations(page: Page, where: string): Promise<void> {
  await settled(page);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );
  // Soft: one run lists what is wrong on every screen, not only on the first.
  expect.soft(found, `${where}: ${page.url()}`).toEqual([]);
}

async function openContext(browser: Browser, size: (typeof SIZES)[number], colorScheme: 'light' | 'dark') {
  return browser.newContext({
    viewport: size.viewport,
    hasTouch: size.touch,
    isMobile: size.touch,
    // The theme follows the system by default (spec §2): the browser says which.
    colorScheme,
  });
}

for (const size of SIZES) {
  for (const colorScheme of THEMES) {
    test(`the login page meets WCAG 2.1 AA (${size.label}, ${colorScheme})`, async ({ browser }) => {
      const context = await openContext(browser, size, colorScheme);
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByLabel('Email')).toBeVisible();
      await expectNoViolations(page, 'login');
      await context.close();
    });

    for (const person of PEOPLE) {
      test(`the ${person.role}'s main screens meet WCAG 2.1 AA (${size.label}, ${colorScheme})`, async ({
        browser,
      }) => {
        test.setTimeout(300_000);
        const context = await openContext(browser, size, colorScheme);
        const page = await context.newPage();
        await logIn(page, person.email);
        const customer = `Axe ${person.role} ${Date.now() % 100000}`;
        const enquiryId = await customerWrites(page, customer, 'Could I move my check-up to Friday morning?');

        await page.goto('/inbox');
        await expect(page.getByRole('list', { name: 'Enquiries' }).getByText(customer)).toBeVisible();
        await expectNoViolations(page, 'inbox list');

        await page.goto(`/inbox/${enquiryId}`);
        await expect(page.getByText('Could I move my check-up to Friday morning?').last()).toBeVisible();
        await expectNoViolations(page, 'conversation');
        // The customer panel: beside the thread on a desktop, opened from the header on a phone.
        const profileButton = page.getByRole('button', { name: /customer profile|customer details/i });
        if (size.label === 'phone' && (await profileButton.count())) await profileButton.first().click();
        await expectNoViolations(page, 'conversation with the customer panel');

        for (const path of SCREENS) {
          await page.goto(path);
          await expectNoViolations(page, path);
        }
        if (person.role === 'owner') {
          await page.goto('/sandbox');
          await expect(page.getByRole('heading', { name: /sandbox/i }).first()).toBeVisible();
          await expectNoViolations(page, 'sandbox');
        }
        await context.close();
      });
    }
  }
}
