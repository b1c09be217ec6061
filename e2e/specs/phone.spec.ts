import type { Browser, BrowserContext, Page } from '@playwright/test';
import { logIn, logInToLocations, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const STAFF2 = 'staff2@harbourside.test';

/** A fresh Australian mobile (04 then 1, 2 or 3: prefixes that are in service), so each run starts anew. */
const mobile = (prefix: '1' | '2' | '3') =>
  `+614${prefix}${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/**
 * Every peer connection a page makes, kept where the test can read its statistics: the check that audio
 * flows reads what WebRTC itself counts, not a timer.
 */
const TRACK_PEERS = () => {
  const Native = window.RTCPeerConnection;
  const all: RTCPeerConnection[] = [];
  (window as unknown as { __peers: RTCPeerConnection[] }).__peers = all;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      all.push(this);
    }
  } as typeof RTCPeerConnection;
};

/** Audio bytes the page's latest peer connection has received and sent so far. */
async function audioBytes(page: Page): Promise<{ received: number; sent: number }> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    const pc = peers.at(-1);
    if (!pc) return { received: 0, sent: 0 };
    let received = 0;
    let sent = 0;
    (await pc.getStats()).forEach(
      (s: { type: string; kind?: string; bytesReceived?: number; bytesSent?: number }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') received += s.bytesReceived ?? 0;
        if (s.type === 'outbound-rtp' && s.kind === 'audio') sent += s.bytesSent ?? 0;
      },
    );
    return { received, sent };
  });
}

/** Audio keeps flowing both ways: what was counted grows. */
async function expectAudioBothWays(page: Page): Promise<void> {
  await expect.poll(async () => (await audioBytes(page)).received, { timeout: 20_000 }).toBeGreaterThan(0);
  const before = await audioBytes(page);
  await expect
    .poll(async () => {
      const now = await audioBytes(page);
      return now.received > before.received && now.sent > before.sent && now.received > 0;
    })
    .toBe(true);
}

async function staffBrowser(
  browser: Browser,
  email: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ permissions: ['microphone'] });
  await context.addInitScript(TRACK_PEERS);
  const page = await context.newPage();
  await logIn(page, email);
  return { context, page };
}

/** Opens the phone from the top bar and goes available. */
async function goAvailable(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Phone/ }).click();
  const dialer = page.getByRole('dialog', { name: /Phone/ });
  await dialer.getByRole('switch', { name: 'Available for calls' }).click();
  await expect(dialer.getByRole('switch', { name: 'Available for calls' })).toBeChecked();
  await dialer.getByRole('button', { name: 'Close' }).click();
}

test('a customer rings the location: both available staff ring, one answers, audio flows both ways, the call is handed to the other, hang up, the recorded call shows live in the conversation', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const customer = mobile('1');
  const sam = await staffBrowser(browser, LOGINS.staff.email);
  const priya = await staffBrowser(browser, STAFF2);
  const simulator = await staffBrowser(browser, LOGINS.owner.email);
  try {
    await goAvailable(sam.page);
    await goAvailable(priya.page);

    // The owner plays the customer on the Sandbox page.
    await simulator.page.goto('/sandbox');
    const line = simulator.page.getByRole('region', { name: 'Phone line' });
    await line.getByLabel('Calling from').fill(customer);
    await line.getByRole('button', { name: /Call Harbourside/ }).click();

    // Both browsers ring, with the caller's number.
    const samToast = sam.page.getByRole('alertdialog', { name: /is calling/ });
    const priyaToast = priya.page.getByRole('alertdialog', { name: /is calling/ });
    await expect(samToast).toContainText(customer.slice(-4));
    await expect(priyaToast).toBeVisible();

    // Sam answers; Priya's stops ringing.
    await samToast.getByRole('button', { name: 'Answer' }).click();
    await expect(priyaToast).toBeHidden();
    // Answering opens the caller's conversation.
    await expect(sam.page).toHaveURL(/\/inbox\/[0-9a-f-]{36}$/);
    const bar = sam.page.getByRole('region', { name: 'Call in progress' });
    await expect(bar).toBeVisible();
    await expect(line).toContainText('On the call');

    // Audio flows both ways, at both ends.
    await expectAudioBothWays(sam.page);
    await expectAudioBothWays(simulator.page);
    await expect(bar.getByRole('timer', { name: 'Call time' })).not.toHaveText('00:00');

    // Keys pressed on the staff's keypad reach the caller; hold shows at the caller's end.
    await bar.getByRole('button', { name: 'Keypad' }).click();
    const keys = sam.page.getByRole('group', { name: 'Keys to send' });
    await keys.getByRole('button', { name: '4' }).click();
    await keys.getByRole('button', { name: '2' }).click();
    await expect(line).toContainText('Keys pressed: 42');
    await sam.page.keyboard.press('Escape');
    await bar.getByRole('button', { name: 'Hold' }).click();
    await expect(line).toContainText('On hold');
    await bar.getByRole('button', { name: 'Resume' }).click();
    await expect(line).not.toContainText('On hold');

    // The full-screen view shows who it is and their conversation.
    await bar.getByRole('button', { name: 'Full screen' }).click();
    const screen = sam.page.getByRole('dialog');
    await expect(screen.getByText('Their conversation')).toBeVisible();
    await screen.getByRole('button', { name: 'Leave full screen' }).click();

    // Sam hands the call to Priya: her browser rings, his leaves the call, the caller is connected to her.
    await bar.getByRole('button', { name: 'Transfer' }).click();
    // The menu says who can take it: Priya is available, the owner (playing the customer) is away.
    await expect(sam.page.getByRole('menuitem', { name: /Priya Shah/ })).toContainText('Available');
    const owner = sam.page.getByRole('menuitem', { name: /Olivia/ });
    await expect(owner).toContainText('Away');
    await expect(owner).toHaveAttribute('aria-disabled', 'true');
    await sam.page.screenshot({ path: '.tmp/shots-threads/transfer-menu-desktop.png' });
    await sam.page.getByRole('menuitem', { name: /Priya Shah/ }).click();
    await expect(bar).toBeHidden();
    await expect(sam.page.getByRole('button', { name: /^Phone/ })).toBeVisible();
    const transferred = priya.page.getByRole('alertdialog', { name: /is calling/ });
    await transferred.getByRole('button', { name: 'Answer' }).click();
    const priyaBar = priya.page.getByRole('region', { name: 'Call in progress' });
    await expect(priyaBar).toBeVisible();
    await expect(line).toContainText('On the call');
    await expectAudioBothWays(priya.page);

    // Priya hangs up; the caller's end hears it.
    await priyaBar.getByRole('button', { name: 'Hang up' }).click();
    await expect(priyaBar).toBeHidden();
    await expect(line).toContainText('The business hung up');

    // The call, taken by Priya in the end and with its recording, shows in the conversation on Sam's screen live.
    const { headers } = await signedInApi(sam.page);
    const calls = await sam.page.request.get('/api/v1/calls?page_size=5', { headers });
    const call = ((await calls.json()).body.items as { from: string; enquiry_id: string }[]).find(
      (c) => c.from === customer,
    );
    expect(call).toBeTruthy();
    await sam.page.goto(`/inbox/${call?.enquiry_id}`);
    const card = sam.page.getByRole('region', { name: `Call from ${customer}` });
    await expect(card).toContainText('answered by Priya');
    await expect(card).toContainText('Answered first by Sam Nguyen, transferred to Priya Shah.');
    await expect(card.getByLabel('Call recording')).toBeAttached({ timeout: 30_000 });
  } finally {
    await sam.context.close();
    await priya.context.close();
    await simulator.context.close();
  }
});

test('staff call a customer from their conversation; the sandbox customer answers and hears them', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const customer = mobile('2');
  const sam = await staffBrowser(browser, LOGINS.staff.email);
  const simulator = await staffBrowser(browser, LOGINS.owner.email);
  try {
    // The customer texts first, so there is a conversation to call from.
    const { headers, locationId } = await signedInApi(sam.page);
    const sent = await sam.page.request.post('/api/v1/sandbox/inbound', {
      headers,
      data: {
        channel: 'sms',
        location_id: locationId,
        from: { phone: customer, name: 'Callback Cara' },
        message: 'Please call me back',
      },
    });
    expect(sent.ok()).toBe(true);
    const enquiryId = (await sent.json()).body.enquiry_id as string;
    await simulator.page.goto('/sandbox');
    const line = simulator.page.getByRole('region', { name: 'Phone line' });
    await expect(line.getByRole('button', { name: /Call Harbourside/ })).toBeVisible();

    await sam.page.goto(`/inbox/${enquiryId}`);
    await sam.page.getByRole('button', { name: 'Call Callback Cara' }).click();
    const bar = sam.page.getByRole('region', { name: 'Call in progress' });
    await expect(bar).toContainText('Ringing');

    await expect(line).toContainText('is calling you');
    await line.getByRole('button', { name: 'Answer' }).click();
    await expect(line).toContainText('On the call');
    await expectAudioBothWays(sam.page);
    await line.getByRole('button', { name: 'Hang up' }).click();
    await expect(bar).toBeHidden();
    // The outgoing call is in Cara's conversation.
    await expect(sam.page.getByRole('region', { name: `Call to ${customer}` })).toContainText(
      'Outgoing call',
    );
  } finally {
    await sam.context.close();
    await simulator.context.close();
  }
});

test('the phone lists the fake audio devices, remembers a choice, and fits a phone screen', async ({
  browser,
}) => {
  const context = await browser.newContext({
    permissions: ['microphone'],
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  try {
    await logIn(page, LOGINS.staff.email);
    // Device names show once the microphone is allowed.
    await page.evaluate(() =>
      navigator.mediaDevices.getUserMedia({ audio: true }).then((s) => {
        for (const t of s.getTracks()) t.stop();
      }),
    );
    await page.keyboard.press('c');
    const dialer = page.getByRole('dialog', { name: /Phone/ });
    await expect(dialer.getByRole('group', { name: 'Keypad' })).toBeVisible();
    await dialer.getByRole('button', { name: '0' }).click();
    for (const key of ['4', '1', '2', '3', '4', '5', '6', '7', '8'])
      await dialer.getByRole('button', { name: key, exact: true }).click();
    await expect(dialer.getByLabel('Number or name to call')).toHaveValue('0412 345 678');
    await page.screenshot({ path: test.info().outputPath('dialer-phone.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await dialer.getByRole('tab', { name: 'Audio' }).click();
    await dialer.getByLabel('Microphone').click();
    const fake = page.locator('.ant-select-item-option', { hasText: /Fake/i }).first();
    await expect(fake).toBeVisible();
    const chosen = await fake.textContent();
    await fake.click();
    await page.reload();
    await page.getByRole('button', { name: /^Phone/ }).click();
    await page.getByRole('dialog', { name: /Phone/ }).getByRole('tab', { name: 'Audio' }).click();
    await expect(page.getByRole('dialog', { name: /Phone/ }).getByText(chosen ?? '')).toBeVisible();
  } finally {
    await context.close();
  }
});

for (const size of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the owner gives a location a campaign's tracking number and removes it (${size.name})`, async ({
    page,
  }) => {
    await logInToLocations(page, LOGINS.owner.email);
    await page.setViewportSize(size);
    const { headers } = await signedInApi(page);
    const name = `Tracking ${size.name} ${Date.now() % 100_000}`;
    const created = await page.request.post('/api/v1/business/locations', { headers, data: { name } });
    expect(created.ok()).toBe(true);
    const locationId = (await created.json()).body.id as string;
    const number = mobile('3');
    try {
      await page.reload();
      await page
        .getByRole('row', { name: new RegExp(name) })
        .getByRole('button', { name: 'Edit' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Edit location' });
      await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue(name);
      const tracking = dialog.getByRole('region', { name: 'Tracking numbers' });
      await expect(tracking).toContainText('No tracking numbers yet.');
      // A number that is none is refused where it was typed; nothing is added.
      await tracking.getByLabel('Number').fill('12');
      await tracking.getByLabel('Source').fill('flyer');
      await tracking.getByRole('button', { name: 'Add tracking number' }).click();
      await expect(tracking.getByText('Enter a valid phone number')).toBeVisible();
      await tracking.getByLabel('Number').fill(number);
      await tracking.getByLabel('Campaign').fill('letterbox');
      await tracking.getByRole('button', { name: 'Add tracking number' }).click();
      await expect(tracking.getByText('flyer · letterbox')).toBeVisible();
      await expect(tracking.getByText(number)).toBeVisible();
      await expect(tracking.getByLabel('Number')).toHaveValue('');
      await page.screenshot({ path: test.info().outputPath(`tracking-${size.name}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

      // Removed again.
      await tracking.getByRole('button', { name: `Remove ${number}` }).click();
      await expect(tracking).toContainText('No tracking numbers yet.');
    } finally {
      await page.request.delete(`/api/v1/business/locations/${locationId}`, { headers });
    }
  });
}
