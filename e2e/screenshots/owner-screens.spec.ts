import { expect, type Page, test } from '@playwright/test';
import { logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';

// An owner's first week, at a desktop's and a phone's size: the staff menu, the Sounds panel, a holiday row
// at fault, the administrator's sign-up lines, the subscription page and Getting started. `npm run
// screenshots` takes them into .tmp/screens/ for a person to look at.

const dir = new URL('../../.tmp/screens/', import.meta.url).pathname;

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
] as const;

async function noSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const size of SIZES) {
  test.describe(`at ${size.viewport.width}×${size.viewport.height}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: `${dir}owner-${name}-${size.name}.png`, fullPage: true });

    test('staff: their menu and the Sounds panel', async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page, LOGINS.staff.email);
      if (size.touch) await page.getByRole('button', { name: 'Open the menu' }).click();
      await page.getByRole('menuitem', { name: 'Locations' }).first().waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${dir}owner-staff-menu-${size.name}.png` });
      if (size.touch) await page.keyboard.press('Escape');
      await page.goto('/settings/notifications');
      await page.getByText('Sounds', { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, 'sounds');
      await noSidewaysScroll(page, size.viewport.width);
    });

    test('owner: Getting started, the subscription page and a holiday row at fault', async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page, LOGINS.owner.email);
      await page.goto('/settings/setup');
      await page.getByRole('heading', { name: 'Getting started' }).first().waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, 'setup');
      await noSidewaysScroll(page, size.viewport.width);

      await page.goto('/settings/subscription');
      await page.getByText('Refer a business').first().waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, 'subscription');
      await noSidewaysScroll(page, size.viewport.width);

      await page.goto('/locations');
      const row = page.getByRole('row', { name: /Harbourside Dental Docklands/ }).first();
      const card = size.touch ? page.getByText('Harbourside Dental Docklands').first() : row;
      await card.waitFor();
      await page.getByRole('button', { name: 'Edit' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Add holiday' }).click();
      await dialog.getByRole('button', { name: 'Add holiday' }).click();
      await dialog.getByLabel('Holiday 1 date').fill(`${new Date().getFullYear() + 1}-02-03`);
      await dialog.getByLabel('Holiday 1 date').press('Enter');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('Pick a date for each holiday, or remove it.').waitFor();
      await dialog.getByLabel('Holiday 2 date').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}owner-holidays-${size.name}.png` });
      await page.keyboard.press('Escape');
    });

    test('administrator: a business’s sign-up lines and its history in the drawer', async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page, LOGINS.admin.email);
      await page.goto('/admin');
      await page.getByLabel('Search businesses').fill('Harbourside');
      await page.getByLabel('Search businesses').press('Enter');
      await page.getByRole('button', { name: 'Harbourside Dental' }).first().click();
      await page.getByRole('dialog').waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${dir}owner-admin-drawer-${size.name}.png` });
      await noSidewaysScroll(page, size.viewport.width);
    });
  });
}
