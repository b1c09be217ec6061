import { test } from '@playwright/test';
import { logInToLocations } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';

// Screens for a person to look at, light and dark (the default 'system' theme follows the browser's
// colour scheme). `npm run screenshots` takes them (never `npm test`); images go to .tmp/screens/.

const dir = new URL('../../.tmp/screens/', import.meta.url).pathname;

for (const scheme of ['light', 'dark'] as const) {
  test(`screens in ${scheme}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.screenshot({ path: `${dir}${scheme}-login.png` });
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Please enter Email').waitFor();
    await page.screenshot({ path: `${dir}${scheme}-login-invalid.png` });

    await logInToLocations(page, LOGINS.owner.email);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${dir}${scheme}-locations.png` });

    await page.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}${scheme}-location-form.png` });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await page.screenshot({ path: `${dir}${scheme}-user-menu.png` });
    await page.keyboard.press('Escape');

    await page.getByRole('menuitem', { name: 'Business profile' }).click();
    await page.getByRole('heading', { name: 'Business profile', level: 3 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${dir}${scheme}-business.png`, fullPage: true });

    await page.getByRole('menuitem', { name: 'Phones & emails' }).click();
    await page.getByRole('heading', { name: 'Phones & emails', level: 3 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${dir}${scheme}-contacts.png`, fullPage: true });

    await page.route(/\/api\/v1\/business\/mybusiness\/email\?/, (route) =>
      route.fulfill({
        status: 500,
        headers: { 'request-id': 'test-req-123', 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'boom', code: 'internal_error' }),
      }),
    );
    await page.reload();
    await page.getByText('Well, this is embarrassing!').waitFor();
    await page.getByText('Well, this is embarrassing!').hover();
    await page.screenshot({ path: `${dir}${scheme}-error-notice.png` });
  });
}
