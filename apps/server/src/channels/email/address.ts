import { createHmac, timingSafeEqual } from 'node:crypto';
import { type DbOrTx, locations } from '@switchboard/db';
import { eq } from 'drizzle-orm';

/**
 * Inbound addresses. Each location receives at `loc-<token>@<INBOUND_EMAIL_DOMAIN>`, the token being the
 * location's stored random `inbound_email_token`. Outbound mail sets Reply-To to the plus-address
 * `loc-<token>+<reply token>@…`, where the reply token names the enquiry and carries a MAC, so a reply that
 * lost its In-Reply-To/References still finds its conversation and nobody can aim mail at someone else's.
 */

const PREFIX = 'loc-';
const LOCATION_TOKEN = /^[0-9a-z]{8,64}$/;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_CHARS = 26; // 16 bytes
const MAC_BYTES = 6;
const MAC_CHARS = 10; // 6 bytes

export type Recipient = { location_token: string; reply_token: string | null };

export type InboundLocation = {
  id: string;
  business_id: string;
  name: string | null;
  email_address: string | null;
  inbound_email_token: string;
};

export function inboundAddress(domain: string, locationToken: string, replyToken?: string): string {
  return `${PREFIX}${locationToken}${replyToken ? `+${replyToken}` : ''}@${domain}`;
}

/** The location token (and reply token) an address at our domain names, or null for any other address. */
export function parseRecipient(address: string, domain: string): Recipient | null {
  const at = address.lastIndexOf('@');
  if (at < 1) return null;
  if (address.slice(at + 1).toLowerCase() !== domain) return null;
  const local = address.slice(0, at).toLowerCase();
  if (!local.startsWith(PREFIX)) return null;
  const [token, reply, ...rest] = local.slice(PREFIX.length).split('+');
  if (!token || !LOCATION_TOKEN.test(token) || rest.length > 0) return null;
  return { location_token: token, reply_token: reply || null };
}

export async function findLocationByToken(db: DbOrTx, token: string): Promise<InboundLocation | undefined> {
  const [row] = await db
    .select({
      id: locations.id,
      business_id: locations.business_id,
      name: locations.name,
      email_address: locations.email_address,
      inbound_email_token: locations.inbound_email_token,
    })
    .from(locations)
    .where(eq(locations.inbound_email_token, token));
  return row;
}

function macKey(secret: Uint8Array): Buffer {
  return createHmac('sha256', secret).update('switchboard email reply token v1').digest();
}

function mac(secret: Uint8Array, id: Buffer): Buffer {
  return createHmac('sha256', macKey(secret)).update(id).digest().subarray(0, MAC_BYTES);
}

/** `<enquiry id in base32><MAC>`: lower case only, so a mail system that folds case keeps it working. */
export function replyToken(secret: Uint8Array, enquiryId: string): string {
  const id = Buffer.from(enquiryId.replace(/-/g, ''), 'hex');
  return base32(id) + base32(mac(secret, id));
}

/** The enquiry id a reply token names, or null when it is malformed or its MAC does not match. */
export function enquiryOfReplyToken(secret: Uint8Array, token: string): string | null {
  if (token.length !== ID_CHARS + MAC_CHARS) return null;
  const id = unbase32(token.slice(0, ID_CHARS), 16);
  const given = unbase32(token.slice(ID_CHARS), MAC_BYTES);
  if (!id || !given || !timingSafeEqual(given, mac(secret, id))) return null;
  // The last character of each part carries unused bits: only the one spelling replyToken() writes counts,
  // so a token cannot be varied into others that decode to the same bytes.
  if (base32(id) + base32(given) !== token) return null;
  const hex = id.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string, length: number): Buffer | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return out.length === length ? Buffer.from(out) : null;
}
