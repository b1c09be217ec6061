import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { logIn } from '../fixtures/app.ts';
import { DEMO_PASSWORD } from '../fixtures/logins.ts';

// The inbox's screens for a person to look at, light and dark. `npm run screenshots` takes them (never `npm test`); images go to
// .tmp/screens/inbox-*.png.

const dir = new URL('../../.tmp/screens/', import.meta.url).pathname;
const SAM = 'staff1@harbourside.test';
const PRIYA = 'staff2@harbourside.test';

type Api = { request: APIRequestContext; token: string; locationId: string };

async function api(request: APIRequestContext, email: string): Promise<Api> {
  const login = await request.post('/api/v1/auth/login', { data: { email, password: DEMO_PASSWORD } });
  const token = (await login.json()).body.token as string;
  const me = await request.get('/api/v1/user/me', { headers: { authorization: `Bearer ${token}` } });
  const business = (await me.json()).body.businesses.find((b: { selected: boolean }) => b.selected);
  const location = business.locations.find((l: { selected: boolean }) => l.selected) ?? business.locations[0];
  return { request, token, locationId: location.id };
}

const auth = (a: Api) => ({ authorization: `Bearer ${a.token}` });

async function inbound(a: Api, data: Record<string, unknown>): Promise<void> {
  const response = await a.request.post('/api/v1/sandbox/inbound', {
    headers: auth(a),
    data: { location_id: a.locationId, ...data },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

async function enquiryIdFor(a: Api, q: string): Promise<string> {
  const response = await a.request.get('/api/v1/enquiries', { headers: auth(a), params: { q } });
  return (await response.json()).body.items[0].id;
}

async function reply(a: Api, enquiryId: string, message: string, attachments: string[] = []): Promise<void> {
  const response = await a.request.post(`/api/v1/enquiries/${enquiryId}/messages`, {
    headers: auth(a),
    data: { message, attachments, client_id: crypto.randomUUID() },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A small picture for an attachment, drawn by the browser itself (no binary files in the repo). */
async function upload(a: Api, page: Page): Promise<string> {
  await page.setContent(
    `<div id="x" style="width:320px;height:200px;background:linear-gradient(135deg,#1E75FF,#7C3AED);display:grid;place-items:center;color:#fff;font:600 22px system-ui">X-ray 14 Mar</div>`,
  );
  const png = await page.locator('#x').screenshot();
  const response = await a.request.post('/api/v1/uploads', {
    headers: auth(a),
    multipart: { file: { name: 'xray-14-march.png', mimeType: 'image/png', buffer: png } },
  });
  return (await response.json()).body.id;
}

const tag = Date.now().toString(36).slice(-4);
const mobile = () => `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

test.beforeAll(async ({ request, browser }) => {
  const sam = await api(request, SAM);
  await inbound(sam, {
    channel: 'email',
    from: { email: `grace.${tag}@example.com`, name: 'Grace Wong' },
    subject: 'Invoice for my last visit',
    message: 'Hello, could you resend the invoice for my visit on 3 March? I cannot find the email.',
  });
  await inbound(sam, {
    channel: 'whatsapp',
    from: { phone: mobile(), name: 'Liam Carter' },
    message: 'Is parking available near the clinic?',
  });
  await inbound(sam, {
    channel: 'sms',
    from: { phone: mobile() },
    message: 'Running 10 minutes late, sorry!',
  });
  const phone = mobile();
  await inbound(sam, {
    channel: 'sms',
    from: { phone, name: `Olivia Bennett ${tag}` },
    message: 'Hi! I chipped a tooth this morning. Do you have anything today?',
  });
  const olivia = await enquiryIdFor(sam, `Olivia Bennett ${tag}`);
  await reply(sam, olivia, 'Sorry to hear that, Olivia. We can see you at 3:15 pm today with Dr Lee.');
  await inbound(sam, {
    channel: 'sms',
    from: { phone },
    message: 'Perfect, thank you. Should I bring anything?',
  });
  const page = await browser.newPage();
  const image = await upload(sam, page);
  await page.close();
  await reply(sam, olivia, 'Just your Medicare card. Here is the X-ray from your last visit for reference.', [
    image,
  ]);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`inbox screens in ${scheme}`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await logIn(page, SAM);
    await expect(page.getByRole('status', { name: 'Connection: Live' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${dir}inbox-${scheme}-list.png` });

    // Priya is looking at the same conversation: the collision warning shows.
    const priyaContext = await browser.newContext({ colorScheme: scheme });
    const priya = await priyaContext.newPage();
    await logIn(priya, PRIYA);
    await priya.getByRole('link', { name: new RegExp(`Olivia Bennett ${tag}`) }).click();

    await page.getByRole('link', { name: new RegExp(`Olivia Bennett ${tag}`) }).click();
    await expect(page.getByText('Priya Shah is also viewing')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${dir}inbox-${scheme}-conversation.png` });
    await priya.getByRole('textbox', { name: 'Message' }).pressSequentially('On it', { delay: 30 });
    await expect(page.getByText('Priya Shah is typing…')).toBeVisible();
    await page.getByRole('textbox', { name: 'Message' }).fill('See you at 3:15!');
    await page.screenshot({ path: `${dir}inbox-${scheme}-typing.png` });
    await priyaContext.close();

    await page
      .getByRole('link', { name: /Grace Wong/ })
      .first()
      .click();
    await expect(page.getByLabel('Subject')).toBeVisible();
    await page.getByRole('button', { name: 'Templates' }).click();
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${dir}inbox-${scheme}-email-templates.png` });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByText('Last activity')).toBeVisible();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}inbox-${scheme}-filters.png` });
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: /^Closed/ }).click();
    await page.getByText('Mine', { exact: true }).click();
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${dir}inbox-${scheme}-empty.png` });

    await page.getByRole('button', { name: 'New message' }).first().click();
    await expect(page.getByRole('dialog', { name: 'New message' })).toBeVisible();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}inbox-${scheme}-compose.png` });
    await context.close();
  });
}
