import { chooseFromAccountMenu, fieldErrorOf, logIn } from '../fixtures/app.ts';
import { DEMO_PASSWORD } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('my profile: a new name and picture, and a new password that signs out every other session but this one', async ({
  page,
  browser,
}) => {
  const email = 'staff2@harbourside.test';
  // Another browser signed in as the same person.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await logIn(other, email);

  await logIn(page, email);
  // From the account menu (its opening animation can swallow a first click on a slow machine: tried again).
  await expect(async () => {
    await chooseFromAccountMenu(page, 'My profile');
    await expect(page).toHaveURL(/\/profile$/, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });

  await page.getByLabel('Name').fill('Priya S.');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Account menu for Priya S\./ })).toBeVisible();

  await page
    .getByLabel('Choose a picture')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Picture updated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change picture' })).toBeVisible();

  // A wrong current password is said in the form; the right one changes it.
  const newPassword = `new-${Date.now()}`;
  // Whatever happens below, staff2 gets the demo password back for the specs that follow.
  const restore = async () => {
    const login = await page.request.post('/api/v1/auth/login', { data: { email, password: newPassword } });
    if (!login.ok()) return;
    const token = (await login.json()).body.token;
    await page.request.put('/api/v1/user/password', {
      headers: { authorization: `Bearer ${token}` },
      data: { current_password: newPassword, new_password: DEMO_PASSWORD },
    });
  };
  try {
    await page.getByLabel('Current password').fill('not-it');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    // Said under the field it is about.
    await expect(fieldErrorOf(page, 'Current password')).toHaveText('The current password is incorrect.');
    await page.getByLabel('Current password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password changed. You were signed out everywhere else.')).toBeVisible();

    // This browser carries on; the other one is signed out at its next step.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: /Inbox/ }).click();
    await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
    await other.reload();
    await expect(other.getByRole('button', { name: 'Log in' })).toBeVisible();
    await otherContext.close();
  } finally {
    await restore();
  }
  // The name back for the specs that follow (signed in afresh: the restore ended this session too).
  await page.context().clearCookies();
  await logIn(page, email);
  await page.goto('/profile');
  await page.getByLabel('Name').fill('Priya Shah');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved')).toBeVisible();
});
