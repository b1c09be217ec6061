import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, logIn, selectedLocationId } from '../fixtures/app.ts';
import { expect, test } from '../fixtures/test.ts';

const SAM = { email: 'staff1@harbourside.test', name: 'Sam Nguyen' };
const PRIYA = { email: 'staff2@harbourside.test', name: 'Priya Shah' };

/** A customer texts the location through the sandbox provider, exactly as a webhook would deliver it. */
async function customerTexts(
  request: APIRequestContext,
  token: string,
  input: { locationId: string; name: string; phone: string; message: string },
): Promise<void> {
  const response = await request.post('/api/v1/sandbox/inbound', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      channel: 'sms',
      location_id: input.locationId,
      from: { phone: input.phone, name: input.name },
      message: input.message,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A fresh Australian mobile number per run (041x: every number in it is valid), so each run starts a new enquiry. */
const mobile = () => `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

const enquiryLink = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Enquiries' }).getByRole('link', { name: new RegExp(name) });

async function tabCount(page: Page, tab: 'Open' | 'Closed'): Promise<number> {
  const text = await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).textContent();
  return Number((text ?? '').replace(/\D/g, ''));
}

/** Marks the document, so a later check can tell the page was never reloaded. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
}
const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload);

async function openInbox(page: Page, email: string): Promise<void> {
  await logIn(page, email);
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
  await markDocument(page);
}

test('a customer message reaches two staff live; the reply, its delivery and closing reach the other', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, SAM.email);
  const locationId = await selectedLocationId(request, token);
  const samContext = await browser.newContext();
  const priyaContext = await browser.newContext();
  const sam = await samContext.newPage();
  const priya = await priyaContext.newPage();
  await openInbox(sam, SAM.email);
  await openInbox(priya, PRIYA.email);
  const openBefore = await tabCount(priya, 'Open');
  const closedBefore = await tabCount(priya, 'Closed');

  const customer = `Ava Live ${Date.now().toString(36)}`;
  await customerTexts(request, token, {
    locationId,
    name: customer,
    phone: mobile(),
    message: 'Hi, can I move my check-up to Friday afternoon?',
  });

  // Both lists show it at once, unread, and both Open counts go up by one.
  for (const page of [sam, priya]) {
    const row = enquiryLink(page, customer);
    await expect(row).toBeVisible();
    await expect(row).toContainText('Hi, can I move my check-up to Friday afternoon?');
    await expect(row).toContainText('Unread');
    await expect(row).toContainText('SMS');
    await expect.poll(() => tabCount(page, 'Open')).toBe(openBefore + 1);
  }

  // Priya opens it first; when Sam opens it too, each is warned about the other.
  await enquiryLink(priya, customer).click();
  await expect(priya.getByRole('heading', { name: customer, level: 2 })).toBeVisible();
  // Opening it marked it read, in Sam's list as well.
  await expect(enquiryLink(sam, customer)).not.toContainText('Unread');
  await enquiryLink(sam, customer).click();
  await expect(sam.getByRole('heading', { name: customer, level: 2 })).toBeVisible();
  await expect(sam.getByText(`${PRIYA.name} is also viewing`)).toBeVisible();
  await expect(priya.getByText(`${SAM.name} is also viewing`)).toBeVisible();

  // Sam replies; Priya sees him typing, then the reply, and its tick reach delivered.
  const reply = 'Friday at 2:30 pm works. See you then!';
  const composer = sam.getByRole('textbox', { name: 'Message' });
  await composer.pressSequentially('Friday at 2:30 pm', { delay: 20 });
  await expect(priya.getByText(`${SAM.name} is typing…`)).toBeVisible();
  await composer.fill(reply);
  await composer.press('Control+Enter');
  await expect(composer).toHaveValue('');

  const samsCopy = sam
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .filter({ hasText: reply });
  await expect(samsCopy).toHaveCount(1);
  const priyasCopy = priya
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .filter({ hasText: reply });
  await expect(priyasCopy).toBeVisible();
  await expect(priyasCopy).toContainText(SAM.name);
  await expect(priyasCopy.getByRole('img', { name: 'Delivered' })).toBeVisible();
  await expect(samsCopy.getByRole('img', { name: 'Delivered' })).toBeVisible();
  await expect(enquiryLink(priya, customer)).toContainText(reply);

  // Sam leaves a private note mentioning Priya: it appears in her thread live, set apart and never sent,
  // and she is told she was mentioned.
  await sam.locator('.ib-composer-bar .ant-segmented').first().getByText('Note', { exact: true }).click();
  const note = sam.getByRole('textbox', { name: 'Private note' });
  await note.pressSequentially('@Pri', { delay: 20 });
  await sam.locator('.ant-mentions-dropdown').getByText(PRIYA.name).click();
  await note.pressSequentially('please confirm the Friday slot', { delay: 5 });
  await sam.getByRole('button', { name: 'Add note' }).click();
  const noteText = `@${PRIYA.name} please confirm the Friday slot`;
  await expect(sam.getByRole('listitem', { name: 'Private note by You' })).toContainText(noteText);
  const priyasNote = priya.getByRole('listitem', { name: `Private note by ${SAM.name}` });
  await expect(priyasNote).toContainText(noteText);
  await expect(priyasNote).toContainText('only your team sees this');
  await expect(
    priya.locator('.ant-notification-notice').filter({ hasText: `${SAM.name} mentioned you` }),
  ).toContainText('please confirm the Friday slot');
  await sam.locator('.ib-note-composer .ant-segmented').getByText('Reply', { exact: true }).click();

  // Sam labels it: Priya sees the label on the conversation and on its row, live.
  const ownerToken = await apiToken(request, 'owner@harbourside.test');
  const labelName = `Reschedule ${Date.now() % 100_000}`;
  const made = await request.post('/api/v1/labels', {
    headers: { authorization: `Bearer ${ownerToken}` },
    data: { name: labelName, colour: '#D4380D' },
  });
  expect(made.ok(), await made.text()).toBe(true);
  await expect(async () => {
    if (!(await sam.getByRole('checkbox', { name: labelName }).isVisible()))
      await sam.getByRole('button', { name: 'Labels', exact: true }).click();
    await sam.getByRole('checkbox', { name: labelName }).check({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await expect(priya.locator('.ib-view-head')).toContainText(labelName);
  await expect(enquiryLink(priya, customer)).toContainText(labelName);
  await sam.keyboard.press('Escape');

  // Sam snoozes it until tomorrow: it leaves Priya's Open list live, and comes back when he wakes it.
  await expect(async () => {
    if (!(await sam.getByRole('menuitem', { name: /^Tomorrow morning/ }).isVisible()))
      await sam.getByRole('button', { name: 'Snooze', exact: true }).click();
    await sam.getByRole('menuitem', { name: /^Tomorrow morning/ }).click();
    await expect(sam.locator('.ib-view-head')).toContainText('Snoozed until', { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(enquiryLink(priya, customer)).toHaveCount(0);
  await expect(priya.locator('.ib-view-head')).toContainText('Snoozed until');
  await expect(async () => {
    if (!(await sam.getByRole('menuitem', { name: 'Wake it now' }).isVisible()))
      await sam.getByRole('button', { name: 'Snooze', exact: true }).click();
    await sam.getByRole('menuitem', { name: 'Wake it now' }).click();
    await expect(sam.locator('.ib-view-head')).not.toContainText('Snoozed until', { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(enquiryLink(priya, customer)).toBeVisible();
  await expect(priya.locator('.ib-view-head')).not.toContainText('Snoozed until');

  // Sam closes it: Priya's counts move and the enquiry leaves her Open list, still without a reload.
  await sam.getByRole('button', { name: 'Close' }).click();
  await expect(sam.getByRole('button', { name: 'Reopen' })).toBeVisible();
  await expect.poll(() => tabCount(priya, 'Open')).toBe(openBefore);
  await expect.poll(() => tabCount(priya, 'Closed')).toBe(closedBefore + 1);
  await expect(enquiryLink(priya, customer)).toHaveCount(0);
  await expect(priya.getByRole('button', { name: 'Reopen' })).toBeVisible();

  expect(await notReloaded(sam)).toBe(true);
  expect(await notReloaded(priya)).toBe(true);
  await samContext.close();
  await priyaContext.close();
});

test('a draft is saved as it is written and is still there after a reload', async ({ page, request }) => {
  const token = await apiToken(request, SAM.email);
  const locationId = await selectedLocationId(request, token);
  const customer = `Noah Draft ${Date.now().toString(36)}`;
  await customerTexts(request, token, {
    locationId,
    name: customer,
    phone: mobile(),
    message: 'Do you do whitening?',
  });

  await logIn(page, SAM.email);
  await enquiryLink(page, customer).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('We do: a take-home kit, or in the chair in about an hour.');
  await expect(page.getByText('Draft saved')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: customer, level: 2 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(
    'We do: a take-home kit, or in the chair in about an hour.',
  );
});

test('a new message to a number starts its conversation and opens it', async ({ page }) => {
  await logIn(page, SAM.email);
  await expect(page).toHaveURL(/\/inbox$/);
  await page.getByRole('button', { name: 'New message' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New message' });
  const phone = mobile();
  const name = `Zoe Compose ${Date.now().toString(36)}`;
  await dialog.getByLabel('Phone number').fill(phone);
  await dialog.getByLabel('Name (optional)').fill(name);
  await dialog.getByLabel('Message', { exact: true }).fill('Hi Zoe, your new aligners have arrived.');
  await dialog.getByRole('button', { name: 'Send' }).click();

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/inbox\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  await expect(page.getByText('Assigned to you')).toBeVisible();
  const sent = page
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .filter({ hasText: 'aligners' });
  await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();
  await expect(enquiryLink(page, name)).toBeVisible();

  // Compose mode starts empty again (spec §4: turning it on clears the contact).
  await page.getByRole('button', { name: 'New message' }).first().click();
  await expect(page.getByRole('dialog', { name: 'New message' }).getByLabel('Phone number')).toHaveValue('');
});
