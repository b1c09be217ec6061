import { type APIRequestContext, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, LOGINS } from '../fixtures/logins.ts';

type Enquiry = { id: string; channel: string; customer: { name: string | null; email: string | null } };

async function apiToken(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post('/api/v1/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(response.ok()).toBe(true);
  return (await response.json()).body.token;
}

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
