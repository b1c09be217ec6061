import { accessToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('the owner sees every location’s enquiries at once, each row naming its location, and goes back to one', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const me = (await (await page.request.get('/api/v1/user/me', { headers })).json()).body;
  const business = me.businesses.find((b: { selected: boolean }) => b.selected);
  const [docklands, other] = business.locations as { id: string; name: string | null }[];
  const stamp = Date.now() % 100000;
  const names = { docklands: `At Docklands ${stamp}`, other: `At Other ${stamp}` };
  for (const [location, name] of [
    [docklands!.id, names.docklands],
    [other!.id, names.other],
  ] as const) {
    const res = await page.request.post('/api/v1/sandbox/inbound', {
      headers,
      data: {
        channel: 'sms',
        location_id: location,
        from: { phone: `+6146${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name },
        message: 'Hello',
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }

  await page.goto('/inbox');
  const list = page.getByRole('list', { name: 'Enquiries' });
  await expect(list.getByRole('link', { name: new RegExp(names.docklands) })).toBeVisible();
  await expect(list.getByRole('link', { name: new RegExp(names.other) })).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Location' }).click();
  await page.locator('.ant-select-dropdown').getByTitle('All locations').click();
  await expect(page).toHaveURL(/location=all/);
  await expect(list.getByRole('link', { name: new RegExp(names.docklands) })).toContainText(
    'Harbourside Dental Docklands',
  );
  await expect(list.getByRole('link', { name: new RegExp(names.other) })).toContainText('Unknown Location');

  // Back to one location.
  await page.getByRole('combobox', { name: 'Location' }).click();
  await page.locator('.ant-select-dropdown').getByTitle('Harbourside Dental Docklands').click();
  await expect(page).not.toHaveURL(/location=all/);
  await expect(list.getByRole('link', { name: new RegExp(names.other) })).toHaveCount(0);
  await expect(list.getByRole('link', { name: new RegExp(names.docklands) })).toBeVisible();
});
