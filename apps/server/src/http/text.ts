import { HttpError } from './errors.ts';

/**
 * The one rule for text the server accepts (API bodies, query strings, path parameters, the sign-in forms):
 * - control characters are refused, except tab, line feed and carriage return (C0 U+0000–U+001F, DEL U+007F and
 *   C1 U+0080–U+009F); PostgreSQL cannot store U+0000 at all, the others are never meant as text;
 * - unpaired surrogates (U+D800–U+DFFF without their partner) are refused: they are no Unicode text, and
 *   PostgreSQL cannot store them;
 * - accepted text is normalised to NFC before any length check and before it is stored.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's purpose
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Surrogate}/u;

/** The message key a refused text gets as its field error (the web translates it in its validation texts). */
export const INVALID_CHARACTERS = 'invalidCharacters';

/** Whether `text` breaks the rule above. */
export function hasForbiddenCharacters(text: string): boolean {
  // With the u flag a well-formed pair is one code point, so \p{Surrogate} matches only unpaired halves.
  return FORBIDDEN.test(text);
}

/** Accepted text in its stored form (NFC), or undefined when it breaks the rule. */
export function acceptText(text: string): string | undefined {
  return hasForbiddenCharacters(text) ? undefined : text.normalize('NFC');
}

/** Whether any string or object key in `value` (a parsed form, query string or JSON body) breaks the rule. */
export function containsForbiddenText(value: unknown): boolean {
  if (typeof value === 'string') return hasForbiddenCharacters(value);
  if (Array.isArray(value)) return value.some(containsForbiddenText);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(
      ([key, child]) => hasForbiddenCharacters(key) || containsForbiddenText(child),
    );
  }
  return false;
}

const pathOf = (base: string, key: string) => (base ? `${base}.${key}` : key);

/**
 * Checks every string (and object key) in `value` by the rule, in place: strings are replaced by their NFC form;
 * each refused one adds a field error under its dotted path (`address.city`, `tags.0`).
 */
function walk(value: unknown, path: string, fields: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const accepted = acceptText(value);
    if (accepted === undefined) fields[path || '_'] = INVALID_CHARACTERS;
    return accepted ?? value;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => (value[index] = walk(item, pathOf(path, String(index)), fields)));
    return value;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const keyPath = pathOf(path, key);
      if (hasForbiddenCharacters(key)) fields[keyPath] = INVALID_CHARACTERS;
      else record[key] = walk(record[key], keyPath, fields);
    }
  }
  return value;
}

/**
 * The request parts a route validates, checked by the text rule before validation (so length limits count NFC
 * characters). Refused text in the body or query answers 422 VALIDATION_FAILED, in a path parameter (which names
 * a resource rather than carrying input) 400 BAD_REQUEST; either with a field error per offending field.
 */
export function checkRequestText(request: { body?: unknown; query?: unknown; params?: unknown }): void {
  const refuse = (status: number, code: string, fields: Record<string, string>) => {
    const names = Object.keys(fields);
    if (!names.length) return;
    const verb = names.length === 1 ? 'contains' : 'contain';
    throw new HttpError(
      status,
      code,
      `Invalid input: ${names.join(', ')} ${verb} characters that are not allowed (control characters or unpaired surrogates)`,
      fields,
    );
  };
  const pathFields: Record<string, string> = {};
  request.params = walk(request.params, '', pathFields);
  refuse(400, 'BAD_REQUEST', pathFields);
  const inputFields: Record<string, string> = {};
  request.query = walk(request.query, '', inputFields);
  request.body = walk(request.body, '', inputFields);
  refuse(422, 'VALIDATION_FAILED', inputFields);
}
