import { logInToLocations, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

for (const size of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the owner sets a location's opening hours and the website chat says it is closed (${size.name})`, async ({
    page,
    browser,
    afterwards,
  }) => {
    await logInToLocations(page, LOGINS.owner.email);
    await page.setViewportSize(size);
    const { headers } = await signedInApi(page);
    const name = `Hours ${size.name} ${Date.now() % 100_000}`;
    const created = await page.request.post('/api/v1/business/locations', { headers, data: { name } });
    expect(created.ok()).toBe(true);
    const locationId = (await created.json()).body.id as string;
    // Other tests count the business's locations: this one is removed whatever happens here.
    afterwards(async () => {
      const removed = await page.request.delete(`/api/v1/business/locations/${locationId}`, { headers });
      expect(removed.ok()).toBe(true);
    });
    await page.reload();

    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Always open');
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit location' });
    // The form is filled in from the location once it opens.
    await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue(name);
    // The dialog zooms open; a click that lands mid-animation is tried again.
    await expect(async () => {
      await dialog.getByRole('radio', { name: 'Set opening hours' }).check({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    const hours = dialog.getByRole('group', { name: 'Opening hours' });
    await expect(hours.getByRole('switch', { name: 'Open on Monday' })).toBeChecked();
    await expect(hours.getByRole('switch', { name: 'Open on Sunday' })).not.toBeChecked();

    // A second stretch that overlaps the first is refused with the reason, and nothing is saved.
    await hours.getByRole('button', { name: 'Add hours' }).first().click();
    const start = hours.getByPlaceholder('Opens').nth(1);
    await start.click();
    await start.fill('12:00');
    await dialog.getByText('Usually replies').click();
    await expect(start).toHaveValue('12:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toContainText('Monday: 09:00–17:00 overlaps 12:00.');
    await dialog.getByRole('button', { name: /^Remove Monday 12:00/ }).click();

    // Closed every day: the chat tells visitors so.
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await hours.getByRole('switch', { name: `Open on ${day}` }).click();
    }
    await dialog.getByLabel('Usually replies').click();
    await page.locator('.ant-select-dropdown').getByTitle('Within an hour').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Location saved').waitFor();
    await expect(row).toContainText('Closed now');
    await expect(page.locator('html')).toHaveJSProperty('scrollWidth', size.width);

    const saved = await page.request.get(`/api/v1/business/locations/${locationId}`, { headers });
    expect((await saved.json()).body).toMatchObject({
      opening_hours: { mon: [], tue: [], sun: [] },
      reply_time: 'hour',
    });

    const visitor = await browser.newPage({ viewport: size });
    await visitor.goto(`/widget?location=${locationId}`);
    await expect(visitor.locator('header .availability')).toHaveText(
      "We're closed at the moment. Leave a message and we'll reply when we can.",
    );
    await visitor.close();

    // Open again on Sunday from midnight to midnight: open now or soon, and the chat says how soon it replies.
    await row.getByRole('button', { name: 'Edit' }).click();
    await expect(dialog.getByRole('radio', { name: 'Set opening hours' })).toBeChecked();
    await expect(async () => {
      await dialog.getByRole('radio', { name: 'Always open' }).check({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('Always open');
    const again = await browser.newPage({ viewport: size });
    await again.goto(`/widget?location=${locationId}`);
    await expect(again.locator('header .availability')).toHaveText('We usually reply within an hour.');
    await again.close();

    // Today a holiday in the location's time zone: closed all day, and the chat says it opens tomorrow.
    const zone = (await saved.json()).body.timezone ?? 'Australia/Melbourne';
    const today = new Date().toLocaleDateString('en-AU', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
    await row.getByRole('button', { name: 'Edit' }).click();
    await expect(dialog.getByText('No holidays: the weekly hours apply every day.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Add holiday' }).click();
    const date = dialog.getByLabel('Holiday 1 date');
    await date.click();
    await date.fill(today.replace('Sept', 'Sep'));
    await date.press('Enter');
    await dialog.getByLabel('Holiday 1 name').fill('Stocktake');
    // A second row left without a date: the form says so, and only that row is marked, not every one.
    const afterNextYear = `${new Date().getFullYear() + 2}-02-03`;
    await dialog.getByRole('button', { name: 'Add holiday' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Pick a date for each holiday, or remove it.')).toBeVisible();
    const pickerOf = (n: number) =>
      dialog.locator('.ant-picker').filter({ has: page.getByLabel(`Holiday ${n} date`) });
    await expect(pickerOf(2)).toHaveClass(/ant-picker-status-error/);
    await expect(pickerOf(1)).not.toHaveClass(/ant-picker-status-error/);
    // A date typed the ISO way is taken as well as one typed as shown.
    const second = dialog.getByLabel('Holiday 2 date');
    await second.click();
    await second.fill(afterNextYear);
    await second.press('Enter');
    await expect(second).toHaveValue(/^3 Feb \d{4}$/);
    await dialog.getByLabel('Holiday 2 name').fill('Inventory');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('Closed today (Stocktake)');
    await expect(page.locator('html')).toHaveJSProperty('scrollWidth', size.width);
    const holidays = (
      await (await page.request.get(`/api/v1/business/locations/${locationId}`, { headers })).json()
    ).body.holidays;
    expect(holidays).toEqual([
      { date: new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date()), name: 'Stocktake' },
      { date: afterNextYear, name: 'Inventory' },
    ]);
    const closed = await browser.newPage({ viewport: size });
    await closed.goto(`/widget?location=${locationId}`);
    await expect(closed.locator('header .availability')).toHaveText(
      "We're closed now and open again tomorrow. Leave a message and we'll reply then.",
    );
    await closed.close();

    // Next year's public holidays where the location is (its zone says Victoria), added in one go.
    const next = new Date().getFullYear() + 1;
    await row.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByRole('button', { name: 'Add public holidays' }).click();
    await expect(dialog.getByLabel('State or region')).toBeVisible();
    // A tap on the list while it is still sliding open can miss on a phone (the list stays open, the year
    // unchanged): choose again until the year has taken.
    await expect(async () => {
      const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      if (!(await list.isVisible())) await dialog.getByLabel('Year').click();
      await list.getByTitle(String(next)).click({ timeout: 3000 });
      await expect(dialog.getByRole('button', { name: `Add ${next}'s holidays` })).toBeVisible({
        timeout: 2000,
      });
    }).toPass({ timeout: 30_000 });
    await dialog.getByRole('button', { name: `Add ${next}'s holidays` }).click();
    await expect(dialog.getByText(/^Added \d+ public holidays\. Save to keep them\.$/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const kept = (
      await (await page.request.get(`/api/v1/business/locations/${locationId}`, { headers })).json()
    ).body.holidays as { date: string; name: string | null }[];
    expect(kept).toContainEqual({ date: `${next}-12-25`, name: 'Christmas Day' });
    expect(kept).toContainEqual({ date: holidays[0].date, name: 'Stocktake' });
  });
}
