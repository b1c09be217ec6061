/** Control, format (bidirectional overrides, zero-width) and line/paragraph separator characters. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Text someone typed, fit to stand inside one of the product's own emails: on one line (a line break cannot
 * start a paragraph that reads as ours), without characters that hide or reorder text, cut to `max`
 * characters, in quotation marks of its own (inner ones made plain) so it reads as quoted, not as our words.
 * The emails are plain text only, so nothing in it can become markup or a hidden link.
 */
export function quoted(text: string, max = 100): string {
  const flat = text.replace(HIDDEN, ' ').replace(/\s+/gu, ' ').trim().replace(/[“”"]/g, "'");
  const cut =
    [...flat].length > max
      ? `${[...flat]
          .slice(0, max - 1)
          .join('')
          .trimEnd()}…`
      : flat;
  return `“${cut}”`;
}
