import { logIn, SIGNUP_PASSWORD, signUpThroughApi } from '../fixtures/app.ts';
import { SESSION_EXPIRED_NOTICE } from '../fixtures/logins.ts';
import { readMail } from '../fixtures/mail.ts';
import { expect, test } from '../fixtures/test.ts';

const NEW_PASSWORD = 'my brand new password';

test('a forgotten password: the emailed link sets a new one, signs out the other sessions and is noted in the audit log', async ({
  browser,
  page,
}) => {
  const stamp = Date.now();
  const email = `rhea-${stamp}@resetclinic.test`;
  await signUpThroughApi(page.request, `Reset Clinic ${stamp}`, email);
  // Signed in elsewhere with the old password.
  const elsewhere = await (await browser.newContext()).newPage();
  await logIn(elsewhere, email, SIGNUP_PASSWORD);

  // From the login page, with the email typed so far carried along.
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  const sent = `If an account uses ${email}, we have sent it a link to choose a new password.`;
  await expect(page.getByRole('status')).toContainText(sent);

  // An address with no account gets the same words.
  await page.getByRole('button', { name: 'Try another email' }).click();
  await page.getByLabel('Email').fill(`nobody-${stamp}@resetclinic.test`);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('status')).toContainText(
    `If an account uses nobody-${stamp}@resetclinic.test, we have sent it a link to choose a new password.`,
  );

  const mail = await readMail(email, /^Reset your Switchboard password$/);
  const link = new URL(/https?:\/\/\S+\/reset-password#token=[\w-]+/.exec(mail.text)![0]);
  await page.goto(link.pathname + link.hash);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(`For ${email}.`)).toBeVisible();
  // The secret leaves the address bar at once.
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('New password again').fill('something else');
  await page.getByRole('button', { name: 'Set my new password' }).click();
  await expect(page.getByText('The two passwords are not the same')).toBeVisible();
  await page.getByLabel('New password again').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set my new password' }).click();

  // Signed in with it; the other browser's session has ended.
  await expect(page).toHaveURL(/\/inbox/);
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
  await elsewhere.reload();
  await elsewhere.getByText(SESSION_EXPIRED_NOTICE).waitFor();
  await expect(elsewhere.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await logIn(elsewhere, email, NEW_PASSWORD);

  // The owner's audit log says so.
  await page.goto('/settings/audit-log');
  await expect(page.getByText('user password reset').first()).toBeVisible();

  // The link works once: opened again it says why and offers a new one.
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link.pathname + link.hash);
  await expect(fresh.getByText('This link does not work any more')).toBeVisible();
  await expect(fresh.getByText(/already been used/)).toBeVisible();
  await fresh.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(fresh.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
});
