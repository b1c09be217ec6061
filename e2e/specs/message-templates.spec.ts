import type { Page } from '@playwright/test';
import { accessToken, logIn } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

type Me = {
  businesses: {
    name: string;
    selected: boolean;
    locations: { id: string; name: string | null; selected: boolean }[];
  }[];
};

/** The signed-in page's own token, so API calls act in the same session (and location) as the page. */
async function pageToken(page: Page): Promise<string> {
  return accessToken(page);
}

async function openFromSideMenu(page: Page, item: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: item }).click();
}

async function openTemplatesPage(page: Page): Promise<void> {
  await openFromSideMenu(page, 'Message templates');
  await expect(page).toHaveURL(/\/settings\/templates$/);
  await expect(page.getByRole('heading', { name: 'Message templates', level: 3 })).toBeVisible();
}

/** Opens the enquiry from the inbox list (without reloading the app) and then the composer's Templates menu. */
async function openComposerTemplates(page: Page, customer: string): Promise<void> {
  await openFromSideMenu(page, 'Inbox');
  await page
    .getByRole('list', { name: 'Enquiries' })
    .getByRole('link', { name: new RegExp(customer) })
    .click();
  await page.getByRole('button', { name: 'Templates' }).click();
}

const tag = Date.now().toString(36).slice(-5);

