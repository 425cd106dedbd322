import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './route-table.ts';

const src = path.resolve(__dirname, '..');
const locales = ['de', 'en', 'fr', 'it'] as const;
const messages = Object.fromEntries(
  locales.map((l) => [
    l,
    JSON.parse(readFileSync(path.join(src, `i18n/locales/${l}/messages.json`), 'utf8')),
  ]),
) as Record<(typeof locales)[number], Record<string, unknown>>;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.tsx?$/.test(name) && !/\.test\./.test(name) ? [full] : [];
  });
}

function has(tree: Record<string, unknown>, key: string): boolean {
  const lookup = (k: string) =>
    k.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  return typeof lookup(key) === 'string' || typeof lookup(`${key}_other`) === 'string';
}

// The shell's own texts: every literal key it uses, and every route title, exist in all four languages.
const shellFiles = [
  ...files(path.join(src, 'app')),
  ...files(path.join(src, 'features/dashboard')),
  ...files(path.join(src, 'ui')),
];
const usedKeys = new Set<string>();
for (const file of shellFiles) {
  for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z]+\.[a-zA-Z.]+)'/g))
    usedKeys.add(match[1]!);
}
for (const route of ROUTES) usedKeys.add(route.titleKey);
for (const role of ['EMPLOYEE', 'ADMIN', 'DC', 'OWNER', 'SUPPORT'])
  usedKeys.add(`common.accountRoles.${role}`);
for (const mode of ['light', 'dark', 'auto']) usedKeys.add(`userMenu.themes.${mode}`);

describe('shell texts', () => {
  it.each(locales)('exist in %s', (locale) => {
    const missing = [...usedKeys].filter((key) => !has(messages[locale], key));
    expect(missing).toEqual([]);
  });

  it('uses the SPEC §8 message keys', () => {
    for (const key of [
      'shell.needsEmailVerification',
      'shell.accountWillBeDeletedAfter',
      'shell.youWillBeLoggedOutInX',
      'shell.youWillBeLoggedOutDueToInactivity',
      'shell.youHaveBeenLoggedOut',
      'shell.newVersionAvailable',
      'shell.reload',
    ]) {
      expect(usedKeys.has(key)).toBe(true);
    }
  });

  it('speaks German with its own letters and the verify label SPEC-DECISIONS 25 names', () => {
    const de = messages.de as { shell: Record<string, string>; common: Record<string, string> };
    expect(de.shell.verify).toBe('Verifizieren');
    expect(de.common.rowsPerPage).toBe('Zeilen pro Seite');
    expect(de.common.all).toBe('Alle');
    expect(de.shell.youHaveBeenLoggedOut).toContain('Sicherheitsgründen');
  });
});
