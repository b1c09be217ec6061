import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { logIn, signedInApi } from '../fixtures/app.ts';
import { LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';
import { FAKE_TOOL_PORT } from '../playwright.config.ts';

const mobile = () => `+6142${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

async function customerWrites(page: Page, from: { phone: string; name?: string }, message: string) {
  const { headers, locationId } = await signedInApi(page);
  const sent = await page.request.post('/api/v1/sandbox/inbound', {
    headers,
    data: { channel: 'sms', location_id: locationId, from, message },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return (await sent.json()).body.enquiry_id as string;
}

async function setAutoReply(page: Page, action: 'off' | 'auto') {
  const { headers, locationId } = await signedInApi(page);
  const res = await page.request.put(`/api/v1/business/ai-auto-reply/toggle/${action}`, {
    headers,
    data: { location_id: locationId, options: { delay_seconds: 1 } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function selectedLocationName(page: Page): Promise<string> {
  const { headers } = await signedInApi(page);
  const me = (await (await page.request.get('/api/v1/user/me', { headers })).json()).body as {
    businesses: { selected: boolean; locations: { name: string | null; selected: boolean }[] }[];
  };
  const business = me.businesses.find((b) => b.selected);
  const location = business?.locations.find((l) => l.selected) ?? business?.locations[0];
  return location?.name ?? 'Unknown Location';
}

test.describe('the AI assistant', () => {
  test.afterEach(async ({ page }) => {
    // Never leave the assistant answering at the demo location for the specs that follow.
    await setAutoReply(page, 'off').catch(() => {});
  });

  test('the owner sets it up, it answers a customer live with its source, hands off what it does not know, and learns from the reply', async ({
    page,
  }) => {
    await logIn(page, LOGINS.owner.email);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('menuitem', { name: 'AI assistant' })
      .click();
    await expect(page).toHaveURL(/\/settings\/assistant$/);

    // The three-step set-up.
    await page.getByRole('tab', { name: 'About the business' }).click();
    await page.getByLabel('What does the business do?').fill('A family dental clinic in Docklands.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Opening hours').fill('Monday to Friday 8am to 6pm, Saturday 9am to 1pm.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: /Finish|Save/ }).click();
    await expect(page.getByRole('tab', { name: 'FAQs', selected: true })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'What are your opening hours?' })).toBeVisible();

    // An FAQ with another way of asking it.
    const question = `Is there parking at the clinic? ${Date.now() % 100000}`;
    await page.getByRole('button', { name: 'Add FAQ' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an FAQ' });
    await dialog.getByLabel('Question').fill(question);
    await dialog.getByLabel('Answer').fill('Yes, free parking behind the building on Kerr Street.');
    await dialog.getByRole('combobox', { name: 'Also asked as' }).fill('Where do I park?');
    await dialog.getByRole('combobox', { name: 'Also asked as' }).press('Enter');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('row').filter({ hasText: question })).toContainText(
      'Also asked as: Where do I park?',
    );

    // It answers at this location.
    await page.getByRole('tab', { name: 'Answering customers' }).click();
    const location = await selectedLocationName(page);
    const panel = page.getByRole('region', { name: location, exact: true });
    await panel.getByText('Answer', { exact: true }).click();
    await expect(panel.getByText(/answers customers as the business/)).toBeVisible();
    await setAutoReply(page, 'auto');

    const phone = mobile();
    const enquiryId = await customerWrites(
      page,
      { phone, name: 'Robin Park' },
      'hi, where can I park my car when I come in?',
    );
    await page.goto(`/inbox/${enquiryId}`);
    const thread = page.getByRole('list', { name: 'Messages' });
    await expect(thread).toContainText('Hi Robin, yes, free parking behind the building on Kerr Street.', {
      timeout: 20_000,
    });
    await expect(thread).toContainText(`From “${question}”`);
    await expect(thread).toContainText('AI assistant');

    // Something not in the FAQs: the customer is told a person will reply, and the team is told too.
    await customerWrites(page, { phone }, 'Do you sell electric toothbrushes?');
    await expect(thread).toContainText("Thanks Robin, I've passed your message to our team", {
      timeout: 20_000,
    });
    await expect(page.getByRole('alert').filter({ hasText: 'Robin Park needs a person' })).toBeVisible();
    await expect(page.locator('.ib-view-head')).toContainText('Needs a person');
    await expect(
      page.getByRole('list', { name: 'Enquiries' }).getByRole('link', { name: /Robin Park/ }),
    ).toContainText('Needs a person');

    // The owner answers; the assistant suggests an FAQ from that, accepted in one click.
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('Yes, we sell Oral-B electric toothbrushes for $89.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(thread).toContainText('Oral-B electric toothbrushes for $89');
    await page.goto('/settings/assistant');
    await page.getByRole('tab', { name: /Suggested/ }).click();
    const proposal = page.getByRole('listitem').filter({ hasText: 'Do you sell electric toothbrushes?' });
    await expect(proposal).toContainText('Oral-B electric toothbrushes for $89');
    await proposal.getByRole('button', { name: /Accept/ }).click();
    await expect(proposal).toBeHidden();
    await page.getByRole('tab', { name: 'FAQs' }).click();
    await expect(
      page.getByRole('row').filter({ hasText: 'Do you sell electric toothbrushes?' }),
    ).toBeVisible();

    // Handed back, the assistant answers this customer again.
    await page.goto(`/inbox/${enquiryId}`);
    await page.getByRole('button', { name: 'Hand back to assistant' }).click();
    await expect(page.locator('.ib-view-head')).not.toContainText('Needs a person');
  });

  test('the owner uploads a document, the assistant suggests FAQs from it, and the owner accepts one', async ({
    page,
  }) => {
    await logIn(page, LOGINS.owner.email);
    await page.goto('/settings/assistant');
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles(
        fileURLToPath(new URL('../../apps/server/src/modules/ai/fixtures/payment-faq.docx', import.meta.url)),
      );
    // Chosen is enough: the file is read without pressing the website box's Read.
    const doc = page.getByRole('listitem').filter({ hasText: 'payment-faq.docx' }).first();
    await expect(doc).toContainText('Read', { timeout: 20_000 });
    await doc.getByText(/suggested FAQs? to review/).click();

    const suggestion = page.getByRole('listitem').filter({ hasText: 'Do you offer payment plans?' });
    await expect(suggestion).toContainText('four fortnightly instalments');
    await expect(suggestion).toContainText('From an uploaded document');
    await suggestion.getByRole('button', { name: /Accept/ }).click();
    await expect(suggestion).toBeHidden();
    await page.getByRole('tab', { name: 'FAQs' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Do you offer payment plans?' })).toBeVisible();

    // A scanned PDF is refused with the reason, beside the form.
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles(
        fileURLToPath(new URL('../../apps/server/src/modules/ai/fixtures/scanned.pdf', import.meta.url)),
      );
    await expect(
      page.getByRole('alert').filter({ hasText: 'has no text in it: it looks like a scan' }),
    ).toBeVisible();
    // The refused file stays on screen, to try again or remove.
    const notRead = page.getByRole('list', { name: 'Files not read' });
    await expect(notRead).toContainText('scanned.pdf');
    await notRead.getByRole('button', { name: 'Remove' }).click();
    await expect(notRead).toBeHidden();
  });

  test('a flow asks the customer for their name, keeps it in their record and calls a tool on a booking server', async ({
    page,
  }) => {
    const seen: string[] = [];
    const booking = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ first: '9:15am' }));
    });
    await new Promise<void>((resolve) => booking.listen(FAKE_TOOL_PORT, '127.0.0.1', resolve));
    try {
      const suffix = Date.now() % 100000;
      const toolName = `next_slot_${suffix}`;
      const keyword = `checkup${suffix}`;
      await logIn(page, LOGINS.owner.email);
      await page.goto('/settings/assistant');
      await page.getByRole('tab', { name: 'Flows and tools' }).click();

      // The tool, tried with its Test button.
      await page.getByRole('button', { name: 'Add tool' }).click();
      const toolDialog = page.getByRole('dialog', { name: 'Add a tool' });
      await toolDialog.getByLabel('Name', { exact: true }).fill(toolName);
      await toolDialog.getByLabel('What it does').fill('The next free appointment for a customer');
      await toolDialog.getByLabel('Address').fill(`http://127.0.0.1:${FAKE_TOOL_PORT}/slots?name={name}`);
      await toolDialog.getByRole('button', { name: 'Add parameter' }).click();
      await toolDialog.getByLabel('Parameter name').fill('name');
      await toolDialog.getByRole('button', { name: 'Save' }).click();
      const toolRow = page.getByRole('listitem').filter({ hasText: toolName });
      await toolRow.getByRole('button', { name: 'Test' }).click();
      const testDialog = page.getByRole('dialog', { name: `Test ${toolName}` });
      await testDialog.getByLabel('name').fill('Tess');
      await testDialog.getByRole('button', { name: 'Call it' }).click();
      await expect(testDialog.getByRole('status')).toContainText('200');
      await expect(testDialog.getByRole('status')).toContainText('9:15am');
      await testDialog.getByRole('button', { name: 'Close' }).click();

      // The flow: ask, keep, call the tool, say.
      await page.getByRole('button', { name: 'Add flow' }).click();
      const flowDialog = page.getByRole('dialog', { name: 'Add a flow' });
      await flowDialog.getByLabel('Flow name').fill(`Check-up ${suffix}`);
      await flowDialog.getByRole('combobox', { name: 'Words that start it' }).fill(keyword);
      await flowDialog.getByRole('combobox', { name: 'Words that start it' }).press('Enter');
      const pickKind = async (n: number, kind: string) => {
        await flowDialog.getByRole('combobox', { name: `Step ${n} kind` }).click();
        await page
          .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
          .filter({ hasText: kind })
          .click();
      };
      await flowDialog.getByRole('button', { name: 'Add step' }).click();
      await flowDialog.getByLabel('Step 1 text').fill('Sure! What is your full name?');
      await flowDialog.getByLabel('Step 1 keep the answer as').fill('full_name');
      await flowDialog.getByRole('button', { name: 'Add step' }).click();
      await pickKind(2, 'Keep in the customer record');
      await flowDialog.getByRole('combobox', { name: 'Step 2 answer' }).click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: 'full_name' })
        .click();
      await flowDialog.getByRole('combobox', { name: 'Step 2 customer field' }).click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: 'Full name' })
        .click();
      await flowDialog.getByRole('button', { name: 'Add step' }).click();
      await pickKind(3, 'Call a tool');
      await flowDialog.getByRole('combobox', { name: 'Step 3 tool' }).click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: toolName })
        .click();
      await flowDialog.getByLabel('Step 3 name').fill('{full_name}');
      await flowDialog.getByLabel('Step 3 keep the answer as').fill('slot');
      await flowDialog.getByRole('button', { name: 'Add step' }).click();
      await pickKind(4, 'Send a message');
      await flowDialog
        .getByLabel('Step 4 text')
        .fill('Thanks {full_name}, the next free time is {slot.first}.');
      await flowDialog.getByRole('button', { name: 'Save' }).click();
      await expect(flowDialog).toBeHidden();
      const flowRow = page.getByRole('listitem').filter({ hasText: `Check-up ${suffix}` });
      await expect(flowRow).toContainText('4 steps');
      await flowRow.getByText('On', { exact: true }).click();
      await setAutoReply(page, 'auto');

      const phone = mobile();
      const enquiryId = await customerWrites(page, { phone }, `Hi, I need a ${keyword} please`);
      await page.goto(`/inbox/${enquiryId}`);
      const thread = page.getByRole('list', { name: 'Messages' });
      await expect(thread).toContainText('Sure! What is your full name?', { timeout: 20_000 });
      await customerWrites(page, { phone }, 'Kim Lee');
      await expect(thread).toContainText('Thanks Kim Lee, the next free time is 9:15am.', {
        timeout: 20_000,
      });
      expect(seen).toContain('/slots?name=Kim%20Lee');
      // The name went into the customer's record: the conversation is now under it.
      await expect(page.locator('.ib-view-head')).toContainText('Kim Lee');
    } finally {
      await new Promise((resolve) => booking.close(resolve));
    }
  });

  test('staff get a suggested reply with its source, and a rewrite of their own words', async ({
    page: ownerPage,
    browser,
  }) => {
    await logIn(ownerPage, LOGINS.owner.email);
    const { headers } = await signedInApi(ownerPage);
    const question = `Do you bulk bill kids? ${Date.now() % 100000}`;
    const made = await ownerPage.request.post('/api/v1/business/ai/faqs', {
      headers,
      data: { question, answer: 'We bulk bill children under 12 with a Medicare card.' },
    });
    expect(made.ok(), await made.text()).toBe(true);

    const page = await (await browser.newContext()).newPage();
    await logIn(page, LOGINS.staff.email);
    const enquiryId = await customerWrites(
      page,
      { phone: mobile(), name: 'Jamie Fox' },
      'is it bulk billed for my kids?',
    );
    await page.goto(`/inbox/${enquiryId}`);
    const box = page.getByRole('textbox', { name: 'Message' });

    await page.getByRole('button', { name: 'Suggest reply' }).click();
    await expect(box).toHaveValue('Hi Jamie, we bulk bill children under 12 with a Medicare card.');
    await expect(page.getByRole('status').filter({ hasText: 'Suggested by the assistant' })).toBeVisible();
    // The button's own tooltip goes once the pointer leaves it.
    await page.mouse.move(0, 0);
    await page.getByRole('button', { name: `“${question}”` }).click();
    await expect(page.getByRole('tooltip').filter({ hasText: 'Answered from' })).toContainText(
      'We bulk bill children under 12',
    );

    await box.fill('sure  i can see you at 3 tomorow ,does that work');
    await page.getByRole('button', { name: 'Rewrite' }).click();
    await expect(box).toHaveValue(
      /^Hi Jamie,\n\nSure I can see you at 3 tomorrow, does that work\.\n\nThanks,\n\w+, Harbourside Dental$/,
    );
    await page.mouse.move(0, 0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(box).toHaveValue('sure  i can see you at 3 tomorow ,does that work');

    // Emptied, the box can be suggested into again, and the suggestion sent as it is.
    await box.fill('');
    await expect(page.getByRole('button', { name: 'Rewrite' })).toBeDisabled();
    await page.getByRole('button', { name: 'Suggest reply' }).click();
    await expect(box).toHaveValue('Hi Jamie, we bulk bill children under 12 with a Medicare card.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText(
      'we bulk bill children under 12',
    );
  });
});
