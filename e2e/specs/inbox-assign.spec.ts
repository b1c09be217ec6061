import type { Page } from '@playwright/test';
import { apiToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

const SAM = { email: 'staff1@harbourside.test', name: 'Sam Nguyen' };

const enquiryLink = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Enquiries' }).getByRole('link', { name: new RegExp(name) });

test('the owner assigns an enquiry to a teammate, who finds it under Mine; the list filters by assignee', async ({
  browser,
  page,
  request,
}) => {
  const token = await apiToken(request, LOGINS.owner.email);
  const me = (
    await (await request.get('/api/v1/user/me', { headers: { authorization: `Bearer ${token}` } })).json()
  ).body as { businesses: { selected: boolean; locations: { id: string; selected: boolean }[] }[] };
  const locationId = me.businesses.find((b) => b.selected)!.locations.find((l) => l.selected)!.id;
  const customer = `Assign Me ${Date.now() % 100000}`;
  const sent = await request.post('/api/v1/sandbox/inbound', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      channel: 'sms',
      location_id: locationId,
      from: { phone: `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: customer },
      message: 'Can someone call me about my crown?',
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);

  // Sam's inbox is open on "Mine" before anything is assigned.
  const samContext = await browser.newContext();
  const sam = await samContext.newPage();
  await logIn(sam, SAM.email);
  await sam.locator('.ant-segmented').getByText('Mine', { exact: true }).click();
  await expect(sam).toHaveURL(/view=mine/);
  await expect(enquiryLink(sam, customer)).toHaveCount(0);

  // The owner assigns it to Sam from the enquiry's header.
  await logIn(page, LOGINS.owner.email);
  await enquiryLink(page, customer).click();
  await expect(page.locator('.ib-view-head').getByText('Unassigned', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Assign to a teammate' }).click();
  await page.getByRole('menuitem', { name: SAM.name }).click();
  await expect(page.locator('.ib-view-head').getByText(`Assigned to ${SAM.name}`)).toBeVisible();

  // Sam sees it arrive under Mine, live.
  await expect(enquiryLink(sam, customer)).toBeVisible();
  await samContext.close();

  // The owner's list filtered to Sam's enquiries shows it, with a chip naming him; a reload keeps the filter.
  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByLabel('Assigned to').click();
  await page.locator('.ant-select-dropdown').getByTitle(SAM.name).click();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText(`Assigned to ${SAM.name}`).first()).toBeVisible();
  await expect(page).toHaveURL(/assigned_to=/);
  await expect(enquiryLink(page, customer)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: `Remove filter Assigned to ${SAM.name}` })).toBeVisible();
  await expect(enquiryLink(page, customer)).toBeVisible();

  // Unassigning takes it out of the filtered list.
  await enquiryLink(page, customer).click();
  await page.getByRole('button', { name: 'Assign to a teammate' }).click();
  await page.getByRole('menuitem', { name: 'Unassign' }).click();
  await expect(page.locator('.ib-view-head').getByText('Unassigned', { exact: true })).toBeVisible();
  await expect(enquiryLink(page, customer)).toHaveCount(0);
});
