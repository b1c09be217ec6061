import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { apiToken, conversationAction, customerWrites, logIn, selectedLocationId } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/**
 * Every form whose server can refuse what a person typed (beyond what the form itself checks): the refusal
 * shows under the field it is about, in the server's words, and never as a fault on our side.
 */

type Size = { name: string; viewport: { width: number; height: number }; touch: boolean };

const SIZES: Size[] = [
  { name: '1440x900', viewport: { width: 1440, height: 900 }, touch: false },
  { name: '390x844', viewport: { width: 390, height: 844 }, touch: true },
];

type Case = {
  form: string;
  /** Opens the form, types the refused value and sends it; answers the part of the page the form is in. */
  trip: (page: Page, request: APIRequestContext) => Promise<Page | Locator>;
  /** The field's label. */
  field: string | RegExp;
  /** What the server says about it. */
  says: string | RegExp;
};

/** The hosted contact form's address for the owner's selected location, as their settings give it. */
async function contactFormPath(request: APIRequestContext): Promise<string> {
  const token = await apiToken(request, LOGINS.owner.email);
  const res = await request.get('/api/v1/business/mybusiness/contact-form-webhook', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.ok()).toBe(true);
  const formToken = String((await res.json()).body.url)
    .split('/')
    .pop();
  return `/contact?to=${formToken}&location=${await selectedLocationId(request, token)}`;
}

/** Opens a section of the assistant's settings: a tab, or on a phone a choice in the Section list. */
async function assistantSection(page: Page, name: string) {
  const tab = page.getByRole('tab', { name });
  const section = page.getByLabel('Section');
  await expect(tab.or(section).first()).toBeVisible();
  if (await tab.isVisible()) return tab.click();
  await section.click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: name })
    .click();
}

/** Before signing in: the pages anyone can open. */
const SIGNED_OUT: Case[] = [
  {
    form: 'sign-up: a mobile number that is not one',
    trip: async (page) => {
      await page.goto('/');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Business name').fill('Bayside Physio');
      await page.getByLabel('Your name').fill('Bea Bayside');
      await page.getByLabel('Work email').fill(`bea-${Date.now()}@bayside.test`);
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByLabel('Country').click();
      await page.keyboard.type('Australia');
      await page.keyboard.press('Enter');
      await page.getByLabel('Mobile').fill('12');
      // A person takes longer than the bot check's minimum.
      await page.waitForTimeout(1200);
      await page.getByRole('button', { name: 'Start my free trial' }).click();
      return page;
    },
    field: 'Mobile',
    says: 'Please enter a valid mobile number for the country you chose',
  },
  {
    form: 'the website contact form: a phone number that is not one',
    trip: async (page, request) => {
      await page.goto(await contactFormPath(request));
      await page.getByLabel('Name').fill('Jordan Contact');
      await page.getByLabel('Phone').fill('12');
      await page.getByLabel('Message').fill('Can I book a check-up?');
      await page.getByRole('button', { name: 'Send message' }).click();
      return page;
    },
    field: 'Phone',
    says: '12 is not a valid phone number.',
  },
];

