import type { ParseKeys, TFunction } from 'i18next';

/**
 * Messages that stay on screen (a form field's error, a toast) are kept as their key and values, not as finished
 * text, and translated where they are shown: so they follow a change of language while visible. Such a message is
 * a string, because react-hook-form and the toast store hold strings; a mark that no typed text can start with
 * tells it apart from text that is shown as it is (a server's sentence, a name).
 */
type Namespace = 'messages' | 'validation';
type Values = Record<string, unknown>;

const MARK = '\u0000i18n\u0000';

function encode(ns: Namespace, key: string, values: Values): string {
  return MARK + JSON.stringify([ns, key, values]);
}

/** A message to translate when shown: `later('shell.deletionCancelled')`, `later('required', {}, 'validation')`. */
export function later<N extends Namespace = 'messages'>(
  key: ParseKeys<N>,
  values: Values = {},
  ns?: N,
): string {
  return encode(ns ?? 'messages', String(key), values);
}

/** True for a message made by `later`. */
function isLater(text: string): boolean {
  return text.startsWith(MARK);
}

/**
 * The text to show for `text` in the current language: a `later` message translated with `t` (values in
 * `override` replace its own, e.g. the field's label as it reads now), anything else as it is.
 */
export function showText(text: string, t: TFunction<Namespace>, override: Values = {}): string {
  if (!isLater(text)) return text;
  const [ns, key, values] = JSON.parse(text.slice(MARK.length)) as [Namespace, string, Values];
  const translate = t as unknown as (key: string, options: Values) => string;
  return translate(key, { ...values, ...override, ns });
}

/**
 * A translator for rules (`RuleContext.t`) that makes `later` messages instead of text, for a namespace's keys.
 * What the rules return then reads in whatever language is current when it is shown.
 */
export function laterT<N extends Namespace>(ns: N): TFunction<N> {
  const t = (key: string, values?: Values) => encode(ns, key, values ?? {});
  return t as unknown as TFunction<N>;
}
