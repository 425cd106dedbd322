import { HttpError } from './errors.ts';

/**
 * The one rule for text the server accepts (API bodies, query strings, path parameters, the sign-in forms):
 * - control characters are refused, except tab, line feed and carriage return (C0 U+0000–U+001F, DEL U+007F and
 *   C1 U+0080–U+009F); PostgreSQL cannot store U+0000 at all, the others are never meant as text;
 * - unpaired surrogates (U+D800–U+DFFF without their partner) are refused: they are no Unicode text, and
 *   PostgreSQL cannot store them;
 * - bidirectional controls are refused (decision 198): embeddings, overrides and isolates (U+202A–U+202E,
 *   U+2066–U+2069) always, as they reorder what people read ("Rechnung\u202Efdp.exe" shows as "Rechnungexe.pdf");
 *   the direction marks LRM, RLM and ALM (U+200E, U+200F, U+061C) unless the text has right-to-left letters,
 *   where they are needed to show numbers and punctuation beside Hebrew or Arabic correctly;
 * - accepted text is normalised to NFC before any length check and before it is stored.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's purpose
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Surrogate}/u;
/** Embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): refused in every text. */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
/** Left-to-right, right-to-left and Arabic letter marks: refused where the text has no right-to-left letter. */
const DIRECTION_MARKS = /[\u200e\u200f\u061c]/g;
/** The blocks of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko…, their presentation forms). */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** The message key a refused text gets as its field error (the web translates it in its validation texts). */
export const INVALID_CHARACTERS = 'invalidCharacters';
/** The message key of a text refused for its bidirectional controls (an own reason: they are invisible). */
export const DIRECTION_CHARACTERS = 'directionCharacters';

/** Why `text` breaks the rule above (its field error key), or undefined when it keeps it. */
export function textProblem(
  text: string,
): typeof INVALID_CHARACTERS | typeof DIRECTION_CHARACTERS | undefined {
  // With the u flag a well-formed pair is one code point, so \p{Surrogate} matches only unpaired halves.
  if (FORBIDDEN.test(text)) return INVALID_CHARACTERS;
  if (DIRECTION_CONTROLS.test(text)) return DIRECTION_CHARACTERS;
  // The Arabic letter mark lies in the Arabic block itself: the letters are looked for without the marks.
  const unmarked = text.replace(DIRECTION_MARKS, '');
  if (unmarked !== text && !RIGHT_TO_LEFT.test(unmarked)) return DIRECTION_CHARACTERS;
  return undefined;
}

/** Whether `text` breaks the rule above. */
export function hasForbiddenCharacters(text: string): boolean {
  return textProblem(text) !== undefined;
}

/** Accepted text in its stored form (NFC), or undefined when it breaks the rule. */
export function acceptText(text: string): string | undefined {
  return hasForbiddenCharacters(text) ? undefined : text.normalize('NFC');
}

/** Whether any string or object key in `value` (a parsed form, query string or JSON body) breaks the rule. */
export function containsForbiddenText(value: unknown): boolean {
  let broken = false;
  visit(value, '', (text) => {
    broken ||= hasForbiddenCharacters(text);
    return text;
  });
  return broken;
}

/**
 * Calls `check` on every string and object key in `value` with its dotted path (`address.city`, `tags.0`), and
 * replaces each string by what `check` returns. Iterative: a value nested any depth (a provider endpoint's JSON is
 * parsed by the provider, without the API's depth limit) cannot overflow the stack. A key `check` refuses (returns
 * undefined for) is not walked into.
 */
function visit(
  value: unknown,
  root: string,
  check: (text: string, path: string) => string | undefined,
): unknown {
  if (typeof value === 'string') return check(value, root) ?? value;
  const pending: [container: Record<string, unknown> | unknown[], path: string][] = [];
  if (value && typeof value === 'object') pending.push([value as Record<string, unknown>, root]);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [container, path] = next;
    const keys = Array.isArray(container) ? container.keys() : Object.keys(container);
    for (const key of keys) {
      const childPath = pathOf(path, String(key));
      if (typeof key === 'string' && check(key, childPath) === undefined) continue;
      const child = (container as Record<string | number, unknown>)[key];
      if (typeof child === 'string') {
        const checked = check(child, childPath);
        if (checked !== undefined && checked !== child)
          (container as Record<string | number, unknown>)[key] = checked;
      } else if (child && typeof child === 'object') {
        pending.push([child as Record<string, unknown>, childPath]);
      }
    }
  }
  return value;
}

const pathOf = (base: string, key: string) => (base ? `${base}.${key}` : key);

/**
 * Checks every string (and object key) in `value` by the rule, in place: strings are replaced by their NFC form;
 * each refused one adds a field error under its dotted path (`address.city`, `tags.0`).
 */
function walk(value: unknown, path: string, fields: Record<string, string>): unknown {
  return visit(value, path, (text, at) => {
    const problem = textProblem(text);
    if (problem === undefined) return text.normalize('NFC');
    fields[at || '_'] = problem;
    return undefined;
  });
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
      `Invalid input: ${names.join(', ')} ${verb} characters that are not allowed (control characters, unpaired surrogates or text-direction controls)`,
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
