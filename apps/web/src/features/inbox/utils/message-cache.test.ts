import { describe, expect, it } from 'vitest';
import type { MessageDto, MessagePage, Paged } from '../types.ts';
import {
  flattenMessages,
  keepLocalMessages,
  mergeMessage,
  optimisticMessage,
  removeMessage,
  updateMessage,
  upsertMessage,
} from './message-cache.ts';

const USER = { id: 'u1', fullName: 'Sam Nguyen', avatar: null };

function msg(id: string, minute: number, over: Partial<MessageDto> = {}): MessageDto {
  return {
    ...optimisticMessage({
      clientId: `x-${id}`,
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'sms',
      message: `message ${id}`,
      attachments: [],
      user: USER,
      now: new Date(Date.UTC(2025, 0, 1, 9, minute)),
    }),
    id,
    client_id: null,
    status: 'received',
    direction: 'in',
    team_user: null,
    team_user_id: null,
    ...over,
  };
}

function thread(...pages: MessageDto[][]): Paged<MessagePage> {
  return {
    pages: pages.map((items, i) => ({ items, page: i + 1, page_size: 3, has_more: i < pages.length - 1 })),
    pageParams: pages.map((_, i) => i + 1),
  };
}

const texts = (data: Paged<MessagePage>) => flattenMessages(data).map((m) => m.id);

describe('optimisticMessage (spec §4)', () => {
  it('starts queued, from me, with the client id', () => {
    const m = optimisticMessage({
      clientId: 'abc',
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'sms',
      message: 'On our way',
      attachments: [],
      user: USER,
    });
    expect(m).toMatchObject({
      id: 'client:abc',
      client_id: 'abc',
      status: 'queued',
      direction: 'out',
      team_user: { full_name: 'Sam Nguyen', avatar: null },
      call_summary_status: null,
    });
  });

  it('gives an email its subject, and call summary and transcription not_started', () => {
    const m = optimisticMessage({
      clientId: 'abc',
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'email',
      message: 'Hello',
      subject: 'Your crown',
      attachments: [],
      user: USER,
    });
    expect(m).toMatchObject({
      status: 'queued',
      meta: { subject: 'Your crown' },
      call_summary_status: 'not_started',
      call_transcription_status: 'not_started',
    });
  });
});

