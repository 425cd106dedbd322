import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@portal/contract';
import { messageFiles } from '@/testing/i18n.ts';

// One wording per thing, in every language: where two places name the same thing, they say it alike.

type Tree = Record<string, unknown>;
const at = (tree: Tree, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], tree);

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
