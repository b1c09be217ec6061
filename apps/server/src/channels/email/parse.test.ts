import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseEmail } from './parse.ts';

/** A message from its header lines and body bytes, as a mail client writes it (CRLF). */
function mail(
  headers: string[],
  body: Buffer | string = 'Hello',
  from = 'Kim Lee <kim@example.com>',
): Buffer {
  return Buffer.concat([
    Buffer.from(`${[`From: ${from}`, 'To: desk@example.net', ...headers].join('\r\n')}\r\n\r\n`),
    typeof body === 'string' ? Buffer.from(body) : body,
  ]);
}

/** ISO-2022-JP (a stateful encoding iconv-lite does not write), as Python's codec writes this sentence. */
const ISO_2022_JP: Record<string, string> = {
  明日の予約は可能ですか: '1b24424c40467c244e4d3d4c73244f3244473d24472439242b1b2842',
};

const encode = (text: string, charset: string) =>
  charset === 'iso-2022-jp' ? Buffer.from(ISO_2022_JP[text]!, 'hex') : iconv.encode(text, charset);

/** An RFC 2047 encoded word of `text` in `charset` (B encoding). */
const encodedWord = (charset: string, text: string) =>
  `=?${charset}?B?${encode(text, charset).toString('base64')}?=`;

describe('charsets: what the customer wrote arrives whole, in the body and in encoded-word headers', () => {
  it.each([
    ['windows-1252', '€20 “quoted” – dash … ‘single’'],
    ['iso-8859-1', 'Café crème à 3 £ ¿qué?'],
    ['iso-8859-15', 'Prix : 20 € œuvre Š'],
    ['shift_jis', '予約を変更したいです。'],
    ['iso-2022-jp', '明日の予約は可能ですか'],
    ['gb2312', '我想预约明天下午'],
    ['gbk', '請問明天有空位嗎'],
    ['big5', '請問明天有空位嗎'],
    ['koi8-r', 'Можно записаться на завтра?'],
    ['windows-1251', 'Здравствуйте, сколько стоит?'],
    ['euc-kr', '내일 예약 가능한가요?'],
  ])('%s', async (charset, text) => {
    const parsed = await parseEmail(
      mail(
        [
          `Subject: ${encodedWord(charset, text)}`,
          `Content-Type: text/plain; charset=${charset}`,
          'Content-Transfer-Encoding: 8bit',
        ],
        encode(text, charset),
      ),
    );
    expect(parsed.subject).toBe(text);
    expect(parsed.text).toBe(text);
  });

  it('a quoted-printable windows-1252 body keeps its euro sign and smart quotes', async () => {
    const parsed = await parseEmail(
      mail(
        [
          'Subject: Price',
          'Content-Type: text/plain; charset="Windows-1252"',
          'Content-Transfer-Encoding: quoted-printable',
        ],
        'The quote said =8020 =96 is that =93right=94?',
      ),
    );
    expect(parsed.text).toBe('The quote said €20 – is that “right”?');
  });
});

describe('HTML-only mail is readable', () => {
  const html = [
    '<html><head><style>p{color:red}</style><title>Booking</title></head><body>',
    '<h2>New booking request</h2>',
    '<p>Hi, I would like a <b>check-up</b> on Friday.</p>',
    '<table><tr><th>Service</th><th>Price</th></tr><tr><td>Check-up</td><td>€85</td></tr></table>',
    '<p>My details are <a href="https://example.com/me">here</a>.</p>',
    '<img src="cid:logo"></body></html>',
  ].join('');

  it('its text is made from the HTML, and the HTML is kept to show', async () => {
    const parsed = await parseEmail(
      mail(['Subject: Booking', 'Content-Type: text/html; charset=utf-8'], html),
    );
    expect(parsed.text).toContain('New booking request');
    expect(parsed.text).toContain('Hi, I would like a check-up on Friday.');
    expect(parsed.text).toMatch(/Check-up\s+€85/);
    expect(parsed.text).toContain('here [https://example.com/me]');
    expect(parsed.text).not.toMatch(/color:red|cid:|<|Booking\n/);
    expect(parsed.html).toContain('<table>');
    expect(parsed.html_fuller).toBe(true);
  });

  it('a text part that says as much as the HTML leaves the HTML unoffered', async () => {
    const parsed = await parseEmail(
      mail(
        ['Subject: Hi', 'Content-Type: multipart/alternative; boundary="b"'],
        [
          '--b',
          'Content-Type: text/plain; charset=utf-8',
          '',
          'See you on Friday at ten.',
          '--b',
          'Content-Type: text/html; charset=utf-8',
          '',
          '<p>See you on <b>Friday</b> at ten.</p>',
          '--b--',
          '',
        ].join('\r\n'),
      ),
    );
    expect(parsed.text).toBe('See you on Friday at ten.');
    expect(parsed.html_fuller).toBe(false);
  });
});

