import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('"/" and a few letters insert a template; the SMS counter tells GSM-7 from Unicode and counts segments', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId } = await signedInApi(page);
  const res = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: locationId,
      from: {
        phone: `+6140${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
        name: 'Tess Template',
      },
      message: 'Is my booking confirmed?',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await page.goto(`/inbox/${(await res.json()).body.enquiry_id}`);

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.pressSequentially('Thanks! /book', { delay: 20 });
  const suggestions = page.getByRole('listbox', { name: 'Templates' });
  await expect(suggestions.getByRole('option', { name: /Booking confirmed/ })).toBeVisible();
  await box.press('Enter');
  await expect(suggestions).toHaveCount(0);
  await expect(box).toHaveValue(/^Thanks! Hi Tess, /);
  await expect(box).not.toHaveValue(/\/book/);

  // GSM-7 text: one segment up to 160 characters, then 153 each.
  await box.fill('a'.repeat(160));
  await expect(page.locator('.ib-sms-count')).toHaveText('160 chars · 1 SMS');
  await box.fill('a'.repeat(161));
  await expect(page.locator('.ib-sms-count')).toHaveText('161 chars · 2 SMS');
  // An emoji makes it Unicode: 70 per text.
  await box.fill(`${'a'.repeat(69)}😊`);
  await expect(page.locator('.ib-sms-count')).toContainText('2 SMS · Unicode');
});

test('a template naming a placeholder Switchboard does not fill is refused when saved, saying which', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  await page.goto('/settings/templates');
  await page.getByRole('button', { name: 'Add template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add template' });
  await dialog.getByLabel('Name', { exact: true }).fill(`Typo ${Date.now() % 100000}`);
  await dialog.getByLabel('Message', { exact: true }).fill('Hi {firstname}, see you soon');
  await dialog.getByRole('button', { name: 'Add template' }).click();
  await expect(
    page.getByText('{firstname} is not a placeholder Switchboard fills in.', { exact: false }),
  ).toBeVisible();
});

test('with "Enter sends" on in My profile, Enter sends and Shift+Enter makes a new line', async ({
  page,
}) => {
  await logIn(page, 'staff1@harbourside.test');
  await page.goto('/profile');
  const toggle = page.getByRole('switch', { name: 'Enter sends the reply' });
  await toggle.click();
  await expect(toggle).toBeChecked();
  try {
    const { headers, locationId } = await signedInApi(page);
    const res = await page.request.post('/api/v1/sandbox/inbound', {
      headers,
      data: {
        channel: 'sms',
        location_id: locationId,
        from: {
          phone: `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
          name: 'Enzo Enter',
        },
        message: 'Quick question',
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    await page.goto(`/inbox/${(await res.json()).body.enquiry_id}`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.pressSequentially('First line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await expect(box).toHaveValue('First line\nsecond line');
    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText('second line');
    // Replying took the unassigned enquiry.
    await expect(page.locator('.ib-view-head')).toContainText('Assigned to you');
  } finally {
    await page.goto('/profile');
    if (await toggle.isChecked()) await toggle.click();
    await expect(toggle).not.toBeChecked();
  }
});
