import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { conversationAction, logIn } from '../fixtures/app.ts';
import { DEMO_PASSWORD, LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/**
 * A receptionist covering two locations of a practice, on a desktop and on a phone: All locations means theirs,
 * news at the other one is told, a search finds what is at the other one; mentions are kept, rows name who has
 * each enquiry, the thread says who assigned and closed, "close and go to next", and the Open count matches
 * the Open list while something sleeps.
 */

const SIZES = [
  { label: 'desktop', viewport: { width: 1440, height: 900 }, touch: false },
  { label: 'phone', viewport: { width: 390, height: 844 }, touch: true },
] as const;
const SHOTS = process.env.E2E_SHOTS_DIR;

// Each test walks a whole shift's worth of steps with two people; the machine is shared with other runs.
test.describe.configure({ timeout: 300_000 });

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are the API's; each test reads what it needs.
type Json = any;
type Api = {
  headers: Record<string, string>;
  get(url: string): Promise<Json>;
  send(method: string, url: string, data?: unknown): Promise<Json>;
};

async function apiAs(request: APIRequestContext, email: string): Promise<Api> {
  const login = await request.post('/api/v1/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  const headers = { authorization: `Bearer ${(await login.json()).body.token}` };
  const call = async (method: string, url: string, data?: unknown) => {
    const res = await request.fetch(`/api/v1${url}`, { method, headers, data });
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()).body;
  };
  return { headers, get: (url) => call('GET', url), send: call };
}

const phone = () => `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

async function writes(owner: Api, locationId: string, name: string, message: string): Promise<string> {
  const body = await owner.send('POST', '/sandbox/inbound', {
    channel: 'sms',
    location_id: locationId,
    from: { phone: phone(), name },
    message,
  });
  return body.enquiry_id;
}

async function openAs(browser: Browser, size: (typeof SIZES)[number], email: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: size.viewport,
    ...(size.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  await logIn(page, email);
  return page;
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const rowLink = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Enquiries' }).getByRole('link', { name: new RegExp(name) });

for (const size of SIZES) {
  test(`staff on two of three locations see both, hear of the other, and find its matches (${size.label})`, async ({
    browser,
    request,
  }) => {
    const owner = await apiAs(request, LOGINS.owner.email);
    const staffApi = await apiAs(request, LOGINS.staff.email);
    const staffMe = await staffApi.get('/user/me');
    const me = await owner.get('/user/me');
    const [docklands, other] = me.businesses.find((b: Json) => b.selected).locations as {
      id: string;
      name: string | null;
    }[];
    const stamp = Date.now() % 100000;
    const northName = `Northside ${stamp}`;
    const north = await owner.send('POST', '/business/locations', { name: northName });
    await owner.send('PUT', `/business/members/${staffMe.id}/locations`, {
      location_ids: [docklands!.id, north.id],
    });
    try {
      const atOther = `Other Place ${stamp}`;
      await writes(owner, other!.id, atOther, 'Not for Sam');
      const page = await openAs(browser, size, LOGINS.staff.email);
      await page.goto('/inbox');
      await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
      const titleBefore = await page.title();

      // A text at Northside while Docklands is shown: a notice, and the count in the title.
      const customer = `Nina North ${stamp}`;
      await writes(owner, north.id, customer, 'Can I move my appointment?');
      const notice = page
        .locator('.ant-notification-notice')
        .filter({ hasText: `New message at ${northName}` });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText(customer);
      await expect(page).not.toHaveTitle(titleBefore);
      await expect(page).toHaveTitle(/^\(\d+\) Switchboard$/);
      await shot(page, `signals-notice-${size.label}`);
      await notice.locator('.ant-notification-notice-close').click();

      // A search for her here finds nothing here, and says where she is.
      await page.getByLabel('Search enquiries').fill(customer);
      await expect(page.getByText(`No matches here — 1 at ${northName}`)).toBeVisible();
      await shot(page, `signals-search-elsewhere-${size.label}`);
      await page.getByRole('button', { name: `Show it at ${northName}` }).click();
      await expect(page).toHaveURL(/location=all/);
      await expect(rowLink(page, customer)).toContainText(northName);
      await page.getByLabel('Search enquiries').fill('');
      await expect(page).not.toHaveURL(/q=/);

      // All locations is theirs: both of theirs listed, the third never.
      await page.getByRole('combobox', { name: 'Location' }).click();
      const options = page.locator('.ant-select-dropdown .ant-select-item-option');
      await expect(options).toHaveCount(3);
      await expect(options.filter({ hasText: 'All locations' })).toHaveCount(1);
      await expect(options.filter({ hasText: northName })).toHaveCount(1);
      await expect(options.filter({ hasText: 'Unknown Location' })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(rowLink(page, customer)).toBeVisible();
      await expect(rowLink(page, atOther)).toHaveCount(0);
      await shot(page, `signals-all-locations-${size.label}`);
      await page.context().close();
    } finally {
      // Sam works everywhere again (Northside keeps its enquiries: a location with some cannot be deleted).
      await owner.send('PUT', `/business/members/${staffMe.id}/locations`, { location_ids: null });
    }
  });

  test(`mentions are kept, rows name the assignee, the thread says who did what, close and go to next, Open counts what it lists (${size.label})`, async ({
    browser,
    request,
  }) => {
    const owner = await apiAs(request, LOGINS.owner.email);
    const staffApi = await apiAs(request, LOGINS.staff.email);
    const staffMe = await staffApi.get('/user/me');
    const ownerMe = await owner.get('/user/me');
    const location = staffMe.businesses
      .find((b: Json) => b.selected)
      .locations.find((l: Json) => l.selected).id;
    const stamp = Date.now() % 100000;
    const first = `Mona Mention ${stamp}`;
    const second = `Ned Next ${stamp}`;
    const firstId = await writes(owner, location, first, 'Is the parking free?');
    const secondId = await writes(owner, location, second, 'Do you open Saturdays?');
    // Newest first: Ned above Mona. Olivia takes Ned, so his row names her.
    await owner.send('PATCH', `/enquiries/${secondId}`, { assigned_to: ownerMe.id });

    const page = await openAs(browser, size, LOGINS.staff.email);
    await page.goto('/inbox');
    await expect(rowLink(page, second)).toContainText('Olivia');
    await expect(rowLink(page, first)).not.toContainText('Assigned');

    // Olivia mentions Sam about Mona: the toast stays clear of the conversation's header.
    await page.goto(`/inbox/${secondId}`);
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Do you open Saturdays?');
    await owner.send('POST', `/enquiries/${firstId}/notes`, {
      body: '@Sam Nguyen can you ring her?',
      mentions: [staffMe.id],
    });
    const toast = page.locator('.ant-notification-notice').filter({ hasText: 'mentioned you' });
    await expect(toast).toBeVisible();
    const toastBox = (await toast.boundingBox())!;
    for (const name of ['Close', 'Done, go to next', 'Assign to me']) {
      const button = page.locator('.ib-view-head').getByRole('button', { name, exact: true });
      if (!(await button.isVisible())) continue;
      const box = (await button.boundingBox())!;
      const overlaps =
        box.x < toastBox.x + toastBox.width &&
        toastBox.x < box.x + box.width &&
        box.y < toastBox.y + toastBox.height &&
        toastBox.y < box.y + box.height;
      expect(overlaps, `the toast covers ${name}`).toBe(false);
    }
    await shot(page, `signals-mention-toast-${size.label}`);
    await toast.locator('.ant-notification-notice-close').click();
    await expect(toast).toHaveCount(0);

    // The Mentions view keeps it, unread, until opened.
    await page.goto('/inbox');
    await page.getByRole('button', { name: /^Mentions \(1 unread\)/ }).click();
    await expect(page).toHaveURL(/mentions=1/);
    const mentions = page.getByRole('list', { name: 'Mentions' });
    const mention = mentions.getByRole('link', { name: new RegExp(first) });
    await expect(mention).toContainText('can you ring her?');
    await expect(mention).toContainText('Unread');
    await shot(page, `signals-mentions-${size.label}`);
    await mention.click();
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Is the parking free?');
    await page.goto('/inbox');
    // Opened, so read: the badge is gone.
    await expect(page.getByRole('button', { name: 'Mentions', exact: true })).toBeVisible();

    // Sam takes Mona: the thread says so. Then Close and go to next lands on the enquiry below her.
    const openTab = page.getByRole('tab', { name: /Open/ });
    await expect(rowLink(page, first)).toBeVisible();
    const openBefore = Number(((await openTab.textContent()) ?? '').replace(/\D/g, ''));
    const names = await page
      .getByRole('list', { name: 'Enquiries' })
      .locator('.ib-row-name')
      .allTextContents();
    const nextName = names[names.indexOf(first) + 1];
    await rowLink(page, first).click();
    await conversationAction(page, 'Assign to me');
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText(
      'Assigned to Sam Nguyen by themselves',
    );
    await conversationAction(page, 'Done, go to next');
    await expect(page).not.toHaveURL(new RegExp(firstId));
    await expect(page).toHaveURL(/\/inbox\/[0-9a-f-]{36}/);
    if (nextName) await expect(page.locator('.ib-view-head h2')).toHaveText(nextName);
    await shot(page, `signals-next-${size.label}`);
    await page.goto('/inbox');
    await expect(openTab).toContainText(String(openBefore - 1));

    // Snoozing Ned takes him off Open and off its count, live; the count is the list's.
    await owner.send('PATCH', `/enquiries/${secondId}`, {
      snoozed_until: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await expect(rowLink(page, second)).toHaveCount(0);
    await expect(openTab).toContainText(String(openBefore - 2));
    const listed = await owner.get(`/enquiries?status=open&location_id=${location}&page_size=100`);
    const counts = await owner.get(`/enquiries/counts?location_id=${location}`);
    expect(counts.assigned_count_open + counts.unassigned_count_open).toBe(
      listed.total ?? listed.items.length,
    );
    await owner.send('PATCH', `/enquiries/${secondId}`, { snoozed_until: null });
    await expect(openTab).toContainText(String(openBefore - 1));
    await page.context().close();
  });
}
