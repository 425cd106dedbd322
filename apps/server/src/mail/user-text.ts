/** How text a person chose (a name) may appear in a mail. */

/** Longest piece of a person's text a mail carries, in characters; longer text is cut with an ellipsis. */
export const MAIL_TEXT_MAX = 60;

/**
 * Text a mail program would turn into a link by itself, in the text part and in the HTML part alike: an address
 * (`@`), a path or scheme (`/`, `\`), or a host name (a dot, or a dot look-alike, between two letters or digits).
 */
const LINK_LIKE = /[@/\\]|[\p{L}\p{N}][.\u3002\uff0e\uff61][\p{L}\p{N}]/u;

/**
 * A person's text as a mail may show it — in a greeting or a subject: whitespace collapsed, at most MAIL_TEXT_MAX
 * characters; undefined when it is empty or could become a link, and the mail then does without it.
 */
export function mailText(text: string): string | undefined {
  return mailPassage(text, MAIL_TEXT_MAX);
}

/**
 * A longer piece of a person's text (a note to the recipient) under the same rule: whitespace collapsed, at most
 * `max` characters, undefined when empty or when it could become a link.
 */
export function mailPassage(text: string, max: number): string | undefined {
  const plain = text.replace(/\s+/gu, ' ').trim();
  if (!plain || LINK_LIKE.test(plain)) return undefined;
  const chars = Array.from(plain);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : plain;
}
