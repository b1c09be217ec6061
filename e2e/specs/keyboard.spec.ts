import type { Page } from '@playwright/test';
import { customerWrites, logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/**
 * No icon inside a button or link is read out by its drawing's name: "check-circle Close" is read as "Close". An
 * icon given a name of its own (a tick read as "chosen") says something, and is read.
 */
async function expectNoSpokenIcons(page: Page, where: string): Promise<void> {
  const spoken = await page
    .locator(
      ':is(button, a, [role="button"], [role="menuitem"], [role="tab"]) [role="img"]:not([aria-hidden="true"])',
    )
    .evaluateAll((icons) =>
      icons
        .map((i) => i.getAttribute('aria-label') ?? '?')
        .filter((name, n) => name === '?' || icons[n]!.classList.contains(`anticon-${name}`)),
    );
  expect(spoken, where).toEqual([]);
}

test('the keyboard reaches everything: a skip link first, the Labels popover by Tab, "?" found in the account menu', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await logIn(page, LOGINS.owner.email);
  const stamp = Date.now() % 100000;
  const customer = `Keyboard ${stamp}`;
  const { headers } = await signedInApi(page);
  const made = await page.request.post('/api/v1/labels', {
    headers,
    data: { name: `Parking ${stamp}`, colour: '#1E75FF' },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const enquiryId = await customerWrites(page, customer, 'Is there parking near the Harbour St clinic?');
  await page.goto(`/inbox/${enquiryId}`);
  // The row in the list shows the same words once the list has loaded; the thread is what this waits for.
  await expect(
    page.getByRole('list', { name: 'Messages' }).getByText('Is there parking near the Harbour St clinic?'),
  ).toBeVisible();

  // The first Tab on the page reaches the skip link, shown while focused; it moves the focus to the page itself.
  // From the top of the page, as a person arriving by keyboard starts: the focus at the document's start.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('skip-link.png') });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  // From there Tab goes on into the inbox, not back to the side menu.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

  await expectNoSpokenIcons(page, 'conversation');

  // The Labels button, then (Enter) its popover: the focus is on the first label; Tab stays in the header's order.
  const labels = page.getByRole('button', { name: 'Labels', exact: true });
  await labels.focus();
  await page.keyboard.press('Enter');
  const picker = page.getByRole('group', { name: 'Labels' });
  await expect(picker).toBeVisible();
  const first = picker.getByRole('checkbox').first();
  await expect(first).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('labels-popover.png') });
  // Space ticks the label, as a click does: the enquiry carries it.
  const name = ((await first.locator('xpath=ancestor::label').textContent()) ?? '').trim();
  await page.keyboard.press('Space');
  await expect(first).toBeChecked();
  await expect(page.locator('.ib-view-head')).toContainText(name);
  // Escape closes it and gives the focus back to its button.
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(labels).toBeFocused();
  // Tab from the button goes into the popover once it is open again, not to the end of the page.
  await page.keyboard.press('Enter');
  await expect(first).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Escape');

  // "?" is offered in the account menu, with its key, and opens the shortcuts from there.
  await page.getByRole('button', { name: /^Account menu for/ }).focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: /Keyboard shortcuts/ });
  await expect(item).toBeVisible();
  await expect(item).toContainText('?');
  await expectNoSpokenIcons(page, 'account menu');
  await item.click();
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Show these shortcuts');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  // And "?" itself still opens it in the inbox.
  await page.locator('.ib-view-head h2').click();
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
});

test('pages can be zoomed, and a phone does not zoom into a field on focus', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  await page.goto('/');
  const viewport = await page.locator('meta[name="viewport"]').getAttribute('content');
  expect(viewport).not.toMatch(/maximum-scale|user-scalable\s*=\s*(no|0)/);
  // iOS zooms into a field whose text is under 16 px: every field on a phone is at least 16 px.
  await expect(page.getByLabel('Email')).toHaveCSS('font-size', '16px');
  await logIn(page, LOGINS.staff.email);
  await expect(page.getByRole('textbox', { name: 'Search enquiries' })).toHaveCSS('font-size', '16px');
  await context.close();
});
