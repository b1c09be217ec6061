import { createServer, type Server } from 'node:http';
import { TwilioNumbersFake } from '../../apps/server/src/test/fake-twilio-numbers.ts';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';
import { PLATFORM_TWILIO } from '../fixtures/twilio.ts';
import { FAKE_TWILIO_PORT } from '../playwright.config.ts';

const SCREENSHOTS = process.env.BUY_NUMBER_SCREENSHOTS;

/** Twilio's accounts and numbers, with a few San Francisco and Boston numbers for sale. */
function startFakeTwilio(twilio: TwilioNumbersFake): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const answer = twilio.answer({
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://twilio'),
        authorization: req.headers.authorization,
        form: new URLSearchParams(body),
      }) ?? { status: 404, json: { code: 20404, message: 'Not found' } };
      res.writeHead(answer.status, answer.json === undefined ? {} : { 'content-type': 'application/json' });
      res.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
    });
  });
  return new Promise((resolve) => server.listen(FAKE_TWILIO_PORT, '127.0.0.1', () => resolve(server)));
}

const sfNumber = (last: string) => ({
  phone_number: `+1415555${last}`,
  friendly_name: `(415) 555-${last}`,
  locality: 'San Francisco',
  region: 'CA',
  iso_country: 'US',
  type: 'Local' as const,
  capabilities: { voice: true, SMS: true, MMS: true },
});

// One Twilio for both sizes: the business's subaccount, made by the first purchase, is reused by the second.
const twilio = new TwilioNumbersFake(PLATFORM_TWILIO).offer(sfNumber('0142'), sfNumber('0143'), {
  ...sfNumber('0100'),
  phone_number: '+16175550100',
  friendly_name: '(617) 555-0100',
  locality: 'Boston',
});

for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
]) {
  test.describe(`at ${size.viewport.width}×${size.viewport.height}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });

    test('an owner searches by area code, buys a number and sees it with what US carriers need', async ({
      page,
      browser,
      afterwards,
    }) => {
      const fake = await startFakeTwilio(twilio);
      afterwards(() => new Promise((resolve) => fake.close(resolve)));

      await logIn(page, LOGINS.owner.email);
      // A bought number takes the place of the location's own (here its sandbox number); given back, it leaves
      // none. The spec puts the sandbox number back for the specs after it.
      const { headers, locationId } = await signedInApi(page);
      const own = (
        await (await page.request.get(`/api/v1/business/locations/${locationId}`, { headers })).json()
      ).body.phone_number as string | null;
      afterwards(async () => {
        const put = await page.request.patch(`/api/v1/business/locations/${locationId}`, {
          headers,
          data: { phone_number: own },
        });
        expect(put.ok(), await put.text()).toBe(true);
      });
      await page.goto('/settings/channels');
      const location = page.getByRole('region', { name: 'Harbourside Dental Docklands' });
      await location.getByRole('button', { name: 'Buy a number' }).click();

      const dialog = page.getByRole('dialog', { name: /Buy a number for/ });
      await dialog.getByLabel('Country').click();
      // antd's listbox options are hidden stand-ins for screen readers; the visible items are clicked.
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
          hasText: 'United States',
        })
        .click();
      await dialog.getByLabel('Area code').fill('41x');
      await dialog.getByRole('button', { name: 'Search numbers' }).click();
      await expect(dialog.getByText('The area code is digits only, such as 415.')).toBeVisible();
      await dialog.getByLabel('Area code').fill('415');
      await dialog.getByRole('button', { name: 'Search numbers' }).click();

      const results = dialog.getByRole('region', { name: 'Numbers for sale' });
      await expect(results.getByRole('listitem')).toHaveCount(2);
      const first = results.getByRole('listitem', { name: '(415) 555-0142' });
      await expect(first).toContainText('San Francisco, CA');
      await expect(first).toContainText('SMS');
      await expect(first).toContainText('Voice');
      expect(twilio.searches.at(-1)).toMatchObject({
        country: 'US',
        type: 'Local',
        query: { AreaCode: '415' },
      });
      if (SCREENSHOTS)
        await page.screenshot({ path: `${SCREENSHOTS}/search-${size.name}.png`, fullPage: true });

      await first.getByRole('button', { name: 'Buy (415) 555-0142' }).click();
      await expect(dialog).toBeHidden();

      const bought = location.getByRole('region', { name: 'Numbers bought through Switchboard' });
      const number = bought.getByRole('listitem', { name: '(415) 555-0142' });
      await expect(number).toContainText('Registration required');
      await expect(number).toContainText('Required — not started. US carriers block texts');
      await expect(number).toContainText('What to do: Register your business (the brand)');
      // Connected as the location's Twilio account, and customers reach the location on it.
      await expect(location.getByRole('article', { name: 'Twilio (SMS & MMS) account' })).toContainText(
        '+14155550142',
      );
      await expect(location.getByRole('region', { name: 'How customers reach this location' })).toContainText(
        '+14155550142',
      );
      expect(twilio.subaccounts()).toHaveLength(1);
      expect(twilio.bought.at(-1)!.form).toMatchObject({
        SmsUrl: expect.stringMatching(/\/webhooks\/twilio\/messaging$/),
        VoiceUrl: expect.stringMatching(/\/webhooks\/twilio\/voice\/incoming$/),
      });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(size.viewport.width);
      if (SCREENSHOTS) {
        await number.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SCREENSHOTS}/bought-${size.name}.png`, fullPage: true });
      }

      // Whoever runs Switchboard submits the A2P 10DLC registration with Twilio and records it in the console;
      // the owner's page then says texts go through.
      const adminContext = await browser.newContext({
        viewport: size.viewport,
        ...(size.touch ? { hasTouch: true, isMobile: true } : {}),
      });
      afterwards(() => adminContext.close());
      const admin = await adminContext.newPage();
      await logIn(admin, LOGINS.admin.email);
      await admin.goto('/admin');
      await admin.getByLabel('Search businesses').fill('Harbourside Dental');
      await admin.getByLabel('Search businesses').press('Enter');
      await admin.getByRole('button', { name: 'Harbourside Dental' }).first().click();
      const drawer = admin.getByRole('dialog', { name: 'Harbourside Dental' });
      const held = drawer
        .getByRole('list', { name: 'Numbers bought through Switchboard' })
        .getByRole('listitem', { name: '(415) 555-0142' })
        .first();
      await expect(held).toContainText('Required — not started');
      await held.getByLabel('Carrier registration of (415) 555-0142').click();
      await admin
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
          hasText: 'Approved',
        })
        .click();
      await expect(held).toContainText('Registered with US carriers for A2P 10DLC: texts go through.');
      expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        size.viewport.width,
      );
      if (SCREENSHOTS) await admin.screenshot({ path: `${SCREENSHOTS}/admin-numbers-${size.name}.png` });
      await page.reload();
      await expect(number).toContainText('Registered with US carriers for A2P 10DLC: texts go through.');
      await expect(number).not.toContainText('What to do');

      // Released again, so the location is free for the other specs.
      await number.getByRole('button', { name: 'Release' }).click();
      await page.getByRole('tooltip').getByRole('button', { name: 'Release' }).click();
      await expect(bought).toBeHidden();
      expect(twilio.bought.at(-1)!.released).toBe(true);
    });
  });
}
