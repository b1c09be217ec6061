import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

type Msg = {
  id: string;
  direction: string;
  message: string;
  meta: Record<string, unknown>;
  team_user_id: string | null;
};

describe('the assistant (built-in, no model)', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let other: string;
  let loc: string;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: unknown,
  ) =>
    t.request({
      method,
      url: `/api/v1${url}`,
      token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const thread = async (enquiryId: string): Promise<Msg[]> =>
    (await call('GET', `/enquiries/${enquiryId}/messages`, owner)).json().body.items;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    other = await t.login(DEMO_LOGINS.northsideOwner);
    loc = await selectedLocation(t, owner);
    for (const faq of [
      { question: 'What are your opening hours?', answer: 'We are open Monday to Friday 8am to 6pm.' },
      {
        question: 'Is there parking at the clinic?',
        answer: 'Yes, free parking behind the building on Kerr Street.',
      },
      {
        question: 'Do you bulk bill?',
        answer: 'We bulk bill children under 12 with a Medicare card.',
        phrasings: ['Is it free for kids?'],
      },
    ]) {
      const res = await call('POST', '/business/ai/faqs', owner, faq);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('keeps FAQs per business: all-locations flag and names, pages of 10, by ids, owner-only changes', async () => {
    const me = await getMe(t, owner);
    const names = me.businesses.find((b) => b.selected)!.locations.map((l) => l.name ?? 'Unknown Location');
    const made = (
      await call('POST', '/business/ai/faqs', owner, {
        question: 'Do you take Afterpay?',
        answer: 'Yes, for treatments over $100.',
        location_ids: [loc],
      })
    ).json().body;
    expect(made).toMatchObject({ all_locations: false, location_ids: [loc], location_names: [names[0]] });
    const page = (await call('GET', '/business/ai/faqs', owner)).json().body;
    expect(page).toMatchObject({ page: 1, page_size: 10, total: 4 });
    expect(
      page.items.find((f: { question: string }) => f.question.startsWith('What are')).location_names,
    ).toEqual(names);
    const byIds = (await call('POST', '/business/ai/faqs/get-by-ids', staff, { ids: [made.id] })).json().body
      .items;
    expect(byIds.map((f: { id: string }) => f.id)).toEqual([made.id]);

    expect((await call('POST', '/business/ai/faqs', staff, { question: 'x?', answer: 'y' })).statusCode).toBe(
      403,
    );
    expect((await call('PUT', `/business/ai/faqs/${made.id}`, other, { answer: 'hijack' })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/business/ai/faqs/${made.id}`, other)).statusCode).toBe(404);
    const bad = await call('POST', '/business/ai/faqs', owner, { question: '', answer: 'y' });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', '/business/ai/faqs', owner)).json().body.total).toBe(4);

    const changed = await call('PUT', `/business/ai/faqs/${made.id}`, owner, {
      location_ids: null,
      phrasings: ['Buy now pay later?'],
    });
    expect(changed.json().body).toMatchObject({ all_locations: true, phrasings: ['Buy now pay later?'] });
    expect((await call('DELETE', `/business/ai/faqs/${made.id}`, owner)).statusCode).toBe(200);
  });

  it('onboarding sets ai_info on /user/me and GET /business/ai says the built-in assistant answers', async () => {
    expect((await getMe(t, owner)).ai_info).toEqual({ onboarding_completed: false });
    const res = await call('POST', '/business/ai/onboard', owner, {
      description: 'A family dental clinic in Melbourne.',
      services: 'Check-ups, cleans, fillings, whitening and emergency dental care.',
      tone: 'friendly',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toMatchObject({
      profile: { onboarding_completed: true, tone: 'friendly' },
      provider: { kind: 'builtin', model: null },
    });
    expect((await getMe(t, owner)).ai_info).toEqual({ onboarding_completed: true });
  });

  it('suggests a reply from the FAQ with its source, and an empty one when there is nothing to reply to', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570201', name: 'Alex Smith' },
      message: 'hey, where can I park when I come in?',
    });
    const res = await call('POST', '/business/ai/response', staff, { enquiry_id });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().body;
    expect(body.message).toBe('Hi Alex, yes, free parking behind the building on Kerr Street.');
    expect(body.ai_interaction).toBe('ai_generated');
    expect(body.ai.sources.map((s: { title: string }) => s.title)).toEqual([
      'Is there parking at the clinic?',
    ]);
    const draft = (await call('GET', `/enquiries/${enquiry_id}/draft`, staff)).json().body;
    expect(draft).toMatchObject({ message: body.message, ai_interaction: 'ai_generated' });

    // Sent after an edit: the message records that the person changed the assistant's words.
    const sent = await call('POST', `/enquiries/${enquiry_id}/messages`, staff, {
      message: `${body.message} See you soon!`,
      ai_interaction: 'ai_generated',
    });
    expect(sent.json().body).toMatchObject({ ai_interaction: 'ai_generated', user_modified: true });

    const started = await call('POST', '/messages', owner, {
      channel: 'sms',
      phone: '+61491570202',
      message: 'Reminder: your check-up is tomorrow.',
    });
    expect(started.statusCode, started.body).toBe(200);
    const empty = await call('POST', '/business/ai/response', staff, {
      enquiry_id: started.json().body.enquiry_id,
    });
    expect(empty.json().body).toMatchObject({ message: '', ai: null });
  });

  it('rewrites a draft by clean-up and keeps the original', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570203', name: 'Jo Lee' },
      message: 'Can I move my appointment?',
    });
    const res = await call('POST', '/business/ai/rewrite-message', staff, {
      enquiry_id,
      message: 'sure  thing i can move it to to thursday at 3pm ,does that work',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toMatchObject({
      message:
        'Hi Jo,\n\nSure thing I can move it to thursday at 3pm, does that work.\n\nThanks,\nSam, Harbourside Dental',
      ai_interaction: 'ai_rewritten',
      ai_original: 'sure  thing i can move it to to thursday at 3pm ,does that work',
    });
    const otherEnquiry = await call('POST', '/business/ai/rewrite-message', other, {
      enquiry_id,
      message: 'hi',
    });
    expect(otherEnquiry.statusCode).toBe(404);
  });

  it('auto-replies at a location with its source, hands off when unsure, then stays silent until handed back', async () => {
    const toggled = await call('PUT', '/business/ai-auto-reply/toggle/auto', owner, {
      location_id: loc,
      options: { delay_seconds: 0 },
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    expect(toggled.json().body).toMatchObject({
      action: 'auto',
      options: { delay_seconds: 0, max_replies: 5 },
    });
    expect(
      (await call('PUT', '/business/ai-auto-reply/toggle/auto', staff, { location_id: loc })).statusCode,
    ).toBe(403);

    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570204', name: 'Pat Kim' },
      message: 'What time do you open on Monday?',
    });
    const answered = await eventually(async () =>
      (await thread(enquiry_id)).find((m) => m.direction === 'out'),
    );
    expect(answered.message).toBe('Hi Pat, we are open Monday to Friday 8am to 6pm.');
    expect(answered.team_user_id).toBeNull();
    expect(answered.meta.ai).toMatchObject({
      action: 'answer',
      sources: [{ kind: 'faq', title: 'What are your opening hours?' }],
    });

    await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570204' },
      message: 'Do you sell electric toothbrushes?',
    });
    const handed = await eventually(async () => {
      const lines = (await thread(enquiry_id)).filter((m) => m.direction === 'out');
      return lines.length === 2 ? lines[1] : null;
    });
    expect(handed.message, JSON.stringify(await thread(enquiry_id), null, 1)).toBe(
      "Thanks Pat, I've passed your message to our team and someone will reply shortly.",
    );
    expect(handed.meta.ai).toMatchObject({ action: 'handoff', sources: [] });
    const enquiry = (await call('GET', `/enquiries/${enquiry_id}`, staff)).json().body;
    expect(enquiry).toMatchObject({ needs_person: true, assigned_to: null });

    // Handed over: the assistant says nothing more, even to a question it knows.
    const again = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570204' },
      message: 'Is there parking?',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await thread(enquiry_id)).filter((m) => m.direction === 'out')).toHaveLength(2);
    expect(again.enquiry_id).toBe(enquiry_id);

    const back = await call('PUT', `/enquiries/${enquiry_id}/needs-person`, staff, { needs_person: false });
    expect(back.json().body.needs_person).toBe(false);
    await call('PUT', '/business/ai-auto-reply/toggle/off', owner, { location_id: loc });
  });

  it('stays silent while an administrator has the assistant turned off for the business, and answers again once it is back on', async () => {
    const admin = await t.login(DEMO_LOGINS.admin);
    const business = (await getMe(t, owner)).businesses.find((b) => b.selected)!.id;
    const assistant = async (on: boolean) =>
      expect(
        (await call('PATCH', `/admin/businesses/${business}`, admin, { feature_flags: { assistant: on } }))
          .statusCode,
      ).toBe(200);
    await call('PUT', '/business/ai-auto-reply/toggle/auto', owner, {
      location_id: loc,
      options: { delay_seconds: 0 },
    });
    await assistant(false);
    try {
      const { enquiry_id } = await inbound(t, owner, {
        location_id: loc,
        from: { phone: '+61491570214', name: 'Lee Park' },
        message: 'Is there parking at the clinic?',
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect((await thread(enquiry_id)).filter((m) => m.direction === 'out')).toEqual([]);
    } finally {
      await assistant(true);
    }
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570215', name: 'Sam Park' },
      message: 'Is there parking at the clinic?',
    });
    const answered = await eventually(async () =>
      (await thread(enquiry_id)).find((m) => m.direction === 'out'),
    );
    expect(answered.message).toContain('free parking behind the building');
    await call('PUT', '/business/ai-auto-reply/toggle/off', owner, { location_id: loc });
  });

  it('proposes an FAQ from how staff answered a handed-off question; accepting it makes it an FAQ', async () => {
    await call('PUT', '/business/ai-auto-reply/toggle/auto', owner, {
      location_id: loc,
      options: { delay_seconds: 0 },
    });
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570205', name: 'Lou' },
      message: 'Do you offer teeth whitening kits to take home?',
    });
    await eventually(
      async () => (await call('GET', `/enquiries/${enquiry_id}`, staff)).json().body.needs_person,
    );
    await call('POST', `/enquiries/${enquiry_id}/messages`, staff, {
      message: 'Yes, take-home whitening kits are $350.',
    });
    const proposal = await eventually(async () =>
      (await call('GET', '/business/ai/faqs?status=proposed', owner))
        .json()
        .body.items.find((f: { source_enquiry_id: string }) => f.source_enquiry_id === enquiry_id),
    );
    expect(proposal).toMatchObject({
      question: 'Do you offer teeth whitening kits to take home?',
      answer: 'Yes, take-home whitening kits are $350.',
      origin: 'handoff',
      status: 'proposed',
    });
    const accepted = await call('PUT', `/business/ai/faqs/${proposal.id}`, owner, { status: 'active' });
    expect(accepted.json().body.status).toBe('active');
    await call('PUT', '/business/ai-auto-reply/toggle/off', owner, { location_id: loc });
  });

  it('lets the owner try the assistant in the playground and rate its answers', async () => {
    const first = await call('POST', '/business/ai/messages', owner, { message: 'is it free for my kids?' });
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json().body;
    expect(body.message).toBe('Hi there, we bulk bill children under 12 with a Medicare card.');
    expect(body.reply.ai.sources[0].title).toBe('Do you bulk bill?');
    const next = await call('POST', `/business/ai/messages/${body.enquiry.id}`, owner, {
      message: 'can I speak to a real person',
    });
    expect(next.json().body.reply.ai.action).toBe('handoff');
    await call('POST', '/business/ai/messages', owner, { message: 'hours?' });
    const list = (await call('GET', '/business/ai/enquiries', owner)).json().body.items;
    expect(list.map((e: { title: string }) => e.title)).toEqual(['Conversation 1', 'Conversation 2']);
    const messages = (await call('GET', `/business/ai/enquiries/${body.enquiry.id}/messages`, owner)).json()
      .body;
    expect(messages).toMatchObject({ total: 4, page_size: 10 });
    expect((await call('GET', `/business/ai/enquiries/${body.enquiry.id}/messages`, other)).statusCode).toBe(
      404,
    );

    const rated = await call('POST', `/business/ai/messages/${body.reply.id}/rating`, owner, {
      rating: 'down',
      feedback: 'Say which clinics',
      message: 'is it free for my kids?',
      response: body.message,
    });
    expect(rated.statusCode, rated.body).toBe(200);
    const ratings = (await call('GET', '/business/ai/ratings', owner)).json().body;
    expect(ratings.items[0]).toMatchObject({ rating: 'down', feedback: 'Say which clinics' });
  });
});
