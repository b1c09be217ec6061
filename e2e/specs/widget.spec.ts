import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect } from 'socket.io-client';
import { accessToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const SERVER =
  process.env.E2E_BASE_URL ?? `http://127.0.0.1:${3100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}`;

type Me = { businesses: { selected: boolean; locations: { id: string; selected: boolean }[] }[] };
type EnquiryItem = {
  id: string;
  channel: string;
  source: string | null;
  medium: string | null;
  customer: { name: string | null };
};

// A customer's website on another site (localhost, not 127.0.0.1), served from loopback by the test itself:
// the widget must work cross-site. (A page faked with page.route would count as public, and Chromium keeps
// public pages from loading loopback scripts.)
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
let hostServer: Server;
let hostOrigin = '';
let locationId = '';

test.beforeAll(async () => {
  hostServer = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><head><title>Harbourside shop</title></head><body>
      <h1>Book your check-up</h1>
      <script src="${SERVER}/widget.js" data-location="${locationId}" async></script>
    </body></html>`);
  });
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(hostServer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => hostServer.close(() => resolve())));

test('a visitor chats through the website widget and staff reply live', async ({ browser, page }) => {
  // Staff: logged in through the UI in their own browser context.
  await logIn(page, LOGINS.owner.email);
  const token = await accessToken(page);
  const api = async <T>(method: 'GET' | 'POST', path: string, data?: object): Promise<T> => {
    const res = await page.request.fetch(`${SERVER}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(data ? { data } : {}),
    });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { body: T }).body;
  };
  const me = await api<Me>('GET', '/user/me');
  locationId = me.businesses.find((b) => b.selected)!.locations.find((l) => l.selected)!.id;

  // Visitor: a fresh context on the customer's website.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${hostOrigin}/landing?utm_source=spring-news&utm_medium=email&utm_campaign=spring`);
  const bubble = visitor.getByRole('button', { name: 'Open chat' });
  await expect(bubble).toBeVisible();
  // The chat frame loads only on first open.
  await expect(visitor.locator('#sb-widget-frame')).toHaveCount(0);
  await bubble.click();
  const chat = visitor.frameLocator('#sb-widget-frame');

  await chat.getByLabel('Your name').fill('Vera Visitor');
  await chat.getByLabel(/Email/).fill('vera@example.com');
  await chat.getByRole('button', { name: 'Start chat' }).click();
  const composer = chat.getByRole('textbox', { name: 'Message' });
  const text = 'Do you have a slot on Friday? <b>not bold</b>';
  await composer.fill(text);
  await composer.press('Enter');
  const mine = chat.locator('.bubble.visitor', { hasText: text });
  await expect(mine).toBeVisible();
  await expect(mine).not.toHaveClass(/pending|failed/);
  // Text, never HTML.
  await expect(chat.locator('.bubble b')).toHaveCount(0);

  // Staff see the enquiry on the widget channel, attributed to the campaign.
  let enquiry: EnquiryItem | undefined;
  await expect
    .poll(async () => {
      const list = await api<{ items: EnquiryItem[] }>('GET', '/enquiries?channels=widget&page_size=50');
      enquiry = list.items.find((e) => e.customer.name === 'Vera Visitor');
      return enquiry;
    })
    .toMatchObject({ channel: 'widget', source: 'spring-news', medium: 'email' });

  // Typing, both ways, through the staff real-time socket (as the inbox uses it).
  const staff = connect(SERVER, { auth: { token }, transports: ['websocket'], reconnection: false });
  try {
    await new Promise<void>((resolve, reject) => {
      staff.on('connect', () => resolve());
      staff.on('connect_error', reject);
    });
    expect(await staff.timeout(15_000).emitWithAck('enquiry.open', enquiry?.id)).toMatchObject({ ok: true });
    const staffSaw: { typing: boolean; full_name: string }[] = [];
    staff.on('typing', (event: { typing: boolean; full_name: string }) => staffSaw.push(event));
    await composer.pressSequentially('Also', { delay: 20 });
    await expect.poll(() => staffSaw.some((e) => e.typing && e.full_name === 'Vera Visitor')).toBe(true);
    await composer.fill('');
    staff.emit('typing', { enquiry_id: enquiry?.id ?? '', typing: true });
    await expect(chat.getByText(`${LOGINS.owner.name} is typing…`)).toBeVisible();
  } finally {
    staff.disconnect();
  }

  // The staff reply reaches the visitor live, with the teammate's picture from My profile.
  const avatar = await page.request.put(`${SERVER}/api/v1/user/me/avatar`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { image: { name: 'me.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG } },
  });
  expect(avatar.ok(), await avatar.text()).toBe(true);
  const reply = 'Yes! Friday 10am works — see you then.';
  await api('POST', `/enquiries/${enquiry!.id}/messages`, { message: reply, client_id: 'e2e-reply' });
  await expect(chat.locator('.bubble.staff', { hasText: reply })).toBeVisible();
  // Signed with the teammate's first name and the time.
  await expect(chat.locator('.meta.staff').last()).toHaveText(
    new RegExp(`^${LOGINS.owner.name.split(' ')[0]} · \\d{1,2}:\\d{2}`),
  );
  const picture = chat.locator('.meta.staff').last().locator('img.avatar');
  await expect(picture).toHaveAttribute('src', (await avatar.json()).body.avatar);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  // While open, the bubble is the close button.
  await expect(visitor.getByRole('button', { name: 'Close chat' })).toBeVisible();
  await expect(visitor.locator('#sb-widget-bubble svg[data-icon="close"]')).toBeVisible();
  // The reply also clears the typing indicator.
  await expect(chat.getByText(`${LOGINS.owner.name} is typing…`)).toBeHidden();
  await expect
    .poll(async () => {
      const thread = await api<{ items: { message: string; status: string }[] }>(
        'GET',
        `/enquiries/${enquiry!.id}/messages`,
      );
      return thread.items.find((m) => m.message === reply)?.status;
    })
    .toBe('delivered');

  // After a reload the returning visitor's chat is connected but closed: a reply shows as a count on the
  // bubble until they open it, and the conversation is all there.
  await visitor.reload();
  await expect(visitor.locator('#sb-widget-frame')).toBeAttached();
  await expect(visitor.locator('#sb-widget-frame')).toBeHidden();
  const again = visitor.frameLocator('#sb-widget-frame');
  await expect(again.locator('.bubble.staff', { hasText: reply })).toBeAttached();
  const later = 'We also have 2pm free, if that suits better.';
  await api('POST', `/enquiries/${enquiry!.id}/messages`, { message: later, client_id: 'e2e-reply-2' });
  const badged = visitor.getByRole('button', { name: 'Open chat (1 new reply)' });
  await expect(badged).toBeVisible();
  await expect(badged).toHaveText('1');
  await badged.click();
  await expect(again.locator('.bubble.visitor', { hasText: text })).toBeVisible();
  await expect(again.locator('.bubble.staff', { hasText: reply })).toBeVisible();
  await expect(again.locator('.bubble.staff', { hasText: later })).toBeVisible();
  await expect(again.getByRole('button', { name: 'Start chat' })).toHaveCount(0);
  await expect(again.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await expect(visitor.locator('#sb-widget-bubble span')).toBeHidden();

  // Closed again, another reply counts again.
  await visitor.getByRole('button', { name: 'Close chat' }).click();
  await expect(visitor.locator('#sb-widget-frame')).toBeHidden();
  await api('POST', `/enquiries/${enquiry!.id}/messages`, { message: 'See you!', client_id: 'e2e-reply-3' });
  await expect(visitor.getByRole('button', { name: 'Open chat (1 new reply)' })).toBeVisible();
  await visitorContext.close();
  await page.request.delete(`${SERVER}/api/v1/user/me/avatar`, {
    headers: { authorization: `Bearer ${token}` },
  });
});

