import { customerWrites, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

test('the owner links the review page, asks from a conversation, the customer opens the link, and the reminder is cancelled', async ({
  page,
}) => {
  await logIn(page, LOGINS.owner.email);
  const enquiryId = await customerWrites(page, 'Rhea Review', 'Thanks, all done!');

  // The owner links the location to its Business Profile place and writes the message.
  await page.goto('/reviews');
  await page.getByLabel('Google Business Profile place').first().click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: 'Harbourside Dental Docklands' })
    .click();
  await expect(page.getByLabel('Review link').first()).toHaveValue(
    /^https:\/\/search\.google\.com\/local\/writereview\?placeid=/,
  );
  await page
    .getByLabel('Review message')
    .first()
    .fill('Hi {first_name}, thanks for visiting {location_name}! Would you review us?');
  await expect(page.getByLabel('Preview of the review message').first()).toContainText(
    'Hi Alex, thanks for visiting Harbourside Dental Docklands! Would you review us?',
  );
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByText(/Review settings for Harbourside Dental Docklands saved/)).toBeVisible();

  // From the conversation.
  await page.goto(`/inbox/${enquiryId}`);
  await page.getByRole('button', { name: 'Ask for a review' }).click();
  await page.getByRole('button', { name: 'Send', exact: true }).last().click();
  await expect(page.getByText('Review request sent to Rhea Review.')).toBeVisible();
  const asked = page.locator('.ib-msg').filter({ hasText: 'Would you review us?' }).last();
  await expect(asked).toContainText('Hi Rhea, thanks for visiting Harbourside Dental Docklands!');
  const link = ((await asked.textContent()) ?? '').match(/https?:\/\/\S+?\/r\/[\w-]{8}/)![0];

  // The customer opens the short link: recorded, then sent on to Google's review form.
  const opened = await page.request.get(link, { maxRedirects: 0 });
  expect(opened.status()).toBe(302);
  expect(opened.headers().location).toMatch(/^https:\/\/search\.google\.com\/local\/writereview\?placeid=/);
  await expect(
    page.getByRole('listitem', { name: 'Activity' }).filter({ hasText: 'Opened the review link.' }),
  ).toBeVisible();

  // The reviews page shows it opened, its reminder stopped.
  await page.goto('/reviews');
  const row = page.getByRole('row').filter({ hasText: 'Rhea Review' });
  await expect(row).toContainText('Opened');
  await expect(row).toContainText('stopped: link opened');
});
