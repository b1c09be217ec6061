import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accessToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const SERVER =
  process.env.E2E_BASE_URL ?? `http://127.0.0.1:${3100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}`;

// The customer's website, on another site than the app (see widget.spec.ts).
let hostServer: Server;
let hostOrigin = '';
let locationId = '';

test.beforeAll(async () => {
  hostServer = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><head><title>Harbourside</title></head><body>
      <h1>Book a clean</h1>
      <script src="${SERVER}/widget.js" data-location="${locationId}" async></script>
    </body></html>`);
  });
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(hostServer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => hostServer.close(() => resolve())));

test('a website chat reply shows in the open chat, goes by SMS once the visitor has left, and their text continues it', async ({
  browser,
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const me = (await (await page.request.get(`${SERVER}/api/v1/user/me`, { headers })).json()).body as {
    businesses: { selected: boolean; locations: { id: string; selected: boolean }[] }[];
  };
  locationId = me.businesses.find((b) => b.selected)!.locations.find((l) => l.selected)!.id;
  const name = `Vic Visitor ${Date.now() % 100000}`;
  const phone = `+6142${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

  // The visitor starts a chat, giving a phone number.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${hostOrigin}/`);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  const chat = visitor.frameLocator('#sb-widget-frame');
  await chat.getByLabel('Your name').fill(name);
  await chat.getByLabel(/Phone/).fill(phone);
  await chat.getByRole('button', { name: 'Start chat' }).click();
  await chat.getByRole('textbox', { name: 'Message' }).fill('Do you have anything on Friday?');
  await chat.getByRole('button', { name: 'Send' }).click();

  // Staff open it: it began in the website chat, and the visitor is there.
  await page.goto('/inbox');
  await page
    .getByRole('list', { name: 'Enquiries' })
    .getByRole('link', { name: new RegExp(name) })
    .click();
  await expect(page.locator('.ib-view-head')).toContainText('Website chat');
  const routeNote = page.locator('.ib-reply-route');
  await expect(routeNote).toHaveText(/The visitor has the chat open: your reply shows there at once\./);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Yes, 10am or 2pm?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(chat.getByText('Yes, 10am or 2pm?')).toBeVisible();
  const thread = page.getByRole('list', { name: 'Messages' });
  await expect(thread.locator('.ib-msg').filter({ hasText: 'Yes, 10am or 2pm?' })).toContainText(
    'in website chat',
  );

  // The visitor leaves; a moment later replies go by SMS, and the composer says so.
  await visitorContext.close();
  await page.reload();
  await expect(routeNote).toHaveText(
    new RegExp(`The visitor has left the chat: your reply goes by SMS to \\${phone}\\.`),
    {
      timeout: 40_000,
    },
  );
  await expect(box).toHaveAttribute('placeholder', 'Reply by SMS…');
  await box.fill('Booked you in for 10am Friday.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const texted = thread.locator('.ib-msg').filter({ hasText: 'Booked you in for 10am Friday.' });
  await expect(texted).toContainText('by SMS');

  // Their text back (played here by the sandbox) continues the same conversation.
  const inbound = await page.request.post(`${SERVER}/api/v1/sandbox/inbound`, {
    headers,
    data: { channel: 'sms', location_id: locationId, from: { phone }, message: 'Perfect, thanks!' },
  });
  expect(inbound.ok(), await inbound.text()).toBe(true);
  const answer = thread.locator('.ib-msg').filter({ hasText: 'Perfect, thanks!' });
  await expect(answer).toBeVisible();
  await expect(answer).toContainText('by SMS');
  expect(new URL(page.url()).pathname).toBe(`/inbox/${(await inbound.json()).body.enquiry_id}`);
});