test('the chat header shows the business logo uploaded in Business profile', async ({ browser, page }) => {
  await logIn(page, LOGINS.owner.email);
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const me = (await (await page.request.get(`${SERVER}/api/v1/user/me`, { headers })).json()).body as Me;
  locationId = me.businesses.find((b) => b.selected)!.locations.find((l) => l.selected)!.id;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const uploaded = await page.request.put(`${SERVER}/api/v1/business/mybusinessimage`, {
    headers,
    multipart: { image: { name: 'logo.png', mimeType: 'image/png', buffer: png } },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  try {
    // The app's top bar shows it beside the business name.
    await page.reload();
    const mark = page.locator('.selection-business-name img');
    await expect(mark).toBeVisible();
    // Visible is not loaded: the bytes may still be on their way.
    await expect.poll(() => mark.evaluate((el: HTMLImageElement) => el.naturalWidth > 0)).toBe(true);

    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${hostOrigin}/logo`);
    await visitor.getByRole('button', { name: 'Open chat' }).click();
    const logo = visitor.frameLocator('#sb-widget-frame').locator('header img.logo');
    await expect(logo).toBeVisible();
    await expect
      .poll(() => logo.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
    await visitorContext.close();
  } finally {
    await page.request.delete(`${SERVER}/api/v1/business/mybusinessimage`, { headers });
  }
});

test('a message whose acknowledgement was lost (the server went away) is sent again and stored once', async ({
  browser,
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const me = (await (await page.request.get(`${SERVER}/api/v1/user/me`, { headers })).json()).body as Me;
  locationId = me.businesses.find((b) => b.selected)!.locations.find((l) => l.selected)!.id;

  const visitorContext = await browser.newContext();
  const text = `Is parking free on Saturdays? ${Date.now()}`;
  // Between the chat and the server: the first answer to this message is lost and the connection drops, as
  // when the server stores a message and stops before answering.
  let sent = 0;
  let dropped = false;
  await visitorContext.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (typeof m === 'string' && m.includes('"message"') && m.includes(text)) sent++;
      server.send(m);
    });
    server.onMessage((m) => {
      if (!dropped && typeof m === 'string' && m.startsWith('43/visitor,') && m.includes(text)) {
        dropped = true;
        void ws.close();
        void server.close();
        return;
      }
      ws.send(m);
    });
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${hostOrigin}/parking`);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  const chat = visitor.frameLocator('#sb-widget-frame');
  await chat.getByLabel('Your name').fill('Rita Retry');
  await chat.getByLabel(/Email/).fill('rita@example.com');
  await chat.getByRole('button', { name: 'Start chat' }).click();
  const composer = chat.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');

  // Sent again once the chat reconnects, answered with what the server stored: neither pending nor failed.
  await expect.poll(() => dropped).toBe(true);
  await expect.poll(() => sent, { timeout: 15_000 }).toBe(2);
  const mine = chat.locator('.bubble.visitor', { hasText: text });
  await expect(mine).not.toHaveClass(/pending|failed/);
  await expect(chat.getByRole('status')).toHaveText('');

  // Stored once.
  const list = (await (
    await page.request.get(`${SERVER}/api/v1/enquiries?channels=widget&page_size=50`, { headers })
  ).json()) as { body: { items: (EnquiryItem & { id: string })[] } };
  const enquiry = list.body.items.find((e) => e.customer.name === 'Rita Retry');
  expect(enquiry).toBeDefined();
  const thread = (await (
    await page.request.get(`${SERVER}/api/v1/enquiries/${enquiry!.id}/messages`, { headers })
  ).json()) as { body: { items: { message: string }[] } };
  expect(thread.body.items.filter((m) => m.message === text)).toHaveLength(1);
  await visitorContext.close();
});
