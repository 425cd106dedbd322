import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@portal/contract';
import { messageFiles, validationFiles } from '@/testing/i18n.ts';

// One wording per thing, in every language: where two places name the same thing, they say it alike.

type Tree = Record<string, unknown>;
const at = (tree: Tree, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], tree);

/** Every text of a tree, as [key, text]. */
const texts = (tree: unknown, prefix = ''): [string, string][] =>
  typeof tree === 'string'
    ? [[prefix, tree]]
    : Object.entries((tree ?? {}) as Tree).flatMap(([key, value]) =>
        texts(value, prefix ? `${prefix}.${key}` : key),
      );

/** "After" in each language: an account is deleted after its date, never "on" it. */
const AFTER = { de: 'nach dem', en: 'after', fr: 'après le', it: 'dopo il' } as const;

describe.each(LANGUAGES)('wording in %s', (lng) => {
  const messages = messageFiles[lng] as Tree;

  it('says the same about a scheduled deletion everywhere: deleted after the date', () => {
    for (const key of [
      'accounts.deletionScheduled',
      'shell.accountWillBeDeletedAfter',
      'dashboard.deletionOn',
      'company.deletionPlanned',
    ])
      expect(at(messages, key), key).toContain(`${AFTER[lng]} {{date}}`);
  });

  it('names the theme and its choices in the user menu as in the profile', () => {
    expect(at(messages, 'userMenu.theme')).toBe(at(messages, 'profile.theme'));
    expect(at(messages, 'userMenu.themes')).toEqual(at(messages, 'profile.themes'));
  });
});

describe('support tickets', () => {
  it('numbers a ticket one way in every language ("Nr. 42", "no. 42"), never "#42"', () => {
    const hashed = LANGUAGES.flatMap((lng) => texts(messageFiles[lng], lng)).filter(([, text]) =>
      /#\{\{/.test(text),
    );
    expect(hashed).toEqual([]);
  });

  it('calls a support ticket a "ticket" in English, as SPEC does (a "request" is only what someone asks)', () => {
    // What someone asks for: "Describe your request", "Thank you for your request", "For a new request, open a new
    // ticket", "The owner can request the deletion".
    const asking = /your request|a new request|can request/;
    const request = texts(messageFiles.en).filter(
      ([, text]) => /\brequests?\b/i.test(text) && !asking.test(text),
    );
    expect(request).toEqual([]);
  });
});

describe('English typography', () => {
  it('writes the apostrophe one way, the straight one most English texts use ("customer\'s")', () => {
    const curly = [...texts(messageFiles.en), ...texts(validationFiles.en)].filter(([, text]) =>
      text.includes('’'),
    );
    expect(curly).toEqual([]);
  });
});

describe('French typography', () => {
  // A space that may break leaves "?" or "»" alone at the start of a line: before : ; ? ! and inside « » French
  // puts a non-breaking space (U+00A0, or the narrow U+202F), and never none (a URL's "https://" is no colon).
  const LOOSE =
    /[^\S\u00a0\u202f][:;?!»]|«[^\S\u00a0\u202f]|[^\s\u00a0\u202f:/][:;?!»](?!\/\/)|«[^\s\u00a0\u202f]/;

  it('puts a non-breaking space before : ; ? ! and inside « » in every French text', () => {
    const loose = [...texts(messageFiles.fr), ...texts(validationFiles.fr)]
      .filter(([, text]) => LOOSE.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(loose).toEqual([]);
  });
});
