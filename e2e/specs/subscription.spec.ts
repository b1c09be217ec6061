import type { Page } from '@playwright/test';
import { customerWrites, logIn, SIGNUP_PASSWORD as PASSWORD, signUpThroughApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

async function adminOpensDrawer(admin: Page, name: string) {
  await admin.goto('/admin');
  await admin.getByLabel('Search businesses').fill(name);
  await admin.getByLabel('Search businesses').press('Enter');
  await admin.getByRole('button', { name }).click();
  await expect(admin.getByRole('dialog', { name })).toBeVisible();
}

test('an ended trial, a plan bought in the sandbox, a failed payment, and an administrator helping', async ({
  browser,
}) => {
  const name = `Trial Cafe ${Date.now()}`;
  const email = `tess-${Date.now()}@trialcafe.test`;
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signUpThroughApi(owner.request, name, email);
  await logIn(owner, email, PASSWORD);
  const banner = owner.getByTestId('account-banner');
  // Its email was confirmed by the sign-up code: the strip counts the trial's days.
  await expect(banner).toContainText(/\d+ days left in your free trial/);

  // The administrator ends the trial; the owner's page says so at once.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logIn(admin, LOGINS.admin.email);
  await adminOpensDrawer(admin, name);
  await admin.getByRole('button', { name: 'End the trial now' }).click();
  await expect(admin.getByRole('dialog', { name }).getByText('trial expired')).toBeVisible();
  await expect(banner).toContainText('Your free trial has ended');

  // Reading still works; sending is refused with what to do.
  const enquiryId = await customerWrites(owner, 'Chris Customer', 'Are you open on Sunday?');
  await owner.goto(`/inbox/${enquiryId}`);
  await expect(owner.locator('.ib-thread').getByText('Are you open on Sunday?')).toBeVisible();
  const composer = owner.getByRole('textbox', { name: 'Message' });
  await composer.fill('Yes, 9 to 5.');
  await composer.press('Control+Enter');
  await expect(owner.getByText(/free trial has ended\. Choose a plan/).first()).toBeVisible();

  // The owner buys the monthly plan on the sandbox payment page.
  await banner.getByRole('button', { name: 'Choose a plan' }).click();
  await expect(owner.getByRole('heading', { name: 'Subscription' })).toBeVisible();
  await owner.getByLabel('Promotion code').fill('welcome20');
  await owner.getByRole('button', { name: 'Check the code' }).click();
  await expect(owner.getByText(/^WELCOME20: 20% off for 3 months\./)).toBeVisible();
  await owner.getByRole('button', { name: 'Choose monthly' }).click();
  await expect(owner.getByText('Sandbox payment page: no card is charged.')).toBeVisible();
  await owner.getByRole('button', { name: /^Pay / }).click();
  await expect(owner).toHaveURL(/\/settings\/subscription\?checkout=done/);
  await expect(owner.getByRole('heading', { name: 'Monthly plan' })).toBeVisible();
  // The discount bought stays on the page, beside the business's referral link in words.
  await expect(owner.getByTestId('subscription-promotion')).toHaveText(
    'Bought with the code WELCOME20: 20% off for 3 months.',
  );
  await expect(owner.getByTestId('referral-link')).toContainText(/\/signup\?ref=trial-cafe-\d+-[a-z0-9]{6}$/);

  // A failed payment, as Stripe's portal and its retry would report it: the banner says when the card is tried again.
  await owner.getByRole('button', { name: 'Manage billing, card and invoices' }).click();
  await owner.getByRole('button', { name: 'Make the next payment fail' }).click();
  await expect(banner).toContainText(/Your last payment failed\. We will try your card again on/);
  await expect(banner.getByRole('button', { name: 'Update my card' })).toBeVisible();

  // The administrator opens the business, sees the banner, and exits to the console.
  await admin.getByRole('button', { name: 'Open this business' }).click();
  const adminBanner = admin.getByTestId('admin-banner');
  await expect(adminBanner).toContainText(`You are in ${name} as a Switchboard administrator`);
  await expect(admin.locator('.app-header')).toContainText(name);
  await adminBanner.getByRole('button', { name: 'Exit to the admin console' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole('heading', { name: 'Admin console' })).toBeVisible();

  // The owner sees what the administrator did in the audit log.
  await owner.goto('/settings/audit-log');
  await expect(owner.getByText('Switchboard administrator entered the business').first()).toBeVisible();
  await expect(owner.getByText('Came in from the Switchboard admin console.').first()).toBeVisible();
  await expect(owner.getByText('admin business update').first()).toBeVisible();
  await ownerContext.close();
  await adminContext.close();
});
