import { logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('a script injected into the page does not run, and the browser reports it', async ({ page }) => {
  await logIn(page, LOGINS.staff.email);
  const report = page.waitForRequest(
    (r) => r.url().endsWith('/api/v1/feedback/csp') && r.method() === 'POST',
  );

  // What stored HTML would do if it ever reached the page: an event-handler attribute and an inline script.
  const ran = await page.evaluate(async () => {
    const w = window as unknown as Record<string, unknown>;
    document.body.insertAdjacentHTML(
      'beforeend',
      '<img alt="" src="/nope.png" onerror="window.injectedHandler = 1">',
    );
    const script = document.createElement('script');
    script.textContent = 'window.injectedScript = 1';
    document.body.append(script);
    await new Promise((r) => setTimeout(r, 500));
    return { handler: w.injectedHandler ?? null, script: w.injectedScript ?? null };
  });
  expect(ran).toEqual({ handler: null, script: null });

  const sent = await report;
  expect(sent.postDataJSON()).toBeTruthy();
  // The app itself keeps working under the policy.
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
});

test('the browser-recognition cookie set at sign-in is out of reach of scripts', async ({
  page,
  context,
}) => {
  await logIn(page, LOGINS.staff.email);
  const cookies = await context.cookies();
  const device = cookies.find((c) => c.name === 'sb_device');
  expect(device?.httpOnly).toBe(true);
  const fromScript = await page.evaluate(() => document.cookie);
  expect(fromScript).not.toContain('sb_device');
});

test('the emailed sign-in link brings the person back to the login page with a plain explanation', async ({
  page,
}) => {
  await page.goto('/api/v1/auth/unlock?token=not-a-real-token');
  await expect(page).toHaveURL(/\/\?unlock=expired$/);
  await expect(page.getByRole('status')).toHaveText(/That sign-in link has expired or is not valid/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('the owner lists the other websites forms may send visitors back to; a page address is explained', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  await page.goto('/settings/business');
  const sites = page.getByRole('combobox', { name: 'Other websites' });
  await sites.fill('https://shop.harbourside.example/cart');
  await sites.press('Enter');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByText('https://shop.harbourside.example/cart is not a website address such as'),
  ).toBeVisible();
  await page.locator('.ant-select-selection-item-remove').first().click();
  await sites.fill('https://shop.harbourside.example');
  await sites.press('Enter');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Business profile saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTitle('https://shop.harbourside.example')).toBeVisible();
});
