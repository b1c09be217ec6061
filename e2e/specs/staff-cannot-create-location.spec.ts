import { logInToLocations } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const OWNER_ONLY = 'Only the business owner can manage locations.';

test('staff see the locations but cannot add, edit or delete one', async ({ page }) => {
  await logInToLocations(page, LOGINS.staff.email);

  await expect(page.getByRole('row', { name: /Harbourside Dental Docklands/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add location' })).toBeDisabled();
  await expect(page.getByText('Only the business owner can add, edit or remove locations.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
});

test("the server's refusal is shown when staff try anyway", async ({ page }) => {
  // Stale permissions: this browser still believes the user owns the business (say the owner changed
  // their role a moment ago), so the form is offered and the server has the last word.
  await page.route(/\/api\/v1\/user\/me$/, async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    for (const business of json.body.businesses) business.owner_user_id = json.body.id;
    await route.fulfill({ response, json });
  });
  await logInToLocations(page, LOGINS.staff.email);

  await page.getByRole('button', { name: 'Add location' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add location' });
  await dialog.getByLabel('Name', { exact: true }).fill('Harbourside Dental Richmond');
  const refused = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/business/locations') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Add location' }).click();
  expect((await refused).status()).toBe(403);

  await page.getByText(OWNER_ONLY).waitFor();
  await expect(page.getByRole('row', { name: /Harbourside Dental Richmond/ })).toHaveCount(0);
});
