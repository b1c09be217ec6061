import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('keyboard shortcuts: "?" lists them, j/k move through the list, r replies, a assigns to me, e closes, / searches', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId } = await signedInApi(page);
  const stamp = Date.now() % 100000;
  for (const name of [`Key Older ${stamp}`, `Key Newer ${stamp}`]) {
    const res = await page.request.post('/api/v1/sandbox/inbound', {
      headers,
      data: {
        channel: 'sms',
        location_id: locationId,
        from: { phone: `+6142${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name },
        message: 'Hi there',
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await page.goto('/inbox');
  await expect(page.getByRole('list', { name: 'Enquiries' }).getByRole('link').first()).toContainText(
    `Key Newer ${stamp}`,
  );

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Next conversation');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // j opens the first, then the next; k goes back.
  await page.keyboard.press('j');
  await expect(page.locator('.ib-view-head h2')).toHaveText(`Key Newer ${stamp}`);
  await page.keyboard.press('j');
  await expect(page.locator('.ib-view-head h2')).toHaveText(`Key Older ${stamp}`);
  await page.keyboard.press('k');
  await expect(page.locator('.ib-view-head h2')).toHaveText(`Key Newer ${stamp}`);

  // a assigns it to me; r puts the cursor in the reply (so the next letters are text, not shortcuts).
  await page.keyboard.press('a');
  await expect(page.locator('.ib-view-head')).toContainText('Assigned to you');
  await page.keyboard.press('r');
  await page.keyboard.type('ok');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('ok');
  await page.getByRole('textbox', { name: 'Message' }).fill('');
  await page.locator('.ib-view-head h2').click();
  await page.keyboard.press('e');
  await expect(page.getByRole('button', { name: /Reopen$/ })).toBeVisible();

  await page.keyboard.press('/');
  await expect(page.getByRole('textbox', { name: 'Search enquiries' })).toBeFocused();
});
