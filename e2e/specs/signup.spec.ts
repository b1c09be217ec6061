import { expect, test } from '@playwright/test';
import { customerWrites } from '../fixtures/app.ts';
import { readMail } from '../fixtures/mail.ts';

test('a new business signs up from the login page, confirms its email from the link and replies', async ({
  page,
}) => {
  const email = `owner-${Date.now()}@bayside.test`;
  await page.goto('/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

  await page.getByLabel('Business name').fill('Bayside Physio');
  await page.getByLabel('Your name').fill('Bea Bayside');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByLabel('Country').click();
  await page.keyboard.type('Australia');
  await page.keyboard.press('Enter');
  await page.getByLabel('Mobile').fill('0412 345 678');
  // The first location is named after the business until someone names it.
  await expect(page.getByLabel('First location')).toHaveValue('Bayside Physio');
  // A person takes longer than the bot check's minimum; the test waits it out.
  await page.waitForTimeout(1200);
  await page.getByRole('button', { name: 'Start my free trial' }).click();

  await expect(page.getByRole('heading', { name: 'Confirm your mobile' })).toBeVisible();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  const sandbox = page.getByText(/Sandbox mode: no text was sent/);
  const code = /code is (\d{6})/.exec((await sandbox.textContent()) ?? '')?.[1];
  expect(code).toBeDefined();
  await page.getByLabel('Code').fill('000000' === code ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm my mobile' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That code is not right. 4 tries left.' }),
  ).toBeVisible();
  await page.getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Confirm my mobile' }).click();
  await expect(page.getByText('+61412345678 is confirmed as your mobile.')).toBeVisible();
  await page.getByRole('button', { name: 'Open my inbox' }).click();

  // In the inbox, on its own business, told why it cannot send yet.
  await expect(page).toHaveURL(/\/inbox/);
  const banner = page.getByTestId('account-banner');
  await expect(banner).toContainText('Confirm your email address to send messages to customers');
  await expect(page.locator('.app-header')).toContainText('Bayside Physio');

  const enquiryId = await customerWrites(page, 'Carla Customer', 'Do you have a Saturday appointment?');
  await page.goto(`/inbox/${enquiryId}`);
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Yes, 10 am works.');
  await composer.press('Control+Enter');
  await expect(page.getByText(/or send a new one from the banner/).first()).toBeVisible();

  // The link from the email confirms the business; the banner turns to the trial's days.
  const mail = await readMail(email, /^Confirm your email for Bayside Physio/);
  const link = /https?:\/\/[^\s]+\/signup\/confirm\?secret=[\w-]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(page.getByText('Your email is confirmed')).toBeVisible();
  await page.getByRole('button', { name: 'Open my inbox' }).click();
  await expect(banner).toContainText(/\d+ days left in your free trial/);

  // Opened again, the link has done its work: it says so rather than failing.
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(page.getByText('Your email is confirmed')).toBeVisible();

  await page.goto(`/inbox/${enquiryId}`);
  await composer.fill('Yes, 10 am works.');
  await composer.press('Control+Enter');
  await expect(page.locator('.ib-thread').getByText('Yes, 10 am works.')).toBeVisible();
});

test('an expired confirmation link offers a new one', async ({ page }) => {
  await page.goto('/signup/confirm?secret=not-a-real-secret');
  await expect(page.getByText('This link does not work any more')).toBeVisible();
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(page.getByRole('alert')).toContainText('This link is not one of ours');
});
