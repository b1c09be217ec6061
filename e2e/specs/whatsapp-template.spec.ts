import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { logIn } from '../fixtures/app.ts';
import { DEMO_PASSWORD, LOGINS } from '../fixtures/logins.ts';
import { expect, test } from '../fixtures/test.ts';
import { FAKE_GRAPH_PORT } from '../playwright.config.ts';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
const PHONE_NUMBER_ID = `1000${digits(11)}`;
const WABA_ID = `1000${digits(11)}`;
const APP_SECRET = hex(16);
const ACCESS_TOKEN = `EAAG${hex(20)}`;

type GraphCall = { method: string; path: string; auth: string; body: string };

/** Meta's Graph API, as far as WhatsApp templates need it: lists the account's templates and takes sends. */
function startFakeGraph(calls: GraphCall[]): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      calls.push({ method: req.method ?? '', path, auth: req.headers.authorization ?? '', body });
      res.setHeader('content-type', 'application/json');
      // Connecting the account asks whether the token (with the App Secret's proof) reaches the number, and
      // whether the number is one of the WhatsApp Business Account's.
      const url = new URL(req.url ?? '/', 'http://graph');
      const proof = createHmac('sha256', APP_SECRET).update(ACCESS_TOKEN).digest('hex');
      const owner =
        req.headers.authorization === `Bearer ${ACCESS_TOKEN}` &&
        url.searchParams.get('appsecret_proof') === proof;
      if (
        req.method === 'GET' &&
        (path === `/v24.0/${PHONE_NUMBER_ID}` || path === `/v24.0/${WABA_ID}/phone_numbers`)
      ) {
        if (!owner) {
          res.statusCode = 400;
          res.end(
            JSON.stringify({
              error: { message: 'Invalid OAuth access token', type: 'OAuthException', code: 190 },
            }),
          );
          return;
        }
        res.end(
          JSON.stringify(
            path.endsWith('/phone_numbers')
              ? { data: [{ id: PHONE_NUMBER_ID, display_phone_number: '+61 491 570 123' }] }
              : { id: PHONE_NUMBER_ID, display_phone_number: '+61 491 570 123' },
          ),
        );
        return;
      }
      if (req.method === 'GET' && path === `/v24.0/${WABA_ID}/message_templates`) {
        res.end(
          JSON.stringify({
            data: [
              {
                name: 'booking_reminder',
                language: 'en',
                status: 'APPROVED',
                category: 'UTILITY',
                components: [
                  { type: 'BODY', text: 'Hi {{1}}, this is a reminder of your booking on {{2}}.' },
                ],
              },
            ],
          }),
        );
        return;
      }
      if (req.method === 'POST' && path === `/v24.0/${PHONE_NUMBER_ID}/messages`) {
        res.end(JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: `wamid.${hex(12)}` }] }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { message: 'Unknown path', code: 100 } }));
    });
  });
  return new Promise((resolve) => server.listen(FAKE_GRAPH_PORT, '127.0.0.1', () => resolve(server)));
}

test('a WhatsApp conversation offers the account’s approved templates, and the chosen one goes out as a template', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const calls: GraphCall[] = [];
  const fakeGraph = await startFakeGraph(calls);
  const login = await request.post('/api/v1/auth/login', {
    data: { email: LOGINS.owner.email, password: DEMO_PASSWORD },
  });
  const token = (await login.json()).body.token as string;
  const auth = { authorization: `Bearer ${token}` };
  const me = (await (await request.get('/api/v1/user/me', { headers: auth })).json()).body;
  const locationId = me.businesses[0].locations.find((l: { selected: boolean }) => l.selected).id as string;
  const connected = await request.post('/api/v1/channels', {
    headers: auth,
    data: {
      location_id: locationId,
      provider: 'whatsapp',
      config: {
        phone_number_id: PHONE_NUMBER_ID,
        waba_id: WABA_ID,
        access_token: ACCESS_TOKEN,
        app_secret: APP_SECRET,
        verify_token: `verify-${hex(8)}`,
      },
    },
  });
  expect(connected.ok(), await connected.text()).toBe(true);
  const accountId = (await connected.json()).body.id as string;

  try {
    // The customer writes on WhatsApp: Meta's signed webhook.
    const name = `Wendy Wa ${hex(3)}`;
    const waId = `6141${digits(7)}`;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '61491570110', phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name }, wa_id: waId }],
                messages: [
                  {
                    from: waId,
                    id: `wamid.${hex(12)}`,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'Can you remind me of my booking?' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
    const hook = await request.post('/webhooks/meta', {
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      data: body,
    });
    expect(hook.status(), await hook.text()).toBe(200);

    // In the inbox the composer offers the account's approved templates.
    await logIn(page, LOGINS.owner.email);
    await expect(page).toHaveURL(/\/inbox$/);
    await page
      .getByRole('list', { name: 'Enquiries' })
      .getByRole('link', { name: new RegExp(name) })
      .click();
    await page.getByRole('button', { name: 'WhatsApp template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a WhatsApp template' });
    await dialog.getByRole('combobox', { name: 'Template' }).click();
    await page.getByTitle('booking_reminder (en)').click();
    await dialog.getByLabel('Value for {{1}}').fill('Wendy');
    await dialog.getByLabel('Value for {{2}}').fill('Friday at 9 am');
    await expect(dialog.getByLabel('Preview')).toHaveText(
      'Hi Wendy, this is a reminder of your booking on Friday at 9 am.',
    );
    await dialog.getByRole('button', { name: 'Send template' }).click();
    await expect(dialog).toBeHidden();

    // It is sent to WhatsApp as that template with its variables, and shows in the thread as the customer reads it.
    await expect
      .poll(
        () =>
          calls.filter((c) => c.method === 'POST' && c.path === `/v24.0/${PHONE_NUMBER_ID}/messages`).length,
      )
      .toBe(1);
    const sent = JSON.parse(calls.find((c) => c.method === 'POST')!.body);
    expect(sent).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'template',
      template: {
        name: 'booking_reminder',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Wendy' },
              { type: 'text', text: 'Friday at 9 am' },
            ],
          },
        ],
      },
    });
    await expect(
      page
        .getByRole('list', { name: 'Messages' })
        .getByText('Hi Wendy, this is a reminder of your booking on Friday at 9 am.'),
    ).toBeVisible();
  } finally {
    await request.delete(`/api/v1/channels/${accountId}`, { headers: auth });
    fakeGraph.close();
  }
});
