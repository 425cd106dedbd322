import { describe, expect, it } from 'vitest';
import { messageFiles } from '@/testing/i18n.ts';

// The sections of messages.json the forms and pages own: the same keys in every locale.
const SECTIONS = [
  'forms',
  'accounts',
  'createAccount',
  'onboarding',
  'terms',
  'notFound',
  'maintenance',
  'profile',
  'invite',
  'placeholder',
];
const LOCALES = ['de', 'en', 'fr', 'it'] as const;

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

describe('page messages', () => {
  const byLocale = Object.fromEntries(
    LOCALES.map((l) => [l, leaves(Object.fromEntries(SECTIONS.map((s) => [s, messageFiles[l]?.[s]])))]),
  );

  it('every locale has the same keys, none empty', () => {
    const keys = Object.keys(byLocale.de ?? {}).sort();
    expect(keys.length).toBeGreaterThan(100);
    for (const l of LOCALES) {
      expect(Object.keys(byLocale[l] ?? {}).sort(), l).toEqual(keys);
      for (const [key, text] of Object.entries(byLocale[l] ?? {}))
        expect(text.trim(), `${l}:${key}`).not.toBe('');
    }
  });

  it('the same placeholders and tags in every locale', () => {
    const marks = (text: string) => [...text.matchAll(/\{\{\w+\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();
    for (const [key, text] of Object.entries(byLocale.de ?? {}))
      for (const l of LOCALES) expect(marks(byLocale[l]?.[key] ?? ''), `${l}:${key}`).toEqual(marks(text));
  });

  it('German uses umlauts and ß, not substitutes', () => {
    const german = Object.values(byLocale.de ?? {}).join(' ');
    expect(german).not.toMatch(
      /Schliessen|Loesch|Aender|fuer|ueber|koennen|muessen|duerfen|gueltig|Geschaeft/i,
    );
    expect(german).toMatch(/Schließen/);
    expect(german).toMatch(/Änderungen/);
  });
});
