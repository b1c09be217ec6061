import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';

/** A fresh Australian mobile, so each run starts anew. */
const mobile = () => `+61413${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

for (const size of SIZES) {
  test(`a caller's voicemail, the missed-call text and their text back are one conversation, shown on the Sandbox page before the customer wrote (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({
      viewport: size.viewport,
      permissions: ['microphone'],
      ...(size.phone ? { hasTouch: true, isMobile: true } : {}),
    });
    const page = await context.newPage();
    const customer = mobile();
    const textBack = `Sorry we missed your call (${size.name}). We will ring you back.`;
    try {
      await logIn(page, LOGINS.owner.email);
      const { headers, locationId } = await signedInApi(page);
      const set = await page.request.patch(`/api/v1/business/locations/${locationId}`, {
        headers,
        data: { missed_call_text: textBack },
      });
      expect(set.ok(), await set.text()).toBe(true);
      const openFor = async () => {
        const res = await page.request.get(
          `/api/v1/enquiries?status=open&q=${encodeURIComponent(customer)}`,
          { headers },
        );
        expect(res.ok()).toBe(true);
        return (await res.json()).body.items as { id: string; channel: string }[];
      };

      // Nobody is available for calls: the owner, playing the customer, rings and leaves a voicemail.
      await page.goto('/sandbox');
      await page.getByLabel('Customer phone').fill(customer);
      const conversation = page.getByRole('log', { name: 'Conversation' });
      const line = page.getByRole('region', { name: 'Phone line' });
      await line.getByRole('button', { name: /Call Harbourside/ }).click();
      await expect(line).toContainText('Nobody answered');
      await page.waitForTimeout(1500);
      await line.getByRole('button', { name: 'Finish message' }).click();
      await expect(line).toContainText('Your message was left.');

      // The business's text back shows in the customer's conversation, though the simulator never wrote.
      const fromBusiness = conversation.getByRole('listitem', { name: 'From the business' });
      await expect(fromBusiness).toContainText(textBack, { timeout: 30_000 });
      await conversation.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `.tmp/shots-threads/sandbox-${size.name}.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        size.viewport.width,
      );

      // The customer texts back: the same conversation, not a second enquiry.
      await page.getByLabel('Message', { exact: true }).fill('Returning your call, can I book Friday?');
      await page.getByRole('button', { name: 'Send as customer' }).click();
      const fromCustomer = conversation.getByRole('listitem', { name: 'From the customer' });
      await expect(fromCustomer.last()).toContainText('Returning your call');
      await expect(fromBusiness.first()).toContainText(textBack);
      const open = await openFor();
      expect(open).toHaveLength(1);
      expect(open[0]!.channel).toBe('phone_call');

      // They ring again after texting: the call joins it too.
      await line.getByRole('button', { name: /Call Harbourside/ }).click();
      await expect(line).toContainText('Nobody answered');
      await line.getByRole('button', { name: 'Finish message' }).click();
      await expect(line).toContainText('Your message was left.');
      expect((await openFor()).map((e) => e.id)).toEqual([open[0]!.id]);

      // The inbox shows one conversation: the voicemail, the text back, the customer's text and the second call.
      await page.goto(`/inbox/${open[0]!.id}`);
      await expect(page.getByRole('region', { name: `Call from ${customer}` }).first()).toBeVisible();
      await expect(page.getByText('Returning your call, can I book Friday?')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Messages' }).getByText(textBack).first()).toBeVisible();
      await expect(page.getByRole('region', { name: `Call from ${customer}` })).toHaveCount(2);
      await page.screenshot({ path: `.tmp/shots-threads/inbox-thread-${size.name}.png` });
    } finally {
      const { headers, locationId } = await signedInApi(page).catch(() => ({ headers: {}, locationId: '' }));
      if (locationId)
        await page.request.patch(`/api/v1/business/locations/${locationId}`, {
          headers,
          data: { missed_call_text: null },
        });
      await context.close();
    }
  });
}
