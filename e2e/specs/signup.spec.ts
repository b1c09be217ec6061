import type { Page } from '@playwright/test';
import { customerWrites, emailedSignupCode } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { readMail } from '../fixtures/mail.ts';
import { expect, test } from '../fixtures/test.ts';

/** Fills the sign-up form as a person would and sends it (after the bot check's minimum time). */
async function fillSignup(page: Page, email: string) {
  await page.goto('/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  // Sent empty, each field says what it needs in words, not its label pasted into a template.
  await page.getByRole('button', { name: 'Start my free trial' }).click();
  await expect(page.getByText('Please enter the business name')).toBeVisible();
  await expect(page.getByText('Please enter your name')).toBeVisible();
  await expect(page.getByText('Please enter your work email')).toBeVisible();
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
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(`We emailed a six-digit code to ${email}`)).toBeVisible();
}

test('a new business signs up from the login page, confirms its email with the emailed code and replies at once', async ({
  page,
}) => {
  const email = `owner-${Date.now()}@bayside.test`;
  await fillSignup(page, email);

  const code = await emailedSignupCode(email);
  await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That code is not right. 4 tries left.' }),
  ).toBeVisible();
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Create my account' }).click();

  await expect(page.getByRole('heading', { name: 'Confirm your mobile' })).toBeVisible();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  const sandbox = page.getByText(/Sandbox mode: no text was sent/);
  const mobileCode = /code is (\d{6})/.exec((await sandbox.textContent()) ?? '')?.[1];
  expect(mobileCode).toBeDefined();
  await page.getByLabel('Code').fill(mobileCode === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm my mobile' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That code is not right. 4 tries left.' }),
  ).toBeVisible();
  await page.getByLabel('Code').fill(mobileCode!);
  await page.getByRole('button', { name: 'Confirm my mobile' }).click();
  await expect(page.getByText('+61 412 345 678 is confirmed as your mobile.')).toBeVisible();
  await page.getByRole('button', { name: 'Open my inbox' }).click();

  // In the inbox, on its own business, its email confirmed by the code: the strip shows the trial's days.
  await expect(page).toHaveURL(/\/inbox/);
  await expect(page.locator('.app-header')).toContainText('Bayside Physio');
  await expect(page.getByTestId('account-banner')).toContainText(/\d+ days left in your free trial/);

  const enquiryId = await customerWrites(page, 'Carla Customer', 'Do you have a Saturday appointment?');
  await page.goto(`/inbox/${enquiryId}`);
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Yes, 10 am works.');
  await composer.press('Control+Enter');
  await expect(page.locator('.ib-thread').getByText('Yes, 10 am works.')).toBeVisible();
});

test('signing up with an address that has an account looks the same on screen; its owner is emailed instead', async ({
  page,
}) => {
  const taken = LOGINS.staff.email;
  await fillSignup(page, taken);

  const told = await readMail(taken, /^You already have a Switchboard account$/);
  expect(told.text).toContain('/forgot-password');
  // No code was sent, so none works; the refusal reads as for a wrong code.
  await page.getByLabel('Code').fill('123456');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That code is not right. 4 tries left.' }),
  ).toBeVisible();

  // The details are still there to change.
  await page.getByRole('button', { name: 'Change my details' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByLabel('Work email')).toHaveValue(taken);
  await expect(page.getByLabel('Business name')).toHaveValue('Bayside Physio');
});

test('an expired confirmation link offers a new one', async ({ page }) => {
  await page.goto('/signup/confirm?secret=not-a-real-secret');
  await expect(page.getByText('This link does not work any more')).toBeVisible();
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(page.getByRole('alert')).toContainText('This link is not one of ours');
});
