import { WIDGET_MAX_MESSAGE_CHARS } from '@switchboard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview } from '../modules/messages/dto.ts';
import { atLength, hardTexts, WIDE } from './hard-texts.ts';
import { type Doors, enquiryOfMessage, openDoors } from './inbound-doors.ts';

/**
 * Real, valid, hard text (emoji with skin tones, ZWJ families and flags, combining marks, right-to-left with
 * numbers and bidi controls, CJK, the Big List of Naughty Strings, and lengths with a wide character on every
 * cut) through every door a customer's message comes in by: each is stored whole, reads back exactly, and its
 * enquiry's preview is valid text. Then text the database refuses (a NUL, half an emoji) at each door.
 */
describe('every inbound door', { timeout: 600_000 }, () => {
  let doors: Doors;
  beforeAll(async () => {
    doors = await openDoors();
  }, 180_000);
  afterAll(() => doors?.close(), 60_000);

  it('stores hard real-world text exactly, with a preview of whole characters', async () => {
    const texts = hardTexts();
    const failures: string[] = [];
    for (const door of doors.doors) {
      for (const text of texts) {
        const { status, stored } = await door.send(text);
        const shown = JSON.stringify(text.slice(0, 40));
        if (status !== 200 && status !== 250) {
          failures.push(`${door.name}: ${status} for ${shown}`);
          continue;
        }
        if (stored?.message !== text) {
          failures.push(`${door.name}: stored ${JSON.stringify(stored?.message?.slice(0, 40))} for ${shown}`);
          continue;
        }
        const e = await enquiryOfMessage(doors, stored);
        if (e.last_message_preview !== preview(text, 0) || !e.last_message_preview?.isWellFormed())
          failures.push(`${door.name}: preview ${JSON.stringify(e.last_message_preview)} for ${shown}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("stores text of each door's longest, ending in a wide character, whole; one more is refused, never a 5xx", async () => {
    // The doors' own limits; SMS and WhatsApp carry at most 1,600 and 4,096 characters, RCS and email have none.
    const longest: Record<string, { max: number; refused: boolean }> = {
      'website chat socket': { max: WIDGET_MAX_MESSAGE_CHARS, refused: true },
      'web form webhook': { max: 10_000, refused: true },
      'sandbox simulator': { max: 10_000, refused: true },
      'Twilio SMS webhook': { max: 1600, refused: false },
      'WhatsApp webhook': { max: 4096, refused: false },
      'Google RCS webhook': { max: 10_000, refused: false },
      'email by SMTP': { max: 10_000, refused: false },
    };
    for (const door of doors.doors) {
      const { max, refused } = longest[door.name]!;
      for (const wide of WIDE) {
        const text = atLength(max, wide, 'ü');
        const { status, stored } = await door.send(text);
        expect([200, 250], `${door.name} at ${max} ending ${wide}`).toContain(status);
        expect(stored?.message, `${door.name} at ${max} ending ${wide}`).toBe(text);
        const e = await enquiryOfMessage(doors, stored!);
        expect(e.last_message_preview).toBe(preview(text, 0));
        expect(e.last_message_preview!.isWellFormed()).toBe(true);
      }
      if (!refused) continue;
      // One character more, whichever way the door counts (zod counts code points, the chat UTF-16 units).
      const over = await door.send(atLength(max + 2, '😀', 'ü'));
      expect(over.status, `${door.name} over ${max}`).toBeGreaterThanOrEqual(400);
      expect(over.status, `${door.name} over ${max}`).toBeLessThan(500);
    }
  });

  it('keeps a message carrying a NUL or half an emoji, cleaned, at every door (never a 5xx, never lost)', async () => {
    for (const door of doors.doors) {
      for (const [sent, kept] of [
        ['before\u0000after', 'beforeafter'],
        ['half an emoji \ud83d here', 'half an emoji \ufffd here'],
        ['a low half \ude00 alone', 'a low half \ufffd alone'],
      ] as const) {
        const { status, stored } = await door.send(sent);
        // The sandbox is staff typing into the API: refused with what is wrong, as every API route is.
        if (door.name === 'sandbox simulator') {
          expect(status, door.name).toBe(400);
          continue;
        }
        expect([200, 250], `${door.name}: ${JSON.stringify(sent)}`).toContain(status);
        // An SMTP client cannot send a NUL or a lone surrogate as text: it goes as U+FFFD at worst.
        if (door.name === 'email by SMTP') expect(stored?.message.isWellFormed()).toBe(true);
        else expect(stored?.message, door.name).toBe(kept);
      }
    }
  });

  it('refuses a NUL in a path or query that a public route reads without a schema, naming the field', async () => {
    const { t } = doors.suite;
    for (const [method, url, field] of [
      ['POST', '/webhooks/forms/aaaaaaaaaaaaaaaa%00aaaaaaaaaaaaaaaa', 'path: token'],
      ['GET', '/webhooks/forms/aaaaaaaaaaaaaaaa%00aaaaaaaaaaaaaaaa', 'path: token'],
      ['GET', '/r/abcdef%00ghij', 'path: token'],
      [
        'GET',
        '/webhooks/meta?hub.mode=subscribe&hub.verify_token=a%00b&hub.challenge=1',
        'query: hub.verify_token',
      ],
      ['POST', '/webhooks/twilio/messaging?x=a%00b', 'query: x'],
    ] as const) {
      const res = await t.request({
        method,
        url,
        payload: method === 'POST' ? { message: 'hi' } : undefined,
      });
      expect(res.statusCode, url).toBe(400);
      // The refusal names the field in words: "Token: Remove the NUL character…".
      const name = field.split(': ')[1] ?? field;
      expect(res.json().message, url).toMatch(/NUL/);
      const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
      expect(letters(res.json().message), url).toContain(letters(name));
    }
  });

  it('keeps an email whose headers carry a NUL, and never fails a webhook naming an address with one', async () => {
    const { t } = doors.suite;
    const twilio = await t.request({
      method: 'POST',
      url: '/webhooks/twilio/messaging',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged' },
      payload: new URLSearchParams({
        MessageSid: 'SMnul',
        From: '+61491570188',
        To: '+1555\u0000',
        Body: 'x',
      }).toString(),
    });
    expect(twilio.statusCode).toBeLessThan(500);

    const email = doors.doors.find((d) => d.name === 'email by SMTP')!;
    const id = `nul-${Date.now()}@mail.example.com`;
    const raw = [
      'From: "Nul Header" <nul.header@example.com>',
      `To: ${doors.emailAddress}`,
      'Subject: About my booking\u0000 tomorrow',
      `Message-ID: <${id}\u0000>`,
      `In-Reply-To: <earlier\u0000@mail.example.com>`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Can we move it to 3pm?',
    ].join('\r\n');
    const info = await doors.sendRawEmail(raw);
    expect(info).toMatch(/^250 /);
    void email;
    const [stored] = await doors.messagesWithText('Can we move it to 3pm?');
    expect(stored?.meta).toMatchObject({ subject: 'About my booking tomorrow' });
  });
});