test('the owner writes a template with placeholders, the inbox offers it filled in, staff only read it', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  await logIn(page, LOGINS.owner.email);
  const token = await pageToken(page);
  const headers = { authorization: `Bearer ${token}` };
  const me = (await (await page.request.get('/api/v1/user/me', { headers })).json()).body as Me;
  const business = me.businesses.find((b) => b.selected);
  const location = business?.locations.find((l) => l.selected) ?? business?.locations[0];
  if (!business || !location) throw new Error('The demo owner has no business or location');
  // How customers know the location: a location without a name goes by the business's name.
  const spokenLocation = location.name || business.name;

  // A customer writes in to the owner's location, so there is an enquiry to reply to.
  const customer = `Tess Template ${tag}`;
  const inbound = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: {
      channel: 'sms',
      location_id: location.id,
      from: { phone: `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, name: customer },
      message: 'Where do I park?',
    },
  });
  expect(inbound.ok(), await inbound.text()).toBe(true);

  // Add a template on the new settings page.
  await openTemplatesPage(page);
  await page.getByRole('button', { name: 'Add template' }).click();
  const add = page.getByRole('dialog', { name: 'Add template' });
  await add.getByRole('button', { name: 'Add template' }).click();
  await expect(add.getByText('Please enter Name')).toBeVisible();
  await expect(add.getByText('Please enter Message')).toBeVisible();
  const name = add.getByLabel('Name', { exact: true });
  await name.fill('n'.repeat(101));
  await expect(add.getByText('Name must be at most 100 characters')).toBeVisible();
  const parking = `Parking ${tag}`;
  await name.fill(parking);

  // Placeholders go where the cursor is, not at the end.
  const message = add.getByLabel('Message', { exact: true });
  await message.fill('Hi , park behind .');
  await message.press('Home');
  for (let i = 0; i < 'Hi '.length; i++) await message.press('ArrowRight');
  await add.getByRole('button', { name: 'Insert {first_name}' }).click();
  await message.press('End');
  await message.press('ArrowLeft');
  await add.getByRole('button', { name: 'Insert {location_name}' }).click();
  await expect(message).toHaveValue('Hi {first_name}, park behind {location_name}.');
  await expect(add.getByRole('figure', { name: 'Message preview' })).toContainText(
    `Hi Alex, park behind ${spokenLocation}.`,
  );

  // Offered in the owner's location only.
  await add.getByLabel('Location', { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible')
    .getByTitle(location.name ?? 'Unknown Location', { exact: true })
    .click();
  await add.getByRole('button', { name: 'Add template' }).click();
  await expect(page.getByText('Template added')).toBeVisible();
  await expect(add).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(parking) });
  await expect(row).toContainText('Hi {first_name}, park behind {location_name}.');
  await expect(row).toContainText(location.name ?? 'Unknown Location');
  await expect(row.locator('mark')).toHaveText(['{first_name}', '{location_name}']);

  // The inbox offers it for the enquiry, filled in for this customer.
  await openComposerTemplates(page, customer);
  await expect(page.getByRole('menuitem', { name: new RegExp(parking) })).toContainText(
    `Hi Tess, park behind ${spokenLocation}.`,
  );
  await page.keyboard.press('Escape');

  // Edit it; the inbox, still open in the same tab, offers the new wording straight away.
  await openTemplatesPage(page);
  await page.getByRole('button', { name: `Edit ${parking}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit template' });
  await expect(edit.getByLabel('Message', { exact: true })).toHaveValue(
    'Hi {first_name}, park behind {location_name}.',
  );
  const renamed = `Parking and entry ${tag}`;
  await edit.getByLabel('Name', { exact: true }).fill(renamed);
  await edit
    .getByLabel('Message', { exact: true })
    .fill(
      'Hi {first_name}, park behind {location_name} and ring the bell. {business_name} sees you {business_day}!',
    );
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Template saved')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(renamed) })).toContainText('ring the bell');
  await expect(page.getByRole('row', { name: new RegExp(`^${parking}`) })).toHaveCount(0);

  await openComposerTemplates(page, customer);
  await expect(page.getByRole('menuitem', { name: new RegExp(`^${parking}`) })).toHaveCount(0);
  await page.getByRole('menuitem', { name: new RegExp(renamed) }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(
    new RegExp(
      `^Hi Tess, park behind ${spokenLocation} and ring the bell\\. ${business.name} sees you (Monday|Tuesday|Wednesday|Thursday|Friday)!$`,
    ),
  );
  await page.getByRole('textbox', { name: 'Message' }).fill('');

  // Staff see the templates but cannot change them.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await logIn(staff, LOGINS.staff.email);
  // Staff can change nothing here, so their menu leaves the page out; a link still opens it read-only.
  await expect(
    staff.getByRole('navigation', { name: 'Main' }).getByRole('menuitem', { name: 'Message templates' }),
  ).toHaveCount(0);
  await staff.goto('/settings/templates');
  await expect(staff.getByRole('heading', { name: 'Message templates', level: 3 })).toBeVisible();
  await expect(staff.getByText('Only the business owner can change message templates.')).toBeVisible();
  await expect(staff.getByRole('row', { name: new RegExp(renamed) })).toContainText('ring the bell');
  await expect(staff.getByRole('button', { name: 'Add template' })).toHaveCount(0);
  await expect(staff.getByRole('button', { name: `Edit ${renamed}` })).toHaveCount(0);
  await expect(staff.getByRole('button', { name: `Delete ${renamed}` })).toHaveCount(0);
  await staffContext.close();

  // Delete it: gone from the page, after a reload too, and from the inbox.
  await openTemplatesPage(page);
  await page.getByRole('button', { name: `Delete ${renamed}` }).click();
  // Off the icon, as a person's pointer moves to the confirmation, so its "Delete" tooltip closes.
  await page.mouse.move(0, 0);
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Template deleted')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(renamed) })).toHaveCount(0);
  await openComposerTemplates(page, customer);
  // The Templates menu, not the side menu, once it has loaded.
  const offered = page.getByRole('menu').filter({ hasNotText: 'Business profile' });
  await expect(offered).toBeVisible();
  await expect(offered).not.toContainText('Loading templates');
  await expect(offered.getByRole('menuitem', { name: new RegExp(renamed) })).toHaveCount(0);
  await page.reload();
  await openTemplatesPage(page);
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(renamed) })).toHaveCount(0);
});