/** Signed in as the owner. */
const SIGNED_IN: Case[] = [
  {
    form: 'reviews: a review link without https://',
    trip: async (page) => {
      await page.goto('/reviews');
      await page.getByLabel('Review link').first().fill('g.page/r/harbourside/review');
      await page.getByRole('button', { name: 'Save' }).first().click();
      // The first location's settings, the ones just sent.
      return page;
    },
    field: 'Review link',
    says: 'Give the review link as an https:// address.',
  },
  {
    form: 'team: inviting someone already in the team',
    trip: async (page) => {
      await page.goto('/settings/team');
      await page.getByLabel('Email').fill(LOGINS.staff.email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      return page;
    },
    field: 'Email',
    says: `${LOGINS.staff.email} is already in your team.`,
  },
  {
    form: 'locations: a phone number that is not one',
    trip: async (page) => {
      await page.goto('/locations');
      await page.getByRole('button', { name: 'Edit' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Edit location' });
      await dialog.getByLabel('Phone number').fill('call me');
      await dialog.getByRole('button', { name: 'Save' }).click();
      return dialog;
    },
    field: 'Phone number',
    says: 'Please enter a valid phone number, such as +61 491 570 156 or 0491 570 156',
  },
  {
    form: 'invoices: a quantity with more than three decimals',
    trip: async (page) => {
      const enquiryId = await customerWrites(page, 'Quinn Quantity', 'Could I have the bill?');
      await page.goto(`/inbox/${enquiryId}`);
      await conversationAction(page, 'Invoice');
      await page.getByRole('button', { name: 'New invoice' }).click();
      const editor = page.getByRole('dialog', { name: 'New invoice' });
      await editor.getByLabel('Description of item 1').fill('Check-up');
      await editor.getByLabel('Quantity of item 1').fill('1.2345');
      await editor.getByLabel('Price of item 1').fill('120');
      await editor.getByRole('button', { name: 'Save draft' }).click();
      return editor;
    },
    field: 'Quantity of item 1',
    says: 'A quantity has at most three decimals.',
  },
  {
    form: 'the assistant: a website address it may not read',
    trip: async (page) => {
      await page.goto('/settings/assistant');
      await assistantSection(page, 'Documents');
      await page.getByLabel('Website address').fill('https://127.0.0.1/faq');
      const read = page.getByRole('button', { name: 'Read', exact: true });
      // Clear of the phone's bottom bar.
      await read.evaluate((button) => button.scrollIntoView({ block: 'center' }));
      await read.click();
      return page;
    },
    field: 'Website address',
    says: /^That address cannot be fetched: /,
  },
  {
    form: 'the assistant’s tools: an address placeholder that is not a parameter',
    trip: async (page) => {
      await page.goto('/settings/assistant');
      await assistantSection(page, 'Flows and tools');
      await page.getByRole('button', { name: 'Add tool' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a tool' });
      await dialog.getByLabel('Name', { exact: true }).fill('free_slots');
      await dialog.getByLabel('What it does').fill('Free appointment times on a day');
      await dialog.getByLabel('Address').fill('https://bookings.example.com/slots?day={day}');
      await dialog.getByRole('button', { name: 'Save' }).click();
      return dialog;
    },
    field: 'Address',
    says: '{day} in free_slots is not one of its parameters.',
  },
  {
    form: 'a new message: a phone number that is not one',
    trip: async (page) => {
      await page.goto('/inbox');
      await page.getByRole('button', { name: 'New message' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New message' });
      await dialog.getByLabel('Phone number').fill('12');
      await dialog.getByLabel('Message', { exact: true }).fill('Your crown is ready.');
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
      return dialog;
    },
    field: 'Phone number',
    says: /valid phone number/,
  },
  {
    form: 'the sandbox: a customer phone number that is not one',
    trip: async (page) => {
      await page.goto('/sandbox');
      await page.getByLabel('Customer phone').fill('12');
      await page.getByLabel('Message', { exact: true }).fill('Hello?');
      await page.getByRole('button', { name: 'Send as customer' }).click();
      return page;
    },
    field: 'Customer phone',
    says: '12 is not a valid phone number.',
  },
  {
    form: 'profile: a wrong current password',
    trip: async (page) => {
      await page.goto('/profile');
      await page.getByLabel('Current password').fill('not my password');
      await page.getByLabel('New password', { exact: true }).fill('a brand new password');
      await page.getByLabel('New password again').fill('a brand new password');
      await page.getByRole('button', { name: 'Change password' }).click();
      return page;
    },
    field: 'Current password',
    says: 'The current password is incorrect.',
  },
];

/** The field's own error line (antd's, under the box) says it. */
async function expectAtField(scope: Page | Locator, field: string | RegExp, says: string | RegExp) {
  const exact = typeof field === 'string';
  await expect(scope.getByLabel(field, { exact }).first()).toBeVisible();
  // `has` looks inside each form item, so its locator starts from the page, not from the dialog.
  const page = 'page' in scope ? scope.page() : scope;
  // The first such field: where a page repeats a form (one per location), the first one was sent.
  const item = scope
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel(field, { exact }) })
    .first();
  await expect(item.locator('.ant-form-item-explain-error')).toHaveText(says);
}

async function check(page: Page, request: APIRequestContext, size: Size, c: Case, index: number) {
  await test.step(c.form, async () => {
    const scope = await c.trip(page, request);
    await expectAtField(scope, c.field, c.says);
    await expect(page.getByText(/on our side|Well, this is embarrassing/)).toHaveCount(0);
    const scrollsSideways = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(scrollsSideways, 'the page scrolls sideways').toBe(false);
    await page.screenshot({
      path: test.info().outputPath(`${size.name}-${String(index).padStart(2, '0')}.png`),
    });
  });
}

async function open(browser: Browser, size: Size): Promise<Page> {
  const context = await browser.newContext({
    viewport: size.viewport,
    ...(size.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  return context.newPage();
}

for (const size of SIZES) {
  test(`at ${size.name}, a refused value shows under its field in the server's words`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(600_000);
    const visitor = await open(browser, size);
    for (const [i, c] of SIGNED_OUT.entries()) await check(visitor, request, size, c, i);

    const owner = await open(browser, size);
    await logIn(owner, LOGINS.owner.email);
    for (const [i, c] of SIGNED_IN.entries()) await check(owner, request, size, c, SIGNED_OUT.length + i);
  });
}