describe('the customer is the person a reply should reach', () => {
  it('a form relay sending from no-reply: the Reply-To person, with the relay as sent_by', async () => {
    const parsed = await parseEmail(
      mail(
        ['Subject: Contact form', 'Reply-To: "Ana Souza" <ana@example.org>'],
        'Name: Ana\r\nMessage: Do you take new patients?',
        'Website Forms <no-reply@forms.example>',
      ),
    );
    expect(parsed.from).toEqual({ address: 'ana@example.org', name: 'Ana Souza' });
    expect(parsed.sent_by).toBe('no-reply@forms.example');
  });

  it('a malformed Reply-To, or one that is From itself, leaves From', async () => {
    for (const replyTo of [
      'Reply-To: not an address',
      'Reply-To: <kim@example.com>',
      'Reply-To: a@b.c, d@e.f',
    ]) {
      const parsed = await parseEmail(mail(['Subject: x', replyTo]));
      expect(parsed.from?.address).toBe('kim@example.com');
      expect(parsed.sent_by).toBeNull();
    }
  });

  it('a Google Group names its author in X-Original-Sender; a list replying to itself keeps the author', async () => {
    const group = await parseEmail(
      Buffer.from(
        [
          "From: 'Ana Souza' via Front Desk <desk@googlegroups.com>",
          'To: desk@googlegroups.com',
          'Reply-To: desk@googlegroups.com',
          'X-Original-Sender: ana@example.org',
          'List-Id: <desk.googlegroups.com>',
          'List-Post: <https://groups.google.com/group/desk/post>, <mailto:desk@googlegroups.com>',
          'Subject: Opening hours',
          '',
          'Are you open on Saturday?',
        ].join('\r\n'),
      ),
    );
    expect(group.from?.address).toBe('ana@example.org');
    expect(group.sent_by).toBe('desk@googlegroups.com');
    expect(group.automatic).toBe('list');

    const list = await parseEmail(
      Buffer.from(
        [
          'From: Ana <ana@example.org>',
          'To: clinic@lists.example',
          'Reply-To: clinic@lists.example',
          'List-Post: <mailto:clinic@lists.example>',
          'Subject: x',
          '',
          'hi',
        ].join('\r\n'),
      ),
    );
    expect(list.from?.address).toBe('ana@example.org');
  });
});

