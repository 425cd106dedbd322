import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import areasSource from '@/i18n/areas.ts?raw';
import { pickKeys, type MessageTree } from '@/i18n/pick-keys.ts';
import loadersSource from './page-loaders.ts?raw';
import { PAGE_LOADERS } from './page-loaders.ts';
import { messageFiles } from '@/testing/i18n.ts';

// The areas split the texts (decision 218): each page renders once the shell's and its own areas are in, so a
// key a page's code uses from an area it does not load would show as a raw key. These checks read the code.
const SRC = path.resolve(__dirname, '..');
const de = messageFiles.de as MessageTree;
const areas = Object.fromEntries(
  [...areasSource.matchAll(/(\w+): import\.meta\.glob[^]*?area: '(\w+)',\s*keys:\s*'([^']+)'/g)].map(
    ([, name, area, keys]) => {
      expect(area, 'an area names itself in its query').toBe(name);
      return [name!, keys!.split(',')];
    },
  ),
);

/** Every text's key path ("billing.pastDue.action"), plural forms without their suffix. */
function leaves(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) =>
    leaves(value, prefix ? `${prefix}.${key.replace(/_(zero|one|two|few|many|other)$/, '')}` : key),
  );
}
const ALL = [...new Set(leaves(de))];
const leavesOf = (paths: string[]) => new Set(leaves(pickKeys(de, paths)));

/** The files a module imports at load (not `import type`, not a lazy `import()`), itself included. */
function graph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [statement, spec] of code.matchAll(/^(?:import|export)(?! type)[^;]*?from '([^']+)'/gms)) {
    if (statement.startsWith('import type')) continue;
    const base = spec!.startsWith('@/')
      ? path.join(SRC, spec!.slice(2))
      : spec!.startsWith('.')
        ? path.resolve(path.dirname(file), spec!)
        : null;
    const resolved =
      base && [base, `${base}.ts`, `${base}.tsx`].find((f) => existsSync(f) && f.match(/\.tsx?$/));
    if (resolved) graph(resolved, seen);
  }
  return seen;
}

const TOPS = Object.keys(de).join('|');
/** The keys a file names: whole ones ('billing.pastDue.action') and the fixed start of built ones (`ownership.${kind}`). */
function keysIn(file: string): { whole: string[]; starts: string[] } {
  const code = readFileSync(file, 'utf8');
  const whole: string[] = [];
  const starts: string[] = [];
  for (const [, key, built] of code.matchAll(new RegExp(`['"\`]((?:${TOPS})\\.[\\w.]*)(\\$\\{)?`, 'g'))) {
    if (built) starts.push(key!);
    else if (ALL.some((leaf) => leaf === key || leaf.startsWith(`${key}.`))) whole.push(key!);
  }
  return { whole, starts };
}

function missing(files: Iterable<string>, loaded: Set<string>): string[] {
  const out: string[] = [];
  for (const file of files) {
    const { whole, starts } = keysIn(file);
    for (const key of whole)
      for (const leaf of ALL.filter((l) => l === key || l.startsWith(`${key}.`)))
        if (!loaded.has(leaf)) out.push(`${path.relative(SRC, file)}: ${leaf}`);
    for (const start of starts)
      if (![...loaded].some((leaf) => leaf.startsWith(start)))
        out.push(`${path.relative(SRC, file)}: ${start}…`);
  }
  return out;
}

const shellFiles = graph(path.join(SRC, 'main.tsx'));
const shellKeys = leavesOf(areas.shell!);

describe('message areas', () => {
  it('name keys that exist, and every text is in one', () => {
    const covered = new Set(Object.values(areas).flatMap((paths) => [...leavesOf(paths)]));
    expect(ALL.filter((leaf) => !covered.has(leaf))).toEqual([]);
  });

  it("hold every key the shell's code uses in the shell's area", () => {
    expect(missing(shellFiles, shellKeys)).toEqual([]);
  });

  it.each(Object.entries(PAGE_LOADERS).filter(([, loader]) => loader && 'page' in loader))(
    "hold every key the page of %s uses in the shell's area or the page's",
    (name, loader) => {
      if (!loader || !('page' in loader)) return;
      const file = new RegExp(`'?${name}'?: \\{\\s*page: \\(\\) => import\\('@/([^']+)'\\)`).exec(
        loadersSource,
      )?.[1];
      expect(file).toBeDefined();
      const own = [...graph(path.join(SRC, file!))].filter((f) => !shellFiles.has(f));
      const loaded = new Set([
        ...shellKeys,
        ...loader.messages.flatMap((area) => [...leavesOf(areas[area]!)]),
      ]);
      expect(missing(own, loaded)).toEqual([]);
    },
  );
});