describe('upsertMessage: the open thread', () => {
  it('appends a new message to the newest page', () => {
    const data = thread([msg('m2', 2), msg('m3', 3)], [msg('m1', 1)]);
    expect(texts(upsertMessage(data, msg('m4', 4)))).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('keeps time order when a message arrives late', () => {
    const data = thread([msg('m1', 1), msg('m3', 3)]);
    expect(texts(upsertMessage(data, msg('m2', 2)))).toEqual(['m1', 'm2', 'm3']);
  });

  it("reconciles the optimistic message with the server's echo by client_id", () => {
    const mine = optimisticMessage({
      clientId: 'cid-1',
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'sms',
      message: 'See you at 3',
      attachments: [],
      user: USER,
      now: new Date(Date.UTC(2025, 0, 1, 9, 5)),
    });
    const data = upsertMessage(thread([msg('m1', 1)]), mine);
    const echo = { ...mine, id: 'server-1', created_at: new Date(Date.UTC(2025, 0, 1, 9, 6)).toISOString() };
    const next = upsertMessage(data, echo);
    expect(texts(next)).toEqual(['m1', 'server-1']);
    // A second echo (socket and POST answer both arrive) changes nothing further.
    expect(texts(upsertMessage(next, echo))).toEqual(['m1', 'server-1']);
  });

  it('never moves a status backwards when the POST answer (queued) lands after the socket (delivered)', () => {
    const delivered = msg('s1', 5, {
      status: 'delivered',
      direction: 'out',
      client_id: 'cid',
      team_user: null,
    });
    const data = thread([delivered]);
    const postAnswer = msg('s1', 5, {
      status: 'queued',
      direction: 'out',
      client_id: 'cid',
      team_user: { full_name: 'Sam Nguyen', avatar: null },
    });
    const [merged] = flattenMessages(upsertMessage(data, postAnswer));
    expect(merged?.status).toBe('delivered');
    expect(merged?.team_user?.full_name).toBe('Sam Nguyen');
  });
});

describe('updateMessage: status changes', () => {
  const sent = msg('s1', 5, {
    status: 'sent',
    direction: 'out',
    team_user: { full_name: 'Sam Nguyen', avatar: null },
  });

  it('moves the tick forward and keeps the sender the update leaves out', () => {
    const next = updateMessage(thread([sent]), { ...sent, status: 'delivered', team_user: null });
    expect(flattenMessages(next)[0]).toMatchObject({
      status: 'delivered',
      team_user: { full_name: 'Sam Nguyen' },
    });
  });

  it('shows a failure with its reason', () => {
    const next = updateMessage(thread([sent]), { ...sent, status: 'failed', error: 'Number unreachable' });
    expect(flattenMessages(next)[0]).toMatchObject({ status: 'failed', error: 'Number unreachable' });
  });

  it('ignores an update for a message on a page not loaded', () => {
    const data = thread([sent]);
    expect(updateMessage(data, msg('elsewhere', 1, { status: 'delivered' }))).toBe(data);
  });

  it('mergeMessage keeps read over a late delivered', () => {
    const read = { ...sent, status: 'read' as const };
    expect(mergeMessage(read, { ...sent, status: 'delivered' }).status).toBe('read');
  });
});

describe('removeMessage and flattenMessages', () => {
  it('takes back a refused optimistic message', () => {
    const mine = optimisticMessage({
      clientId: 'cid-9',
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'sms',
      message: 'x',
      attachments: [],
      user: USER,
    });
    const data = upsertMessage(thread([msg('m1', 1)]), mine);
    expect(texts(removeMessage(data, 'cid-9'))).toEqual(['m1']);
  });

  it('reads the thread oldest to newest across pages, each message once', () => {
    // The older page was fetched after a new message shifted the offsets: m3 comes back twice.
    const data = thread([msg('m4', 4), msg('m5', 5)], [msg('m2', 2), msg('m3', 3), msg('m4', 4)]);
    expect(texts(data)).toEqual(['m2', 'm3', 'm4', 'm5']);
  });
});

describe('keepLocalMessages: the thread fetched again', () => {
  const mine = (clientId: string, minute: number, status: MessageDto['status']) => ({
    ...optimisticMessage({
      clientId,
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'sms',
      message: `reply ${clientId}`,
      attachments: [],
      user: USER,
      now: new Date(Date.UTC(2025, 0, 1, 9, minute)),
    }),
    status,
  });

  it('keeps a reply that was not sent, and one on its way, in time order', () => {
    const before = thread([
      msg('m1', 1),
      mine('failed-1', 2, 'failed'),
      msg('m3', 3),
      mine('going-1', 4, 'queued'),
    ]);
    const fetched = thread([msg('m1', 1), msg('m3', 3)]).pages[0]!;
    expect(keepLocalMessages(fetched, before).items.map((m) => m.id)).toEqual([
      'm1',
      'client:failed-1',
      'm3',
      'client:going-1',
    ]);
  });

  it('gives back a reply that failed before the thread had loaded, once, beside the cache’s own copy', () => {
    const failed = mine('early-1', 2, 'failed');
    const fetched = thread([msg('m1', 1), msg('m3', 3)]).pages[0]!;
    expect(keepLocalMessages(fetched, undefined, [failed]).items.map((m) => m.id)).toEqual([
      'm1',
      'client:early-1',
      'm3',
    ]);
    const cached = thread([msg('m1', 1), failed]);
    expect(keepLocalMessages(fetched, cached, [failed]).items.map((m) => m.id)).toHaveLength(3);
  });

  it('drops the browser’s copy once the server has the reply (by client id), and changes nothing else', () => {
    const before = thread([msg('m1', 1), mine('sent-1', 2, 'queued')]);
    const stored = msg('m2', 2, { client_id: 'sent-1', direction: 'out', status: 'sent' });
    const fetched = thread([msg('m1', 1), stored]).pages[0]!;
    expect(keepLocalMessages(fetched, before)).toBe(fetched);
    expect(keepLocalMessages(fetched, undefined)).toBe(fetched);
  });
});
