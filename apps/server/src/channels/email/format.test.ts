import { describe, expect, it } from 'vitest';
import { enquiryOfReplyToken, inboundAddress, parseRecipient, replyToken } from './address.ts';
import { sanitizeHtml, splitQuotedReply } from './html.ts';
import { messageIds } from './message-id.ts';
import { parseEmail } from './parse.ts';
import { deliveryStatusNotification } from './testing.ts';

describe('sanitizeHtml keeps formatting and drops anything that could run', () => {
  it.each([
    ['<p>Hi <b>there</b></p>', '<p>Hi <b>there</b></p>'],
    ['<script>alert(1)</script>ok', 'ok'],
    ['<SCRIPT type="text/javascript">alert(1)</SCRIPT >ok', 'ok'],
    ['<style>p{color:red}</style><p style="x">ok</p>', '<p>ok</p>'],
    ['<iframe src="https://evil.example"></iframe>ok', 'ok'],
    ['<img src=x onerror="alert(1)">ok', 'ok'],
    ['<p onmouseover="alert(1)">ok</p>', '<p>ok</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="javascript&colon;alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,<script>">x</a>', '<a>x</a>'],
    [
      '<a href="https://example.com/?a=1&amp;b=&quot;2">x</a>',
      '<a href="https://example.com/?a=1&amp;b=&quot;2" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    ],
    ['<svg><script>alert(1)</script></svg>ok', 'ok'],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>ok', 'ok'],
    ['<!-- <script>alert(1)</script> -->ok', 'ok'],
    ['<!DOCTYPE html><html><head><title>t</title></head><body>ok</body></html>', 'ok'],
    ['a < b & c > d "q"', 'a &lt; b &amp; c &gt; d &quot;q&quot;'],
    ['caf&eacute; &amp; &#233;', 'caf&eacute; &amp; &#233;'],
    ['<b>unclosed <i>tags', '<b>unclosed <i>tags</i></b>'],
    ['</div>stray closer', 'stray closer'],
    ['<p title="a>b">ok</p>', '<p>ok</p>'],
    ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
    ['<textarea><script>alert(1)</script></textarea>ok', 'ok'],
    ['<p>broken <a href="https://x.example"', '<p>broken </p>'],
  ])('%s', (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });
});

describe('splitQuotedReply separates the quoted copy of earlier mail at the end', () => {
  it.each([
    [
      'Thanks!\n\nOn Mon, 5 Jan 2026, Ari wrote:\n> hello\n> there\n',
      'Thanks!',
      'On Mon, 5 Jan 2026, Ari wrote:\n> hello\n> there',
    ],
    [
      'Sure.\n\nOn Mon, 5 Jan 2026 at 10:00, Harbourside Dental <a@b.example>\nwrote:\n\n> hi\n',
      'Sure.',
      'On Mon, 5 Jan 2026 at 10:00, Harbourside Dental <a@b.example>\nwrote:\n\n> hi',
    ],
    [
      'On Friday works for me.\nOn Mon, 5 Jan, Bo wrote:\n> when?',
      'On Friday works for me.',
      'On Mon, 5 Jan, Bo wrote:\n> when?',
    ],
    [
      'Yes\n\n-----Original Message-----\nFrom: Us\nSent: Monday\n\nOld text',
      'Yes',
      '-----Original Message-----\nFrom: Us\nSent: Monday\n\nOld text',
    ],
    ['> quoted first\nmy answer below', '> quoted first\nmy answer below', null],
    ['> only a quote\n> nothing else', '> only a quote\n> nothing else', null],
    ['No quote at all', 'No quote at all', null],
  ])('%j', (input, body, quoted) => {
    expect(splitQuotedReply(input)).toEqual({ body, quoted });
  });
});

describe('addresses and reply tokens', () => {
  const secret = Buffer.alloc(32, 7);
  const enquiry = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
  const domain = 'inbound.switchboard.local';

  it('round-trips a reply token within the 64-character local part limit', () => {
    const token = replyToken(secret, enquiry);
    expect(token).toMatch(/^[a-z2-7]{36}$/);
    const address = inboundAddress(domain, '0123456789abcdef', token);
    expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
    expect(
      parseRecipient(address.toUpperCase().replace('INBOUND.SWITCHBOARD.LOCAL', domain), domain),
    ).toEqual({
      location_token: '0123456789abcdef',
      reply_token: token,
    });
    expect(enquiryOfReplyToken(secret, token)).toBe(enquiry);
  });

  it('refuses a token with a wrong MAC, another key, or a wrong length', () => {
    const token = replyToken(secret, enquiry);
    const flipped = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    expect(enquiryOfReplyToken(secret, flipped)).toBeNull();
    expect(enquiryOfReplyToken(Buffer.alloc(32, 8), token)).toBeNull();
    expect(enquiryOfReplyToken(secret, token.slice(1))).toBeNull();
    expect(enquiryOfReplyToken(secret, `${token.slice(0, -1)}!`)).toBeNull();
  });

  it('accepts only the one spelling it wrote, though the last character carries unused bits', () => {
    const token = replyToken(secret, enquiry);
    const others = [...'abcdefghijklmnopqrstuvwxyz234567'].filter((c) => c !== token.at(-1));
    for (const last of others) expect(enquiryOfReplyToken(secret, token.slice(0, -1) + last)).toBeNull();
  });

  it.each([
    [
      'loc-0123456789abcdef@inbound.switchboard.local',
      { location_token: '0123456789abcdef', reply_token: null },
    ],
    ['loc-0123456789abcdef@other.example', null],
    ['support@inbound.switchboard.local', null],
    ['loc-@inbound.switchboard.local', null],
    ['loc-0123456789abcdef+a+b@inbound.switchboard.local', null],
  ])('parseRecipient(%s)', (address, expected) => {
    expect(parseRecipient(address, domain)).toEqual(expected);
  });

  it('reads Message-ID lists as written in In-Reply-To and References', () => {
    expect(messageIds('<a@x>\r\n <b@y> <a@x>')).toEqual(['a@x', 'b@y']);
    expect(messageIds('a@x')).toEqual(['a@x']);
    expect(messageIds('')).toEqual([]);
  });
});

describe('delivery status notifications', () => {
  it('reads the original Message-ID, the action and the unfolded diagnostic', async () => {
    const raw = deliveryStatusNotification({
      to: 'loc-0123456789abcdef@inbound.switchboard.local',
      originalMessageId: 'abc@inbound.switchboard.local',
      recipient: 'kim@example.com',
      diagnostic: '550 5.1.1 <kim@example.com>: Recipient address\r\n    rejected: User unknown',
    });
    const parsed = await parseEmail(Buffer.from(raw));
    expect(parsed.report).toEqual({
      original_message_ids: ['abc@inbound.switchboard.local'],
      failed: true,
      delayed: false,
      diagnostic: '550 5.1.1 <kim@example.com>: Recipient address rejected: User unknown',
    });
    expect(parsed.attachments).toEqual([]);
    expect(parsed.automatic).toBe('auto-reply');
  });
});
