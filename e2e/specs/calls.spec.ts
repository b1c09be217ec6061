import { createServer, type Server } from 'node:http';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { hex, PUBLIC_URL, twilioAccount } from '../fixtures/twilio.ts';
import { FAKE_TWILIO_PORT } from '../playwright.config.ts';

const account = twilioAccount();
const ACCOUNT_SID = account.accountSid;
const AUTH_TOKEN = account.authToken;
const NUMBER = '+61491570197';

/** A signed Twilio Voice webhook; answers its TwiML. */
const twilio = (request: APIRequestContext, path: string, params: Record<string, string>) =>
  account.post(request, `${PUBLIC_URL}/webhooks/twilio/voice/${path}`, {
    AccountSid: ACCOUNT_SID,
    ...params,
  });

/** Twilio's REST API as far as setting up calling needs it, and its recording files. */
function startFakeTwilio(): Promise<Server> {
  const json = (res: import('node:http').ServerResponse, body: object) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url.endsWith('.mp3')) {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      return res.end(Buffer.from('ID3-a-voicemail'));
    }
    if (url.includes('/Applications.json') && req.method === 'GET') return json(res, { applications: [] });
    if (url.includes('/Applications')) return json(res, { sid: `AP${'a'.repeat(32)}` });
    if (url.includes('/Keys.json')) return json(res, { sid: `SK${'b'.repeat(32)}`, secret: 'shown-once' });
    if (url.includes('/IncomingPhoneNumbers.json'))
      return json(res, { incoming_phone_numbers: [{ sid: `PN${'c'.repeat(32)}` }] });
    if (url.includes('/IncomingPhoneNumbers/')) return json(res, { sid: `PN${'c'.repeat(32)}` });
    // Desk phones: the SIP domain, its credential list and mappings, and each person's credential.
    if (url.endsWith('/SIP/Domains.json') && req.method === 'GET') return json(res, { domains: [] });
    if (url.endsWith('/SIP/Domains.json'))
      return json(res, { sid: `SD${'d'.repeat(32)}`, domain_name: 'switchboard-e2e.sip.twilio.com' });
    if (url.endsWith('/SIP/CredentialLists.json') && req.method === 'GET')
      return json(res, { credential_lists: [] });
    if (url.endsWith('/SIP/CredentialLists.json')) return json(res, { sid: `CL${'e'.repeat(32)}` });
    if (url.endsWith('/CredentialListMappings.json'))
      return json(res, { contents: [], sid: `CL${'e'.repeat(32)}` });
    if (url.endsWith('/Credentials.json') && req.method === 'GET') return json(res, { credentials: [] });
    if (url.includes('/Credentials')) return json(res, { sid: `CR${'f'.repeat(32)}` });
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => server.listen(FAKE_TWILIO_PORT, '127.0.0.1', () => resolve(server)));
}

test("the owner sets up calling; a customer's call shows in the inbox as it rings, then as a voicemail to play, on desktop and phone", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fakeTwilio = await startFakeTwilio();
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId } = await signedInApi(page);
  const connected = await page.request.post('/api/v1/channels', {
    headers,
    data: {
      location_id: locationId,
      provider: 'twilio',
      config: { account_sid: ACCOUNT_SID, auth_token: AUTH_TOKEN, phone_number: NUMBER },
    },
  });
  expect(connected.ok(), await connected.text()).toBe(true);
  const channelId = (await connected.json()).body.id as string;
  try {
    // The owner sets up calling on the account: the number now rings here.
    await page.goto('/settings/channels');
    const calling = page.getByRole('region', { name: 'Calling' });
    await expect(calling).toContainText('Not set up');
    await calling.getByRole('button', { name: 'Set up calling' }).click();
    await expect(page.getByText(`Calling set up: ${NUMBER} now rings here`)).toBeVisible();
    await expect(calling).toContainText('Set up');
    await expect(calling.getByRole('button', { name: 'Set up calling again' })).toBeVisible();

    // A desk phone login for the owner: the password shows once, opened in this browser.
    await page.goto('/profile');
    const desk = page.getByRole('region', { name: 'Desk phone' });
    await desk.getByRole('button', { name: 'Create desk phone login' }).click();
    const password = desk.getByLabel('Desk phone password');
    await expect(password).toHaveText(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d).{20}$/);
    const first = await password.textContent();
    await expect(desk).toContainText('it is not shown again');
    await desk.getByRole('button', { name: 'New password' }).click();
    await expect(password).not.toHaveText(first ?? '');
    await expect(password).toHaveText(/^.{20}$/);

    await page.goto('/inbox');
    await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
    const caller = `+6142${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const sid = `CA${hex(16)}`;
    // No browser is available: the owner's desk phone rings; nobody picks up, so the caller leaves a voicemail.
    const twiml = await twilio(request, 'incoming', {
      CallSid: sid,
      From: caller,
      To: NUMBER,
      CallStatus: 'ringing',
    });
    expect(twiml).toMatch(/<Sip [^>]*>sip:u[0-9a-f]{20}@switchboard-[0-9a-f]{20}\.sip\.twilio\.com<\/Sip>/);
    const voicemail = await twilio(request, 'dial-action', { CallSid: sid, DialCallStatus: 'no-answer' });
    expect(voicemail).toContain('<Record ');

    const row = page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: new RegExp(caller.slice(-6)) });
    await expect(row).toContainText('Incoming call');
    // Who is calling shows on the page, with the way into their conversation.
    const toast = page.getByRole('alert').filter({ hasText: `${caller} is calling` });
    await expect(toast).toBeVisible();
    await toast.getByRole('button', { name: 'Open the conversation' }).click();
    await expect(toast).toBeHidden();
    const card = page.getByRole('region', { name: `Call from ${caller}` });
    await expect(card).toContainText('Incoming call');

    await twilio(request, 'recording-status', {
      CallSid: sid,
      RecordingSid: `RE${hex(16)}`,
      RecordingUrl: `http://127.0.0.1:${FAKE_TWILIO_PORT}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE1`,
      RecordingStatus: 'completed',
      RecordingDuration: '7',
      RecordingChannels: '1',
      RecordingSource: 'RecordVerb',
    });
    await expect(card).toContainText('Voicemail (00:07)');
    await expect(card.getByLabel('Voicemail')).toHaveAttribute('src', /\/api\/v1\/uploads\/.+\/content$/);
    await expect(card).toContainText('Calls are not transcribed');
    await expect(row).toContainText('Voicemail (00:07)');
    // The caller is answered by text, and the composer says so.
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveAttribute(
      'placeholder',
      'Reply by SMS…',
    );
    await expect(page.getByText(`A reply to a call goes by SMS to ${caller}.`)).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card).toBeVisible();
    await expect(page.locator('html')).toHaveJSProperty('scrollWidth', 390);
  } finally {
    await page.request.delete(`/api/v1/channels/${channelId}`, { headers });
    await new Promise((resolve) => fakeTwilio.close(resolve));
  }
});
