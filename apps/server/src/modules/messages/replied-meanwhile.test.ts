import { messages } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';
import { sendAutomatic } from './automatic.ts';

type Msg = { id: string; message: string; direction: string };

describe('two people answering the same customer', () => {
  let t: TestApp;
  let owner: string;
  let sam: string; // staff1, Sam Nguyen
  let priya: string; // staff2
  let north: string;
  let loc: string;

  const send = (enquiryId: string, payload: object, token: string) =>
    t.request({ method: 'POST', url: `/api/v1/enquiries/${enquiryId}/messages`, token, payload });
  const stored = async (enquiryId: string) =>
    t.database.db.select().from(messages).where(eq(messages.enquiry_id, enquiryId));

  let phone = 0;
  const conversation = async () =>
    inbound(t, owner, {
      location_id: loc,
      from: { phone: `+6149157${String(1000 + phone++).padStart(4, '0')}` },
      message: 'How much is a check-up and clean?',
    });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    sam = await t.login(DEMO_LOGINS.staff1);
    priya = await t.login(DEMO_LOGINS.staff2);
    north = await t.login(DEMO_LOGINS.northsideOwner);
    loc = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  it("refuses A's reply after B answered since A read the thread, naming B and B's reply; nothing is sent", async () => {
    const { enquiry_id, message } = await conversation();
    // Priya reads the thread (its newest message is the customer's), then Sam answers.
    const b = await send(
      enquiry_id,
      { message: 'A check-up and clean is $180.', seen_message_id: message.id },
      sam,
    );
    expect(b.statusCode, b.body).toBe(200);
    const bReply = b.json().body as Msg;

    const a = await send(
      enquiry_id,
      { message: 'It is $210 for both.', client_id: 'priya-1', seen_message_id: message.id },
      priya,
    );
    expect(a.statusCode, a.body).toBe(409);
    const refusal = a.json();
    expect(refusal).toMatchObject({
      code: 'replied_meanwhile',
      reply: {
        id: bReply.id,
        message: 'A check-up and clean is $180.',
        attachments: 0,
        by: { kind: 'teammate', full_name: 'Sam Nguyen' },
      },
    });
    expect(refusal.message).toContain('Sam Nguyen replied to this customer');
    expect(new Date(refusal.reply.created_at).toISOString()).toBe(refusal.reply.created_at);
    expect((await stored(enquiry_id)).map((m) => m.message)).not.toContain('It is $210 for both.');

    // Having read it, she sends anyway: it goes.
    const anyway = await send(
      enquiry_id,
      {
        message: 'It is $210 for both.',
        client_id: 'priya-1',
        seen_message_id: message.id,
        send_anyway: true,
      },
      priya,
    );
    expect(anyway.statusCode, anyway.body).toBe(200);
    expect((await stored(enquiry_id)).map((m) => m.message)).toContain('It is $210 for both.');
  });

  it("sends A's reply once A has seen B's reply, and never counts A's own replies", async () => {
    const { enquiry_id, message } = await conversation();
    const b = (await send(enquiry_id, { message: 'Yes, $180.', seen_message_id: message.id }, sam)).json()
      .body as Msg;
    const a = await send(enquiry_id, { message: 'Booked you for Tuesday.', seen_message_id: b.id }, priya);
    expect(a.statusCode, a.body).toBe(200);
    // Sam's second reply, written before he saw his own first one land elsewhere: his own do not count.
    const again = await send(enquiry_id, { message: 'See you then.', seen_message_id: message.id }, sam);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().reply.by.full_name).not.toBe('Sam Nguyen');
    const own = await send(enquiry_id, { message: 'See you then.', seen_message_id: a.json().body.id }, sam);
    expect(own.statusCode, own.body).toBe(200);
  });

  it('keeps working for senders that do not say what they saw', async () => {
    const { enquiry_id } = await conversation();
    expect((await send(enquiry_id, { message: 'Hello from Sam.' }, sam)).statusCode).toBe(200);
    const res = await send(enquiry_id, { message: 'Hello from Priya.' }, priya);
    expect(res.statusCode, res.body).toBe(200);
  });

  it("counts the assistant's replies, not the business's automatic messages", async () => {
    const { enquiry_id, message } = await conversation();
    const auto = await sendAutomatic(t.app, {
      enquiry_id,
      message: 'Thanks for calling, we missed you.',
      client_id: 'missed-call-1',
      meta: { auto: 'missed_call' },
    });
    expect(auto.sent).toBe(true);
    const afterAuto = await send(enquiry_id, { message: 'Hi!', seen_message_id: message.id }, priya);
    expect(afterAuto.statusCode, afterAuto.body).toBe(200);

    const assistant = await sendAutomatic(t.app, {
      enquiry_id,
      message: 'A check-up and clean is $180.',
      client_id: 'ai:1',
      meta: { auto: 'assistant' },
      ai_interaction: 'ai_generated',
    });
    expect(assistant.sent).toBe(true);
    const res = await send(
      enquiry_id,
      { message: 'It is $210.', seen_message_id: afterAuto.json().body.id },
      sam,
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'replied_meanwhile',
      reply: { message: 'A check-up and clean is $180.', by: { kind: 'assistant', full_name: null } },
    });
    expect(res.json().message).toContain('The assistant replied');
  });

  it("answers 404 for another business's enquiry and 422 for a seen message from another conversation", async () => {
    const { enquiry_id, message } = await conversation();
    const other = await conversation();
    const foreign = await send(enquiry_id, { message: 'Hi', seen_message_id: message.id }, north);
    expect(foreign.statusCode).toBe(404);
    const wrong = await send(other.enquiry_id, { message: 'Hi', seen_message_id: message.id }, sam);
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json().message).toContain('seen_message_id');
    expect((await stored(other.enquiry_id)).filter((m) => m.direction === 'out')).toHaveLength(0);
  });

  it('with nothing seen (null), any teammate reply in the thread counts', async () => {
    const { enquiry_id } = await conversation();
    await send(enquiry_id, { message: 'Sam here.' }, sam);
    const res = await send(enquiry_id, { message: 'Priya here.', seen_message_id: null }, priya);
    expect(res.statusCode, res.body).toBe(409);
  });
});
