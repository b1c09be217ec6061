import { fieldErrorOf, logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('the owner makes a label, staff put it on an enquiry and filter the inbox by it; a teammate sees it live', async ({
  page,
  browser,
}) => {
  const name = `Urgent ${Date.now() % 100000}`;
  await logIn(page, LOGINS.owner.email);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Labels' }).click();
  await expect(page).toHaveURL(/\/settings\/labels$/);
  await page.getByRole('button', { name: 'Add label' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a label' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  // The same name again is refused in the form.
  await page.getByRole('button', { name: 'Add label' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill(name.toLowerCase());
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(fieldErrorOf(dialog, 'Name')).toHaveText(
    `There is already a label called “${name.toLowerCase()}”.`,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const { headers, locationId } = await signedInApi(page);
  const customer = `Label Me ${Date.now() % 100000}`;
  const sent = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6143${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: customer },
      message: 'My tooth is broken!',
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const enquiryId = (await sent.json()).body.enquiry_id as string;

  // Sam watches the list in his own browser.
  const samContext = await browser.newContext();
  const sam = await samContext.newPage();
  await logIn(sam, 'staff1@harbourside.test');
  const samRow = sam
    .getByRole('list', { name: 'Enquiries' })
    .getByRole('link', { name: new RegExp(customer) });
  await expect(samRow).toBeVisible();

  await page.goto(`/inbox/${enquiryId}`);
  await page.getByRole('button', { name: 'Labels', exact: true }).click();
  // The box follows the save a frame after the click (React renders the mutation's state then): click it and
  // wait for the tick, rather than `check()`, which looks at the box the instant after clicking.
  const box = page.getByRole('checkbox', { name: name });
  await box.click();
  await expect(box).toBeChecked();
  await expect(page.locator('.ib-view-head')).toContainText(name);
  await expect(samRow).toContainText(name);

  // Filtered by the label, the list shows it and nothing without it.
  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByLabel('Label', { exact: true }).click();
  await page.locator('.ant-select-dropdown').getByTitle(name).click();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/label=/);
  const rows = page.getByRole('list', { name: 'Enquiries' }).getByRole('link');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(customer);
  await samContext.close();
});

test('several enquiries ticked in the list are assigned and closed at once', async ({ page }) => {
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId } = await signedInApi(page);
  const stamp = Date.now() % 100000;
  const names = [`Bulk One ${stamp}`, `Bulk Two ${stamp}`];
  for (const name of names) {
    const res = await page.request.post('/api/v1/sandbox/inbound', {
      headers,
      data: {
        channel: 'sms',
        location_id: locationId,
        from: { phone: `+6143${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name },
        message: 'Hello',
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await page.goto('/inbox');
  const list = page.getByRole('list', { name: 'Enquiries' });
  for (const name of names) await expect(list.getByRole('link', { name: new RegExp(name) })).toBeVisible();

  await page.getByRole('button', { name: /Select$/ }).click();
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('toolbar', { name: 'Selected enquiries' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: /Assign/ }).click();
  await page.getByRole('menuitem', { name: 'Assign to me' }).click();
  await expect(page.getByText('2 enquiries assigned')).toBeVisible();
  for (const name of names)
    await expect(list.getByRole('link', { name: new RegExp(name) })).toContainText('You');

  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  await bar.getByRole('button', { name: /Close$/ }).click();
  await expect(page.getByText('2 enquiries closed')).toBeVisible();
  for (const name of names) await expect(list.getByRole('link', { name: new RegExp(name) })).toHaveCount(0);
});
