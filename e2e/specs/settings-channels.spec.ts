import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';
import { incomingNumbersAnswer } from '../fixtures/twilio.ts';
import { FAKE_TWILIO_PORT } from '../playwright.config.ts';

const hex = (length: number) =>
  Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** Twilio, as far as connecting asks: the account's own numbers. */
function startFakeTwilio(account: {
  accountSid: string;
  authToken: string;
  numbers: string[];
}): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = incomingNumbersAnswer(req, account) ?? { status: 404, body: '{}' };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  return new Promise((resolve) => server.listen(FAKE_TWILIO_PORT, '127.0.0.1', () => resolve(server)));
}

async function openChannels(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('menuitem', { name: 'Channels & forms' })
    .click();
  await expect(page).toHaveURL(/\/settings\/channels$/);
  await expect(page.getByRole('heading', { name: 'Channels & forms', level: 3 })).toBeVisible();
}

test('an owner connects a Twilio account, sees it masked with its webhooks, edits and disconnects it', async ({
  page,
}) => {
  const accountSid = `AC${hex(32)}`;
  const authToken = hex(32);
  const twilio = await startFakeTwilio({ accountSid, authToken, numbers: ['+61491570199'] });
  try {
    await connectsAndDisconnects(page, accountSid, authToken);
  } finally {
    await new Promise((resolve) => twilio.close(resolve));
  }
});

async function connectsAndDisconnects(page: Page, accountSid: string, authToken: string) {
  await logIn(page, LOGINS.owner.email);
  await openChannels(page);

  const docklands = page.getByRole('region', { name: 'Harbourside Dental Docklands' });
  const reach = docklands.getByRole('region', { name: 'How customers reach this location' });
  const row = (text: string) => reach.getByRole('listitem').filter({ hasText: text });
  await expect(row('@inbound')).toContainText('Email');
  // Before an account: the sandbox number texts, and starts new conversations.
  await expect(row('+61491570156')).toContainText('Sandbox');
  await expect(row('+61491570156')).toContainText('Starts new conversations');
  await expect(row('docklands@harbourside.test')).toContainText('Starts new conversations');
  // A button is read by its words, not its icon's name ("plus Connect an account").
  await expect(docklands.getByRole('button', { name: 'Connect an account', exact: true })).toBeVisible();
  await docklands.getByRole('button', { name: 'Connect an account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect an account to Harbourside Dental Docklands' });
  await expect(dialog.getByRole('radio', { name: 'Twilio (SMS & MMS)' })).toBeChecked();
  await dialog.getByLabel('Account SID', { exact: true }).fill(accountSid);
  await dialog.getByLabel('Auth Token', { exact: true }).fill(authToken);
  // A number the account does not own: Twilio says so, and the form shows it.
  await dialog.getByLabel('Phone number', { exact: true }).fill('+61491570196');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    '+61491570196 is not a phone number of this Twilio account',
  );
  await dialog.getByLabel('Phone number', { exact: true }).fill('+61491570199');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByText('Twilio (SMS & MMS) connected').waitFor();
  await expect(dialog).toBeHidden();

  const account = docklands.getByRole('article', { name: 'Twilio (SMS & MMS) account' });
  await expect(account).toContainText('+61491570199');
  await expect(account).toContainText('Confirmed by Twilio (SMS & MMS)');
  // The one list now says the Twilio number starts conversations, and the old number is not connected.
  await expect(row('+61491570199')).toContainText('Twilio');
  await expect(row('+61491570199')).toContainText('Starts new conversations');
  await expect(row('+61491570156')).toContainText('Not connected');
  await expect(row('+61491570156')).not.toContainText('Starts new conversations');
  await expect(account).toContainText(accountSid);
  // The token is never shown again: only its last four characters.
  await expect(account).toContainText(`••••${authToken.slice(-4)}`);
  await expect(account).not.toContainText(authToken);
  await expect(account).toContainText(/https?:\/\/\S+\/webhooks\/twilio\/messaging/);
  await expect(account).toContainText('/webhooks/twilio/messaging/status');
  await expect(account.getByRole('button', { name: 'Copy' }).first()).toBeVisible();

  // Saving with the secret left empty keeps the stored token.
  await account.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Twilio (SMS & MMS)' });
  await expect(edit.getByLabel('Account SID', { exact: true })).toHaveValue(accountSid);
  await expect(edit.getByLabel('Auth Token', { exact: true })).toHaveValue('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Channel saved').waitFor();
  await expect(account).toContainText(`••••${authToken.slice(-4)}`);

  // The form addresses are on the same page, with a hosted contact link per location.
  const forms = page.getByRole('region', { name: 'Website forms' });
  await expect(forms).toContainText(/\/webhooks\/forms\/[\w-]{16,}/);
  await expect(forms).toContainText(/\/contact\?to=[\w-]{16,}&location=/);
  await expect(forms).toContainText('name="_gotcha"');

  // Disconnect, so the location's texts go through the sandbox again for the specs that follow.
  await account.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Disconnect' }).click();
  await page.getByText('Twilio (SMS & MMS) disconnected').waitFor();
  await expect(account).toBeHidden();
  await expect(docklands).toContainText('No accounts connected');
}

test('an owner gets a sandbox number for a location', async ({ page }) => {
  await logIn(page, LOGINS.owner.email);
  await openChannels(page);
  const location = page
    .getByRole('region')
    .filter({ has: page.getByRole('button', { name: 'Get a number' }) })
    .last();
  await location.getByRole('button', { name: 'Get a number' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Get a number' }).click();
  await expect(location.getByRole('alert')).toContainText(/New number: 0491 570 \d{3}/);
});

test('staff see the numbers and inbound addresses read-only, without owner tools or the simulator', async ({
  page,
}) => {
  await logIn(page, LOGINS.staff.email);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('menuitem', { name: 'Channels & forms' })).toBeVisible();
  await expect(nav.getByRole('menuitem', { name: 'Sandbox' })).toHaveCount(0);
  // Settings staff can only look at are not in their menu: each would say "Only the business owner can…".
  for (const ownerOnly of [
    'Business profile',
    'Phones & emails',
    'Website chat',
    'Message templates',
    'AI assistant',
    'Payments & invoices',
    'Subscription',
    'Audit log',
  ]) {
    await expect(nav.getByRole('menuitem', { name: ownerOnly })).toHaveCount(0);
  }
  for (const theirs of ['Team', 'Notifications', 'Labels', 'Locations']) {
    await expect(nav.getByRole('menuitem', { name: theirs })).toBeVisible();
  }
  await openChannels(page);
  await expect(page.getByText('Only the business owner can connect channels')).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Harbourside Dental Docklands' })
      .getByRole('region', { name: 'How customers reach this location' }),
  ).toContainText(/Email.*@inbound/);
  await expect(page.getByRole('button', { name: 'Connect an account' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Get a number' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Website forms' })).toHaveCount(0);
});
