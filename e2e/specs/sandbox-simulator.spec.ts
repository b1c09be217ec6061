import { apiToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/** A fresh Australian mobile number per run, so each run starts a new enquiry. */
const mobile = () => `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

test('a person plays a customer texting the business and sees the reply arrive', async ({
  page,
  request,
}) => {
  await logIn(page, LOGINS.owner.email);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Sandbox' }).click();
  await expect(page).toHaveURL(/\/sandbox$/);
  await expect(page.getByRole('heading', { name: 'Sandbox simulator', level: 3 })).toBeVisible();

  await page.getByLabel('Customer phone').fill(mobile());
  await page.getByLabel('Customer name').fill('Casey Simulator');
  await page.getByLabel('Message', { exact: true }).fill('Hi! Can I book a check-up on Saturday?');
  const inbound = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/sandbox/inbound') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Send as customer' }).click();
  const sent = await inbound;
  expect(sent.ok()).toBe(true);
  const enquiryId: string = (await sent.json()).body.enquiry_id;

  const conversation = page.getByRole('log', { name: 'Conversation' });
  const fromCustomer = conversation.getByRole('listitem', { name: 'From the customer' });
  const fromBusiness = conversation.getByRole('listitem', { name: 'From the business' });
  await expect(fromCustomer).toHaveCount(1);
  await expect(fromCustomer).toContainText('Hi! Can I book a check-up on Saturday?');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');

  // The business replies (as the inbox would); the simulator picks it up on its next poll.
  const token = await apiToken(request, LOGINS.owner.email);
  const reply = await request.post(`/api/v1/enquiries/${enquiryId}/messages`, {
    headers: { authorization: `Bearer ${token}` },
    data: { message: 'Yes, 9:30 on Saturday is free. Shall I book it?' },
  });
  expect(reply.ok(), await reply.text()).toBe(true);
  await expect(fromBusiness).toContainText('Yes, 9:30 on Saturday is free.');
  await expect(fromBusiness).toContainText(/sent|delivered/);

  // The customer answers in the same conversation.
  await page.getByLabel('Message', { exact: true }).fill('Yes please!');
  await page.getByRole('button', { name: 'Send as customer' }).click();
  await expect(fromCustomer).toHaveCount(2);
  await expect(fromCustomer.last()).toContainText('Yes please!');
  await expect(fromBusiness).toHaveCount(1);
});
