import { createServer, type Server } from 'node:http';
import type { APIRequestContext, Page } from '@playwright/test';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { installFakeTwilioSignalling } from '../fixtures/fake-twilio-signalling.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';
import { hex, incomingNumbersAnswer, PUBLIC_URL, twilioAccount } from '../fixtures/twilio.ts';
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

/**
 * A recording as Twilio sends one: MP3, here seconds of silence in MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz,
 * mono; 1152 samples and 417 bytes each, all-zero side information decoding to silence).
 */
function silentMp3(seconds: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc0]);
  return Buffer.concat(Array.from({ length: Math.round((seconds * 44_100) / 1152) }, () => frame));
}

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
      return res.end(silentMp3(7));
    }
    if (url.includes('/Applications.json') && req.method === 'GET') return json(res, { applications: [] });
    if (url.includes('/Applications')) return json(res, { sid: `AP${'a'.repeat(32)}` });
    if (url.includes('/Keys.json')) return json(res, { sid: `SK${'b'.repeat(32)}`, secret: 'shown-once' });
    const owned = incomingNumbersAnswer(req, {
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      numbers: [NUMBER],
    });
    if (owned) {
      res.writeHead(owned.status, { 'content-type': 'application/json' });
      return res.end(owned.body);
    }
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

/** Connects the test's Twilio account to the signed-in owner's location. */
async function connectTwilio(page: Page) {
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
  return { headers, locationId, channelId: (await connected.json()).body.id as string };
}

test("the owner sets up calling; a customer's call shows in the inbox as it rings, then as a voicemail to play, on desktop and phone", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fakeTwilio = await startFakeTwilio();
  await logIn(page, LOGINS.owner.email);
  const { headers, channelId } = await connectTwilio(page);
  try {
    // The owner sets up calling on the account: the number now rings here.
    await page.goto('/settings/channels');
    const calling = page.getByRole('region', { name: 'Calling' });
    await expect(calling).toContainText('Not set up');
    await calling.getByRole('button', { name: 'Set up calling' }).click();
    // Written as dialled in Australia, where the business is.
    await expect(page.getByText('Calling set up: 0491 570 197 now rings here')).toBeVisible();
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
      .getByRole('link', { name: parsePhoneNumberFromString(caller)!.formatNational() });
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
    const player = card.getByLabel('Voicemail');
    await expect(player).toHaveAttribute('src', /\/api\/v1\/uploads\/.+\/content$/);
    // The player knows how long the voicemail is before anyone presses play.
    await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => Math.round(audio.duration))).toBe(7);
    await expect(player).toHaveJSProperty('paused', true);
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

test("with calling set up on Twilio, the browser's phone is Twilio's Voice SDK: it registers, rings with the caller's name, answers, and audio flows both ways", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const fakeTwilio = await startFakeTwilio();
  const context = await browser.newContext({ permissions: ['microphone'] });
  // Twilio's signalling is played in the page; its other hosts (call-quality events) answer nothing.
  await context.addInitScript(installFakeTwilioSignalling);
  await context.route(/twilio\.com/, (route) => route.fulfill({ status: 204, body: '' }));
  const page = await context.newPage();
  await logIn(page, LOGINS.owner.email);
  const { headers, locationId, channelId } = await connectTwilio(page);
  try {
    const setUp = await page.request.post(`/api/v1/channels/${channelId}/calling`, { headers });
    expect(setUp.ok(), await setUp.text()).toBe(true);
    const phone = await page.request.get(`/api/v1/calls/phone?location_id=${locationId}`, { headers });
    expect((await phone.json()).body).toMatchObject({ provider: 'twilio', number: NUMBER });

    // Going available loads the SDK, which signs in to the gateway with the server's token and registers.
    await page.getByRole('button', { name: /^Phone/ }).click();
    const dialer = page.getByRole('dialog', { name: /Phone/ });
    await dialer.getByRole('switch', { name: 'Available for calls' }).click();
    await expect(dialer.getByRole('switch', { name: 'Available for calls' })).toBeChecked();
    const listen = await page.evaluate(() =>
      (window as unknown as { fakeTwilio: { sent(t: string): { token: string }[] } }).fakeTwilio.sent(
        'listen',
      ),
    );
    const claims = JSON.parse(Buffer.from(listen[0]!.token.split('.')[1]!, 'base64url').toString());
    expect(claims.grants.identity).toMatch(/^u[0-9a-f]{32}_l[0-9a-f]{32}$/);
    expect(claims.grants.voice.incoming.allow).toBe(true);
    await dialer.getByRole('button', { name: 'Close' }).click();

    // Twilio rings this browser for a customer, with the parameters the incoming TwiML gives it.
    const callSid = `CA${hex(16)}`;
    await page.evaluate(
      (sid) =>
        (window as unknown as { fakeTwilio: { ring(i: object): Promise<void> } }).fakeTwilio.ring({
          callSid: sid,
          from: '+61491570188',
          to: 'client:someone',
          params: { callerName: 'Twilio Tess', enquiryId: '00000000-0000-0000-0000-000000000000' },
        }),
      callSid,
    );
    const toast = page.getByRole('alertdialog', { name: 'Twilio Tess is calling' });
    await expect(toast).toContainText('+61491570188');
    await toast.getByRole('button', { name: 'Answer' }).click();
    const bar = page.getByRole('region', { name: 'Call in progress' });
    await expect(bar).toContainText('Twilio Tess');

    // The SDK answered through the gateway, and audio flows both ways.
    const audio = () =>
      page.evaluate(() =>
        (
          window as unknown as { fakeTwilio: { audio(): Promise<{ browser: number; caller: number }> } }
        ).fakeTwilio.audio(),
      );
    await expect.poll(async () => Math.min(...Object.values(await audio()))).toBeGreaterThan(0);
    const before = await audio();
    await expect
      .poll(async () => {
        const now = await audio();
        return now.browser > before.browser && now.caller > before.caller;
      })
      .toBe(true);
    await expect(bar.getByRole('timer', { name: 'Call time' })).not.toHaveText('00:00');

    // Keys pressed go to Twilio as DTMF; hanging up tells Twilio too.
    await bar.getByRole('button', { name: 'Keypad' }).click();
    await page.getByRole('group', { name: 'Keys to send' }).getByRole('button', { name: '7' }).click();
    await page.keyboard.press('Escape');
    await bar.getByRole('button', { name: 'Hang up' }).click();
    await expect(bar).toBeHidden();
    const sentOf = (type: string) =>
      page.evaluate(
        (t) =>
          (
            window as unknown as { fakeTwilio: { sent(t: string): { callsid?: string; dtmf?: string }[] } }
          ).fakeTwilio.sent(t),
        type,
      );
    await expect.poll(async () => (await sentOf('hangup')).some((m) => m.callsid === callSid)).toBe(true);
    expect((await sentOf('answer')).some((m) => m.callsid === callSid)).toBe(true);
  } finally {
    await page.request.delete(`/api/v1/channels/${channelId}`, { headers });
    await context.close();
    await new Promise((resolve) => fakeTwilio.close(resolve));
  }
});
