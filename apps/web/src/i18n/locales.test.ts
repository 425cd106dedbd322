import { describe, expect, it } from 'vitest';
import type deMessages from './locales/de/messages.json';

// The typecheck holds every key the code uses to the German files; these checks hold the other three locales
// to the German ones, so a text added in one language only is caught.
const LOCALES = ['de', 'en', 'fr', 'it'] as const;
type Locale = (typeof LOCALES)[number];
const files = import.meta.glob<unknown>('./locales/*/*.json', { eager: true, import: 'default' });
const file = (l: Locale, namespace: string) => files[`./locales/${l}/${namespace}.json`];
const FILES = Object.fromEntries(
  ['messages', 'validation'].map((ns) => [ns, Object.fromEntries(LOCALES.map((l) => [l, file(l, ns)]))]),
) as Record<'messages' | 'validation', Record<Locale, unknown>>;
const de = file('de', 'messages') as typeof deMessages;

/** Every text of a file by its key path ("shell.reload", "terms.agb.sections[0].title"). */
function leaves(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  if (Array.isArray(value))
    return Object.assign({}, ...value.map((item, i) => leaves(item, `${prefix}[${i}]`)));
  if (typeof value === 'object' && value !== null)
    return Object.assign(
      {},
      ...Object.entries(value).map(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k)),
    );
  return {};
}

/** A plural text without its form ("count_one", "count_many" → "count"): languages differ in their forms. */
const withoutPluralForm = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe.each(Object.entries(FILES))('%s.json', (_namespace, byLocale) => {
  const texts = Object.fromEntries(LOCALES.map((l) => [l, leaves(byLocale[l])])) as Record<
    Locale,
    Record<string, string>
  >;
  const keysOf = (l: Locale) => [...new Set(Object.keys(texts[l]).map(withoutPluralForm))].sort();

  it.each(LOCALES)('%s has the same keys as German, none empty', (l) => {
    expect(keysOf(l)).toEqual(keysOf('de'));
    for (const [key, text] of Object.entries(texts[l])) expect(text.trim(), `${l}:${key}`).not.toBe('');
  });

  it.each(LOCALES)('%s has every plural text in its "other" form', (l) => {
    const plural = Object.keys(texts[l]).filter((key) => withoutPluralForm(key) !== key);
    for (const key of plural)
      expect(texts[l], `${l}:${key}`).toHaveProperty([`${withoutPluralForm(key)}_other`]);
  });

  it('has the same placeholders and tags in every locale', () => {
    const marks = (text: string) => [...text.matchAll(/\{\{\w+\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();
    for (const [key, text] of Object.entries(texts.de)) {
      if (withoutPluralForm(key) !== key) continue;
      for (const l of LOCALES) expect(marks(texts[l][key] ?? ''), `${l}:${key}`).toEqual(marks(text));
    }
  });

  it('holds no mis-decoded text (UTF-8 read as Latin-1 leaves C1 control characters, e.g. "Lâ\u0080\u0099app")', () => {
    for (const ns of ['messages', 'validation'] as const) {
      for (const l of LOCALES) {
        for (const [key, text] of Object.entries(leaves(FILES[ns][l]))) {
          expect(text, `${l}/${ns}:${key}`).not.toMatch(/[\u0080-\u009f\ufffd]/);
        }
      }
    }
  });
});

describe('German texts', () => {
  const german = Object.values({ ...leaves(FILES.messages.de), ...leaves(FILES.validation.de) }).join(' ');

  // Swiss Standard German (SPEC-DECISIONS 33): umlauts, never substitutes for them, and "ss", never "ß".
  it('use umlauts, not substitutes, and ss instead of ß', () => {
    expect(german).not.toMatch(/Loesch|Aender|fuer|ueber|koennen|muessen|duerfen|gueltig|Geschaeft/i);
    expect(german).not.toMatch(/ß/);
    expect(german).toMatch(/Schliessen/);
    expect(german).toMatch(/Änderungen/);
  });

  it('use the agreed wording for the shell', () => {
    expect(de.shell.verify).toBe('Verifizieren');
    expect(de.common.rowsPerPage).toBe('Zeilen pro Seite');
    expect(de.common.all).toBe('Alle');
    expect(de.shell.youHaveBeenLoggedOut).toContain('Sicherheitsgründen');
  });
});
