import { logIn, SIGNUP_PASSWORD as PASSWORD, signedInApi, signUpThroughApi } from '../fixtures/app.ts';
import { readMail } from '../fixtures/mail.ts';
import { expect, test } from '../fixtures/test.ts';

test('an owner invites someone to one location; they join from the email and work there until given every location', async ({
  browser,
  page,
}) => {
  const stamp = Date.now();
  const name = `Team Clinic ${stamp}`;
  const ownerEmail = `owen-${stamp}@teamclinic.test`;
  const inviteeEmail = `ivy-${stamp}@teamclinic.test`;
  await signUpThroughApi(page.request, name, ownerEmail);
  await logIn(page, ownerEmail, PASSWORD);
  const { headers } = await signedInApi(page);
  const added = await page.request.post('/api/v1/business/locations', {
    headers,
    data: { name: 'North Wing' },
  });
  expect(added.ok(), await added.text()).toBe(true);

  // The owner invites Ivy to the North Wing only.
  await page.goto('/settings/team');
  await page.getByLabel('Email').fill(inviteeEmail);
  await page.getByLabel('Name (optional)').fill('Ivy Invited');
  await page.getByLabel('Works at').click();
  await page.locator('.ant-select-dropdown').getByTitle('North Wing').click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${inviteeEmail}.`)).toBeVisible();
  await expect(page.getByText(/Team member at North Wing · invited by Owen Owner/)).toBeVisible();

  // Ivy opens the link from the email in her own browser and sets her password.
  // A fixed subject; what the owner typed is in the body, quoted as theirs.
  const mail = await readMail(inviteeEmail, /^You're invited to join a team on Switchboard$/);
  expect(mail.text).toContain(`Business: “${name}”`);
  expect(mail.text).toContain('Invited by: “Owen Owner”');
  expect(mail.text).toContain('Locations: “North Wing”');
  const link = new URL(/https?:\/\/[^\s]+\/signup\/invite\?secret=[\w-]+/.exec(mail.text)![0]);
  const ivy = await (await browser.newContext()).newPage();
  await ivy.goto(link.pathname + link.search);
  await expect(ivy.getByRole('heading', { name: `Join ${name}` })).toBeVisible();
  await expect(ivy.getByText('Owen Owner invited')).toContainText('as a team member at North Wing.');
  // The name the owner typed is there to keep or correct.
  await expect(ivy.getByLabel('Your name')).toHaveValue('Ivy Invited');
  await ivy.getByLabel('Choose a password').fill('ivy has a long password');
  await ivy.getByRole('button', { name: `Join ${name}` }).click();
  await expect(ivy).toHaveURL(/\/inbox/);
  // The email's link opened again later says it was used, and offers to log in.
  const later = await (await browser.newContext()).newPage();
  await later.goto(link.pathname + link.search);
  await expect(later.getByText('This invitation was used already.')).toBeVisible();
  await later.getByRole('button', { name: 'Log in' }).click();
  await expect(later.getByLabel('Email')).toBeVisible();
  await later.close();
  await expect(ivy.locator('.app-header')).toContainText(name);
  // Her location is the North Wing, and it is the only one she can choose.
  const location = ivy.getByLabel('Location');
  await expect(ivy.locator('.app-header')).toContainText('North Wing');
  await location.click();
  const options = ivy.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options).toHaveText(['North Wing']);
  await ivy.keyboard.press('Escape');

  // The owner sees where she works, and gives her every location.
  await page.reload();
  const row = page.getByRole('listitem').filter({ hasText: inviteeEmail });
  await expect(row).toContainText('North Wing');
  await row.getByRole('button', { name: 'Locations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Where Ivy Invited works' });
  // Taking North Wing off leaves none chosen: every location.
  await dialog.locator('.ant-select-selection-item-remove').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Ivy Invited now works at every location.')).toBeVisible();
  await expect(row).toContainText('All locations');

  // Her open inbox hears of it: both locations can be chosen now, and both at once.
  await expect(async () => {
    if (!(await options.first().isVisible())) await location.click();
    await expect(options).toHaveText(['All locations', `${name} Main St`, 'North Wing'], { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});