describe('automatic mail is recognised', () => {
  it.each([
    ['Auto-Submitted: auto-replied', 'auto-reply'],
    ['Auto-Submitted: auto-generated', 'auto-generated'],
    ['Auto-Submitted: auto-notified', 'auto-generated'],
    ['X-Autoreply: yes', 'auto-reply'],
    ['X-Autorespond: 1', 'auto-reply'],
    ['Precedence: bulk', 'bulk'],
    ['Precedence: junk', 'bulk'],
    ['Precedence: list', 'list'],
    ['Precedence: auto_reply', 'auto-reply'],
    ['List-Id: Newsletter <news.example.com>', 'list'],
    ['List-Unsubscribe: <mailto:unsub@example.com>', 'list'],
    ['X-Auto-Response-Suppress: All', 'auto-generated'],
    ['X-Auto-Response-Suppress: OOF, AutoReply', 'auto-generated'],
    ['Subject-Line: Automatic reply: Your booking', 'auto-reply'],
    ['Subject-Line: Out of Office: back Monday', 'auto-reply'],
  ])('%s', async (header, kind) => {
    const headers = header.startsWith('Subject-Line: ')
      ? [`Subject: ${header.slice('Subject-Line: '.length)}`]
      : ['Subject: Re: your booking', header];
    expect((await parseEmail(mail(headers))).automatic).toBe(kind);
  });

  it.each([
    'Auto-Submitted: no',
    'X-Auto-Response-Suppress: None',
    'Precedence: first-class',
    'Subject-Line: Out of office hours, can I still book?',
  ])('not %s', async (header) => {
    const headers = header.startsWith('Subject-Line: ')
      ? [`Subject: ${header.slice('Subject-Line: '.length)}`]
      : ['Subject: Booking', header];
    expect((await parseEmail(mail(headers))).automatic).toBeNull();
  });
});

describe('delivery reports are read whole', () => {
  const report = (recipientFields: string[]) =>
    Buffer.from(
      [
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.com>',
        'To: loc-0123456789abcdef@inbound.switchboard.local',
        'Subject: Delivery Status Notification',
        'Auto-Submitted: auto-replied',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="R"',
        '',
        '--R',
        'Content-Type: text/plain',
        '',
        'This is the mail system at host mx.example.com.',
        '--R',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.com',
        '',
        'Final-Recipient: rfc822; kim@example.com',
        ...recipientFields,
        '',
        '--R',
        'Content-Type: text/rfc822-headers',
        '',
        'Message-ID: <orig-1@inbound.switchboard.local>',
        'Subject: Your booking',
        '',
        '--R--',
        '',
      ].join('\r\n'),
    );

  it('a permanent Status without an Action fails the message', async () => {
    const parsed = await parseEmail(
      report(['Status: 5.1.1', 'Diagnostic-Code: smtp; 550 5.1.1 User unknown']),
    );
    expect(parsed.report).toEqual({
      original_message_ids: ['orig-1@inbound.switchboard.local'],
      failed: true,
      delayed: false,
      diagnostic: '550 5.1.1 User unknown',
    });
  });

  it('a delayed one, or a 4.x.x Status alone, is a warning', async () => {
    for (const fields of [
      ['Action: delayed', 'Status: 4.4.7', 'Diagnostic-Code: smtp; 451 4.4.7 Mailbox busy'],
      ['Status: 4.2.2', 'Diagnostic-Code: smtp; 452 4.2.2 Mailbox full'],
    ]) {
      const parsed = await parseEmail(report(fields));
      expect(parsed.report?.failed).toBe(false);
      expect(parsed.report?.delayed).toBe(true);
      expect(parsed.report?.diagnostic).toMatch(/^45\d 4\.\d\.\d /);
    }
  });

  it('a delivered or relayed report is neither', async () => {
    const parsed = await parseEmail(report(['Action: relayed', 'Status: 2.0.0']));
    expect(parsed.report).toMatchObject({ failed: false, delayed: false });
  });
});

describe('attachments', () => {
  it('keeps empty and nameless files in the list, with their size', async () => {
    const parsed = await parseEmail(
      mail(
        ['Subject: files', 'Content-Type: multipart/mixed; boundary="m"'],
        [
          '--m',
          'Content-Type: text/plain',
          '',
          'Two files.',
          '--m',
          'Content-Type: application/pdf; name="empty.pdf"',
          'Content-Disposition: attachment; filename="empty.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          '',
          '--m',
          'Content-Type: application/octet-stream',
          'Content-Disposition: attachment',
          'Content-Transfer-Encoding: base64',
          '',
          Buffer.from('some bytes').toString('base64'),
          '--m--',
          '',
        ].join('\r\n'),
      ),
    );
    expect(parsed.attachments.map((a) => [a.filename, a.content.length])).toEqual([
      ['empty.pdf', 0],
      [null, 10],
    ]);
  });
});
