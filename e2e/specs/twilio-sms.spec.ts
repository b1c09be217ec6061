import { createServer, type Server } from 'node:http';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';
import { hex, incomingNumbersAnswer, PUBLIC_URL, twilioAccount } from '../fixtures/twilio.ts';
import { FAKE_TWILIO_PORT } from '../playwright.config.ts';

const twilioAcc = twilioAccount();
const ACCOUNT_SID = twilioAcc.accountSid;
const AUTH_TOKEN = twilioAcc.authToken;
const NUMBER = '+61491570198';
const postSigned = twilioAcc.post;

type SentToTwilio = { path: string; auth: string; form: URLSearchParams; sid: string };

/** Twilio's Messages API, as far as sending needs it (and the account's numbers): records each send and answers like Twilio. */
function startFakeTwilio(sent: SentToTwilio[]): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      // Connecting the account asks whether the number is the account's.
      const owned = incomingNumbersAnswer(req, {
        accountSid: ACCOUNT_SID,
        authToken: AUTH_TOKEN,
        numbers: [NUMBER],
      });
      if (owned) {
        res.writeHead(owned.status, { 'content-type': 'application/json' });
        res.end(owned.body);
        return;
      }
      const sid = `SM${hex(16)}`;
      sent.push({
        path: req.url ?? '',
        auth: req.headers.authorization ?? '',
        form: new URLSearchParams(body),
        sid,
      });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid, status: 'queued', error_code: null, error_message: null }));
    });
  });
  return new Promise((resolve) => server.listen(FAKE_TWILIO_PORT, '127.0.0.1', () => resolve(server)));
}

test('a Twilio number connected in settings brings a signed SMS into the inbox live; the reply goes out and is ticked delivered', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const sent: SentToTwilio[] = [];
  const fakeTwilio = await startFakeTwilio(sent);
  try {
    // The owner connects the location's Twilio account in settings.
    await logIn(page, LOGINS.owner.email);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('menuitem', { name: 'Channels & forms' })
      .click();
    const docklands = page.getByRole('region', { name: 'Harbourside Dental Docklands' });
    await docklands.getByRole('button', { name: 'Connect an account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect an account to Harbourside Dental Docklands' });
    await dialog.getByLabel('Account SID', { exact: true }).fill(ACCOUNT_SID);
    await dialog.getByLabel('Auth Token', { exact: true }).fill(AUTH_TOKEN);
    await dialog.getByLabel('Phone number', { exact: true }).fill(NUMBER);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Twilio (SMS & MMS) connected').waitFor();

    // The inbox is open when the customer's text arrives through Twilio's signed webhook.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Inbox' }).click();
    await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
    const customerNumber = `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const text = `Is the 9:15 slot still free? ${hex(3)}`;
    const sid = `SM${hex(16)}`;
    await postSigned(request, `${PUBLIC_URL}/webhooks/twilio/messaging`, {
      MessageSid: sid,
      SmsSid: sid,
      SmsMessageSid: sid,
      AccountSid: ACCOUNT_SID,
      From: customerNumber,
      To: NUMBER,
      Body: text,
      NumMedia: '0',
      NumSegments: '1',
      SmsStatus: 'received',
      ApiVersion: '2010-04-01',
    });
    const row = page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: parsePhoneNumberFromString(customerNumber)!.formatNational() });
    await expect(row).toBeVisible();
    await expect(row).toContainText(text);

    // The reply goes to Twilio's Messages API with the account's credentials.
    await row.click();
    const reply = 'Yes, 9:15 is yours. See you tomorrow!';
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill(reply);
    await composer.press('Control+Enter');
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    const call = sent[0]!;
    expect(call.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(call.auth).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
    expect(call.form.get('To')).toBe(customerNumber);
    expect(call.form.get('From')).toBe(NUMBER);
    expect(call.form.get('Body')).toBe(reply);
    const mine = page
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: reply });
    await expect(mine.getByRole('img', { name: 'Sent' })).toBeVisible();

    // Twilio's signed status callback ticks it delivered, live.
    const statusCallback = call.form.get('StatusCallback');
    expect(statusCallback).toMatch(/\/webhooks\/twilio\/messaging\/status/);
    await postSigned(request, statusCallback!, {
      MessageSid: call.sid,
      SmsSid: call.sid,
      MessageStatus: 'delivered',
      SmsStatus: 'delivered',
      AccountSid: ACCOUNT_SID,
      From: NUMBER,
      To: customerNumber,
      ApiVersion: '2010-04-01',
    });
    await expect(mine.getByRole('img', { name: 'Delivered' })).toBeVisible();

    // Disconnect again, so the location's texts go through the sandbox for the specs that follow.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('menuitem', { name: 'Channels & forms' })
      .click();
    const account = docklands.getByRole('article', { name: 'Twilio (SMS & MMS) account' });
    await account.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Twilio (SMS & MMS) disconnected').waitFor();
  } finally {
    fakeTwilio.close();
  }
});
