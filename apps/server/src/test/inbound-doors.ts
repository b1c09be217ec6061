import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { enquiries, messages } from '@switchboard/db';
import { and, desc, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { smtpClient } from '../channels/email/testing.ts';
import { googSignature } from '../channels/google-rcs/signature.ts';
import { hubSignature } from '../channels/meta/signature.ts';
import {
  type ChannelSuite,
  connect,
  META_SECRET,
  postTwilio,
  RBM_TOKEN,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../modules/channels/test-support.ts';
import { listen, openSocket } from './helpers.ts';

/**
 * Every door a customer's message comes in by, each sending a text the way its provider would and answering
 * what the door said (its status) and the message it stored: Twilio's SMS webhook, WhatsApp Cloud (Meta),
 * Google RCS, email by SMTP to the inbound server, the web form webhook, the website chat socket, and the
 * sandbox simulator.
 */
export type Door = {
  name: string;
  /** The text as the door sends it; `status` is what the door answered (HTTP, SMTP, or the socket's ok). */
  send(text: string): Promise<{ status: number; stored: typeof messages.$inferSelect | undefined }>;
};

export type Doors = {
  suite: ChannelSuite;
  doors: Door[];
  /** The location's inbound email address. */
  emailAddress: string;
  /** Sends an email as written (headers and all) to the inbound SMTP server; answers the server's reply. */
  sendRawEmail(raw: string): Promise<string>;
  /** Stored messages with exactly this text. */
  messagesWithText(text: string): Promise<(typeof messages.$inferSelect)[]>;
  close(): Promise<void>;
};

const NUMBER = '+15555550188';
const WA_PHONE_ID = '100000000000088';
const RBM_AGENT = 'doors_agent_0001@rbm.goog';

export async function openDoors(): Promise<Doors> {
  const suite = await startChannelSuite();
  const { t, owner } = suite;
  const [loc] = suite.locations;
  const url = await listen(t);
  await t.app.smtp.start();
  const sockets: Socket[] = [];
  const mail = smtpClient(t.app.smtp.port);

  await connect(t, owner, {
    location_id: loc,
    provider: 'twilio',
    config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
  });
  await connect(t, owner, {
    location_id: loc,
    provider: 'whatsapp',
    config: {
      phone_number_id: WA_PHONE_ID,
      waba_id: '100000000000089',
      access_token: 'EAAGdoorswhatsapptoken',
      app_secret: META_SECRET,
      verify_token: 'doors-verify',
    },
  });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await connect(t, owner, {
    location_id: loc,
    provider: 'google_rcs',
    config: {
      agent_id: RBM_AGENT,
      client_token: RBM_TOKEN,
      service_account_json: {
        type: 'service_account',
        private_key_id: 'doorskeyid0001',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: 'rbm-doors@rbm-doors.iam.gserviceaccount.com',
      },
    },
  });
  const address = (
    await t.request({ method: 'GET', url: `/api/v1/email/inbound-address?location_id=${loc}`, token: owner })
  ).json().body.address as string;
  const form = new URL(
    (
      await t.request({ method: 'GET', url: '/api/v1/business/mybusiness/web-form-webhook', token: owner })
    ).json().body.url,
  ).pathname;

  /** The newest message a provider stored (ids are time-ordered). */
  const latest = async (provider: string) => {
    const [m] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.provider, provider), eq(messages.direction, 'in')))
      .orderBy(desc(messages.id))
      .limit(1);
    return m;
  };
  const byProviderId = async (provider: string, id: string) =>
    (
      await t.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, id)))
    )[0];

  let n = 0;
  // Several visitors and networks: the public doors' per-visitor and per-network limits are not what is tested.
  let widget: { socket: Socket; visitor: number; sent: number } | null = null;
  const chat = async () => {
    if (widget && widget.sent < 100) return widget;
    const visitor = ++n;
    const res = await t.request({
      method: 'POST',
      url: `/widget-api/locations/${loc}/sessions`,
      payload: { name: 'Dora Door', email: `dora${visitor}@example.com`, page: {} },
      remoteAddress: `198.51.100.${visitor % 250}`,
    });
    const socket = await openSocket(`${url}/visitor`, res.json().visitor_token, sockets);
    widget = { socket, visitor, sent: 0 };
    return widget;
  };

  const doors: Door[] = [
    {
      name: 'Twilio SMS webhook',
      async send(text) {
        const sid = `SM${randomUUID().replaceAll('-', '')}`;
        const res = await postTwilio(t, '/webhooks/twilio/messaging', {
          AccountSid: TWILIO_SID,
          MessageSid: sid,
          From: '+61491570188',
          To: NUMBER,
          Body: text,
          NumMedia: '0',
        });
        return { status: res.statusCode, stored: await byProviderId('twilio', sid) };
      },
    },
    {
      name: 'WhatsApp webhook',
      async send(text) {
        const id = `wamid.${randomUUID()}`;
        const body = JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '100000000000089',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { display_phone_number: '15555550188', phone_number_id: WA_PHONE_ID },
                    contacts: [{ profile: { name: 'Zoë Door' }, wa_id: '61491570288' }],
                    messages: [
                      {
                        from: '61491570288',
                        id,
                        timestamp: String(Math.floor(Date.now() / 1000)),
                        type: 'text',
                        text: { body: text },
                      },
                    ],
                  },
                },
              ],
            },
          ],
        });
        const res = await t.request({
          method: 'POST',
          url: '/webhooks/meta',
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': hubSignature(META_SECRET, body),
          },
          payload: body,
        });
        return { status: res.statusCode, stored: await byProviderId('whatsapp', id) };
      },
    },
    {
      name: 'Google RCS webhook',
      async send(text) {
        const id = `rbm-${randomUUID()}`;
        const decoded = JSON.stringify({
          agentId: RBM_AGENT,
          sendTime: new Date().toISOString(),
          senderPhoneNumber: '+61491570388',
          messageId: id,
          text,
        });
        const body = JSON.stringify({
          message: { attributes: {}, data: Buffer.from(decoded).toString('base64'), messageId: id },
          subscription: 'projects/rbm-doors/subscriptions/rbm-doors',
        });
        const res = await t.request({
          method: 'POST',
          url: '/webhooks/google-rcs',
          headers: {
            'content-type': 'application/json',
            'x-goog-signature': googSignature(RBM_TOKEN, decoded),
          },
          payload: body,
        });
        return { status: res.statusCode, stored: await byProviderId('google_rcs', id) };
      },
    },
    {
      name: 'email by SMTP',
      async send(text) {
        const id = `${randomUUID()}@mail.example.com`;
        let status: number;
        try {
          const info = await mail.sendMail({
            from: '"Eve Door" <eve.door@example.com>',
            to: address,
            subject: 'A question',
            messageId: `<${id}>`,
            text,
          });
          status = Number(info.response.slice(0, 3));
        } catch (error) {
          status = (error as { responseCode?: number }).responseCode ?? 0;
        }
        return { status, stored: await byProviderId('email', id) };
      },
    },
    {
      name: 'web form webhook',
      async send(text) {
        const visitor = ++n;
        const res = await t.request({
          method: 'POST',
          url: form,
          payload: { name: 'Fay Door', email: `fay${visitor}@example.com`, message: text },
          remoteAddress: `203.0.113.${visitor % 250}`,
        });
        return {
          status: res.statusCode,
          stored: res.statusCode === 200 ? await latest('web_form') : undefined,
        };
      },
    },
    {
      name: 'website chat socket',
      async send(text) {
        const w = await chat();
        w.sent++;
        const client_id = randomUUID();
        const ack = (await w.socket.timeout(15_000).emitWithAck('message', { text, client_id })) as {
          ok: boolean;
        };
        return { status: ack.ok ? 200 : 400, stored: await latest('widget') };
      },
    },
    {
      name: 'sandbox simulator',
      async send(text) {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/sandbox/inbound',
          token: owner,
          payload: { channel: 'sms', location_id: loc, from: { phone: '+61491570488' }, message: text },
        });
        return {
          status: res.statusCode,
          stored: res.statusCode === 200 ? await latest('sandbox') : undefined,
        };
      },
    },
  ];

  return {
    suite,
    doors,
    emailAddress: address,
    async sendRawEmail(raw) {
      const info = await mail.sendMail({
        envelope: { from: 'sender@example.com', to: [address] },
        raw,
      });
      return info.response;
    },
    messagesWithText: (text) => t.database.db.select().from(messages).where(eq(messages.message, text)),
    async close() {
      for (const s of sockets) s.disconnect();
      mail.close();
      await suite.close();
    },
  };
}

/** The enquiry a stored message is in, as its list entry shows it. */
export async function enquiryOfMessage(doors: Doors, m: typeof messages.$inferSelect) {
  const [e] = await doors.suite.t.database.db.select().from(enquiries).where(eq(enquiries.id, m.enquiry_id));
  return e!;
}
