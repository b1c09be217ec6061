import { z } from 'zod';

const LOCAL_PART = /(?:[^<>()[\]\\.,;:\s@"]+(?:\.[^<>()[\]\\.,;:\s@"]+)*|".+")/.source;
const OCTET = /(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)/.source;
const IP_LITERAL = `\\[${OCTET}(?:\\.${OCTET}){3}\\]`;
const DOMAIN = /(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}/.source;
const EMAIL = new RegExp(`^${LOCAL_PART}@(?:${IP_LITERAL}|${DOMAIN})$`);

// The whole value must be one link; `\S+` stops '[a](b) [c](d)' from reading as one odd URL, while
// still allowing parentheses inside the URL itself.
const MARKDOWN_LINK = /^\[[^\]]*\]\((\S+)\)$/;

/** Local part, @, then a domain whose dotted suffix has at least 2 letters, or an IPv4 literal. */
export function isValidEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** The URL of a markdown link `[text](url)`; any other value is returned unchanged. */
export function unwrapMarkdownLink(value: string): string {
  return MARKDOWN_LINK.exec(value)?.[1] ?? value;
}

/** Parses (a scheme is required) and has a host, so 'mailto:' and 'file:///' links are not URLs here. */
export function isValidUrl(value: string): boolean {
  try {
    return new URL(unwrapMarkdownLink(value)).host !== '';
  } catch {
    return false;
  }
}

export const EmailSchema = z.string().refine(isValidEmail, 'Please enter a valid email address');
export const UrlSchema = z
  .string()
  .refine(isValidUrl, 'Please enter a valid URL, such as https://example.com');
