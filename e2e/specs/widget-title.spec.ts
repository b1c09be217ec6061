import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const DEFAULT_FIELDS = {
  name: { ask: true, required: true },
  phone: { ask: true, required: false },
  email: { ask: true, required: false },
};

// The business's website, on another site (localhost rather than 127.0.0.1), with the location's snippet.
let hostServer: Server;
let hostOrigin = '';
let pasted = '';

test.beforeAll(async () => {
  hostServer = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Harbourside</title></head><body><h1>Welcome to Harbourside Dental</h1>${pasted}</body></html>`);
  });
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(hostServer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => hostServer.close(() => resolve())));

for (const size of SIZES) {
  test(`the owner titles and greets the website chat, which shows them with the logo, and the inbox calls it Website chat (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const device = {
      viewport: size.viewport,
      ...(size.phone ? { hasTouch: true, isMobile: true } : {}),
    };
    const context = await browser.newContext(device);
    const page = await context.newPage();
    await logIn(page, LOGINS.owner.email);
    const { headers, locationId } = await signedInApi(page);
    const uploaded = await page.request.put('/api/v1/business/mybusinessimage', {
      headers,
      multipart: { image: { name: 'logo.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG } },
    });
    expect(uploaded.ok(), await uploaded.text()).toBe(true);
    const title = `Harbourside Smiles ${size.name}`;
    const greeting = `Hello from the front desk (${size.name}) — ask us anything.`;
    const shots = `.tmp/shots-widget-title/${size.name}`;
    try {
      // Settings → Website chat: the defaults are the business's, the preview follows what is typed.
      await page.goto(`/settings/widget?location=${locationId}`);
      const titleField = page.getByLabel('Title');
      await expect(titleField).toHaveAttribute('placeholder', 'Harbourside Dental');
      await expect(page.getByLabel('Greeting')).toHaveAttribute(
        'placeholder',
        "Hi! Ask us anything — we'll reply here.",
      );
      const preview = page.getByRole('figure', { name: 'Widget preview' });
      await expect(preview).toContainText('Harbourside Dental');
      await titleField.fill(title);
      await page.getByLabel('Greeting').fill(greeting);
      // An anonymous visitor: the form asks for no name.
      await page.getByRole('switch', { name: 'Ask for name' }).click();
      const previewHeader = page.getByTestId('widget-preview-header');
      await expect(previewHeader).toContainText(title);
      // Several locations: the preview names this one under the title.
      await expect(previewHeader).toContainText('Harbourside Dental Docklands');
      await expect(previewHeader.getByRole('img', { name: 'Your logo' })).toBeVisible();
      await expect(preview).toContainText(greeting);
      await preview.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}-settings.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        size.viewport.width,
      );
      await page.getByRole('button', { name: 'Save widget' }).click();
      await expect(page.getByText('Chat widget saved')).toBeVisible();
      pasted = (await page.getByTestId('widget-snippet').textContent()) ?? '';
      expect(pasted).toContain(locationId);

      // The website: the chat's header carries the title, the location and the logo; the greeting follows.
      const visitorContext = await browser.newContext(device);
      const visitor = await visitorContext.newPage();
      await visitor.goto(`${hostOrigin}/`);
      await visitor.getByRole('button', { name: 'Open chat' }).click();
      const chat = visitor.frameLocator('#sb-widget-frame');
      await expect(chat.locator('header .title')).toHaveText(title);
      await expect(chat.locator('header .subtitle')).toHaveText('Harbourside Dental Docklands');
      const logo = chat.locator('header img.logo');
      await expect(logo).toBeVisible();
      await expect
        .poll(() => logo.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
        .toBe(true);
      await expect(chat.getByText(greeting)).toBeVisible();
      await visitor.screenshot({ path: `${shots}-chat-form.png` });
      await chat.getByRole('button', { name: 'Start chat' }).click();
      const text = `Is there parking near you? (${size.name} ${Date.now()})`;
      const composer = chat.getByRole('textbox', { name: 'Message' });
      // The chat opens with the greeting as its first bubble.
      await expect(chat.locator('.greeting-bubble')).toHaveText(greeting);
      await expect(composer).toBeEditable();
      await composer.fill(text);
      await chat.getByRole('button', { name: 'Send' }).click();
      await expect(chat.locator('.bubble.visitor', { hasText: text })).not.toHaveClass(/pending|failed/);
      await visitor.screenshot({ path: `${shots}-chat.png` });
      // The loader keeps the visitor's token in the website's own storage (the frame's may be blocked).
      await expect
        .poll(() => visitor.evaluate((key) => localStorage.getItem(key), `sb-widget:${locationId}`))
        .not.toBeNull();
      const token = await visitor.evaluate((key) => localStorage.getItem(key), `sb-widget:${locationId}`);
      const visitorId = (
        JSON.parse(Buffer.from(token!.split('.')[0]!, 'base64url').toString('utf8')) as { visitor_id: string }
      ).visitor_id;
      expect(visitorId).toMatch(/^[0-9a-f-]{36}$/);
      await visitorContext.close();

      // The inbox: the list row and the conversation say Website chat and Website visitor, never the id.
      let enquiryId = '';
      await expect
        .poll(async () => {
          const res = await page.request.get('/api/v1/enquiries?channels=widget&page_size=50', { headers });
          const items = (await res.json()).body.items as { id: string; last_message: string | null }[];
          enquiryId = items.find((e) => e.last_message === text)?.id ?? '';
          return enquiryId;
        })
        .not.toBe('');
      await page.goto('/inbox');
      const row = page.getByRole('link').filter({ hasText: text });
      await expect(row).toContainText('Website chat');
      await expect(row).toContainText('Website visitor');
      await expect(row).not.toContainText('SMS');
      await page.screenshot({ path: `${shots}-inbox-list.png` });
      await row.click();
      await expect(page).toHaveURL(new RegExp(`/inbox/${enquiryId}`));
      await expect(page.getByRole('heading', { name: 'Website visitor', level: 2 })).toBeVisible();
      await expect(page.locator('.ib-view-head')).toContainText('Website chat');
      await expect(page.getByText(text).last()).toBeVisible();
      await page.screenshot({ path: `${shots}-inbox-conversation.png` });
      await expect(page.locator('body')).not.toContainText(visitorId);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        size.viewport.width,
      );
    } finally {
      await page.request.put(`/api/v1/business/locations/${locationId}/widget`, {
        headers,
        data: { title: null, color: '#1E75FF', greeting: null, fields: DEFAULT_FIELDS },
      });
      await page.request.delete('/api/v1/business/mybusinessimage', { headers });
      await context.close();
    }
  });
}
