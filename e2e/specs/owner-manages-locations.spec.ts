import { chooseFromAccountMenu, logInToLocations } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('an owner switches location, renames a location and logs out', async ({ page, context }) => {
  await logInToLocations(page, LOGINS.owner.email);

  const docklands = page.getByRole('row', { name: /Harbourside Dental Docklands/ });
  const unnamed = page.getByRole('row', { name: /Unknown Location/ });
  await expect(docklands).toContainText('Current');
  await expect(unnamed).toContainText('Unknown Address');

  // Switch to the second location with the switcher in the top bar.
  await page.getByRole('combobox', { name: 'Location' }).click();
  await page.locator('.ant-select-dropdown').getByTitle('Unknown Location').click();
  // Notices are brief (4.5 s), so they are awaited in the page rather than polled from here.
  await page.getByText('Switched to Unknown Location').waitFor();
  await expect(unnamed).toContainText('Current');
  await expect(docklands).not.toContainText('Current');

  // Give the unnamed location a name.
  await unnamed.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit location' });
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('');
  await dialog.getByLabel('Name', { exact: true }).fill('Harbourside Dental Southbank');
  await dialog.getByLabel('Address', { exact: true }).fill('3 Riverside Quay, Southbank VIC 3006');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Location saved').waitFor();
  await expect(dialog).toBeHidden();

  const southbank = page.getByRole('row', { name: /Harbourside Dental Southbank/ });
  await expect(southbank).toContainText('3 Riverside Quay, Southbank VIC 3006');
  await expect(southbank).toContainText('Current');
  // The switcher reads the user's locations, so it shows the new name too.
  await expect(page.getByRole('banner')).toContainText('Harbourside Dental Southbank');

  await chooseFromAccountMenu(page, 'Log out');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'access')).toBeUndefined();

  // The session was revoked on the server, not just forgotten here: the app stays on the login page.
  await page.goto('/locations');
  await expect(page).toHaveURL(/\/$/);
});
