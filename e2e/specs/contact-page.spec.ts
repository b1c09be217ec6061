import { apiToken } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

type Enquiry = { id: string; channel: string; customer: { name: string | null; email: string | null } };

test('a customer sends the hosted contact form and the business gets a contact form enquiry', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, LOGINS.owner.email);
  const auth = { authorization: `Bearer ${token}` };
  const webhook = await request.get('/api/v1/business/mybusiness/contact-form-webhook', { headers: auth });
  expect(webhook.ok()).toBe(true);
  const formToken = String((await webhook.json()).body.url)
    .split('/')
    .pop();
  const me = (await (await request.get('/api/v1/user/me', { headers: auth })).json()).body as {
    businesses: { selected: boolean; locations: { id: string; selected: boolean }[] }[];
  };
  const business = me.businesses.find((b) => b.selected);
  const locationId = (business?.locations.find((l) => l.selected) ?? business?.locations[0])?.id;
  const email = `jordan.${Date.now()}@example.com`;

  // Signed out: the page is public and has none of the app around it.
  await page.goto(`/contact?to=${formToken}&location=${locationId}`);
  // In the business's name, at the location the link names, with its address.
  await expect(page.getByRole('heading', { level: 1, name: 'Harbourside Dental' })).toBeVisible();
  await expect(
    page.getByText('Harbourside Dental Docklands · 12 Harbour Esplanade, Docklands VIC 3008'),
  ).toBeVisible();
  await expect(page.getByText('Switchboard')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Contact us' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  // The server's 422 is shown beside the form.
  await page.getByLabel('Name', { exact: true }).fill('Jordan Webb');
  await page.getByLabel('Message', { exact: true }).fill('Do you take new patients on Saturdays?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Please give an email address or a phone number' }),
  ).toBeVisible();

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();

  const list = await request.get('/api/v1/enquiries', {
    headers: auth,
    params: { channels: 'contact_form', page_size: 50 },
  });
  expect(list.ok(), await list.text()).toBe(true);
  const items = (await list.json()).body.items as Enquiry[];
  const enquiry = items.find((e) => e.customer.email === email);
  expect(enquiry?.channel).toBe('contact_form');
  expect(enquiry?.customer.name).toBe('Jordan Webb');
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('the contact page shows the business logo, asks which location when the link names none, fits a phone, and an unknown link says the form is not available', async ({
  browser,
  request,
}) => {
  const token = await apiToken(request, LOGINS.owner.email);
  const auth = { authorization: `Bearer ${token}` };
  const webhook = await request.get('/api/v1/business/mybusiness/contact-form-webhook', { headers: auth });
  const formToken = String((await webhook.json()).body.url)
    .split('/')
    .pop();
  const logo = await request.put('/api/v1/business/mybusinessimage', {
    headers: auth,
    multipart: { image: { name: 'logo.png', mimeType: 'image/png', buffer: PNG } },
  });
  expect(logo.ok(), await logo.text()).toBe(true);

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  try {
    await page.goto(`/contact?to=${formToken}`);
    const img = page.getByRole('img', { name: 'Harbourside Dental logo' });
    await expect(img).toBeVisible();
    // Visible is not loaded: the bytes may still be on their way.
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
    // Two locations and none in the link: the visitor chooses.
    await page.getByLabel('Name', { exact: true }).fill('Ines Park');
    await page.getByLabel('Email', { exact: true }).fill(`ines.${Date.now()}@example.com`);
    await page.getByLabel('Message', { exact: true }).fill('Which location has parking?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Choose the location to write to.')).toBeVisible();
    await page.getByLabel('Location', { exact: true }).click();
    await page.getByTitle(/^Harbourside Dental Docklands/).click();
    await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();

    await page.goto('/contact?to=0123456789abcdef0123456789abcdef');
    await expect(page.getByText('This form is not available')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send message' })).toHaveCount(0);
  } finally {
    await request.delete('/api/v1/business/mybusinessimage', { headers: auth });
    await context.close();
  }
});
