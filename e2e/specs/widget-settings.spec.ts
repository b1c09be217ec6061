import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { accessToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

type Me = {
  businesses: { selected: boolean; locations: { id: string; name: string | null; selected: boolean }[] }[];
};

/**
 * The business's other location: the first not selected, so the live-chat test's location keeps its defaults.
 * It is picked by name: locations other tests add are in the list too.
 */
async function otherLocation(page: Page) {
  const token = await accessToken(page);
  const res = await page.request.get('/api/v1/user/me', { headers: { authorization: `Bearer ${token}` } });
  const me = ((await res.json()) as { body: Me }).body;
  const other = me.businesses.find((b) => b.selected)!.locations.find((l) => !l.selected)!;
  // An unnamed location is listed as the app shows it.
  return { ...other, label: other.name ?? 'Unknown Location' };
}

// The business's website, on another site (localhost rather than 127.0.0.1), serving whatever snippet the
// owner copied from the settings page.
let hostServer: Server;
let hostOrigin = '';
let pasted = '';

test.beforeAll(async () => {
  hostServer = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><head><title>Harbourside</title></head><body>
      <h1>Welcome to Harbourside Dental</h1>
      ${pasted}
    </body></html>`);
  });
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(hostServer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => hostServer.close(() => resolve())));

test('the owner styles a location’s widget, copies the snippet, and the website shows it', async ({
  browser,
  page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(page, LOGINS.owner.email);
  const other = await otherLocation(page);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('menuitem', { name: 'Website chat' })
    .click();
  await expect(page.getByRole('heading', { name: 'Website chat', level: 3 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Widget location' }).click();
  await page
    .locator('.ant-select-item-option')
    .and(page.getByTitle(other.label, { exact: true }))
    .click();
  await expect(page).toHaveURL(new RegExp(`location=${other.id}`));

  // Colour, greeting and pre-chat fields; the preview follows before anything is saved.
  const hex = page.getByLabel('Colour hex code');
  await hex.fill('#FFE600');
  await expect(page.getByText('White text is hard to read on this colour')).toBeVisible();
  await hex.fill('#0A7F5A');
  await expect(page.getByText('White text is hard to read on this colour')).toBeHidden();
  await expect(page.getByTestId('widget-preview-header')).toHaveCSS('background-color', 'rgb(10, 127, 90)');
  const greeting = 'G’day! Ask us about check-ups, or book a clean.';
  await page.getByLabel('Greeting').fill(greeting);
  await page.getByRole('switch', { name: 'Ask for email' }).click();
  await page.getByRole('checkbox', { name: 'Phone number required' }).check();
  const preview = page.getByRole('figure', { name: 'Widget preview' });
  await expect(preview).toContainText(greeting);
  await expect(preview).not.toContainText('Email');
  await expect(preview).toContainText('Phone number');
  await expect(preview).not.toContainText('Phone number (optional)');

  await page.getByRole('button', { name: 'Save widget' }).click();
  await expect(page.getByText('Chat widget saved')).toBeVisible();

  // Copy the snippet as the owner would, and "paste" it into the website.
  await page.getByRole('button', { name: 'Copy snippet' }).click();
  pasted = await page.evaluate(() => navigator.clipboard.readText());
  expect(pasted).toBe(
    `<script src="http://127.0.0.1:${3100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}/widget.js" data-location="${other.id}" async></script>`,
  );

  // A reload shows what was saved.
  await page.reload();
  await expect(page.getByLabel('Colour hex code')).toHaveValue('#0A7F5A');
  await expect(page.getByLabel('Greeting')).toHaveValue(greeting);
  await expect(page.getByRole('switch', { name: 'Ask for email' })).not.toBeChecked();

  // The website: the bubble in the new colour, and the chat asks what the owner chose.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${hostOrigin}/`);
  const bubble = visitor.getByRole('button', { name: 'Open chat' });
  await expect(bubble).toHaveCSS('background-color', 'rgb(10, 127, 90)');
  await bubble.click();
  const chat = visitor.frameLocator('#sb-widget-frame');
  await expect(chat.getByText(greeting)).toBeVisible();
  await expect(chat.getByLabel('Your name')).toBeVisible();
  await expect(chat.getByLabel(/Email/)).toHaveCount(0);
  await chat.getByLabel('Your name').fill('Petra Prechat');
  await chat.getByRole('button', { name: 'Start chat' }).click();
  await expect(chat.getByRole('alert')).toHaveText('Please enter phone number.');
  await chat.getByLabel('Phone number').fill('+61 491 570 110');
  await chat.getByRole('button', { name: 'Start chat' }).click();
  await expect(chat.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await visitorContext.close();

  // Staff see the settings and the snippet but cannot change them.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await logIn(staff, LOGINS.staff.email);
  await staff.goto(`/settings/widget?location=${other.id}`);
  await expect(staff.getByText('Only the business owner can change the chat widget.')).toBeVisible();
  await expect(staff.getByLabel('Colour hex code')).toHaveValue('#0A7F5A');
  await expect(staff.getByLabel('Colour hex code')).toBeDisabled();
  await expect(staff.getByRole('button', { name: 'Save widget' })).toHaveCount(0);
  await expect(staff.getByTestId('widget-snippet')).toContainText(other.id);
  await staffContext.close();
});

test('the owner sets a location’s spam limits; a blank one is explained, the saved ones stay', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const other = await otherLocation(page);
  await page.goto('/settings/widget');
  await page.getByRole('combobox', { name: 'Widget location' }).click();
  await page
    .locator('.ant-select-item-option')
    .and(page.getByTitle(other.label, { exact: true }))
    .click();
  const chats = page.getByLabel('New chats from one network, per hour');
  await expect(chats).toHaveValue('6');
  await chats.fill('');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('New chats from one network, per hour: enter a number')).toBeVisible();
  await chats.fill('40');
  await page.getByLabel('Form submissions from one network, per hour').fill('25');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Spam limits saved')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('New chats from one network, per hour')).toHaveValue('40');
  await expect(page.getByLabel('Form submissions from one network, per hour')).toHaveValue('25');
  await expect(page.getByLabel('Chat messages from one visitor, per hour')).toHaveValue('120');
});
