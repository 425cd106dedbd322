import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.dirname(fileURLToPath(import.meta.url));

/** Static, bare and dynamic relative imports (`from './x.ts'`, `import './x.ts'`, `import('./x.ts')`). */
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g;

/** Relative imports of every non-test source file, as paths below src (`modules/users/users.service.ts`). */
function imports(): { file: string; target: string }[] {
  const found: { file: string; target: string }[] = [];
  for (const entry of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const full = path.join(entry.parentPath, entry.name);
    const file = path.relative(src, full);
    for (const [, spec] of fs.readFileSync(full, 'utf8').matchAll(IMPORT)) {
      found.push({ file, target: path.relative(src, path.resolve(path.dirname(full), spec!)) });
    }
  }
  return found;
}

const areaOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];

/**
 * The server's floors, from the ground up (decision 204): a file imports its own floor and those below it, never
 * one above. A top-level folder and the file of its name are one floor (`config.ts` and `config/`). The test
 * helpers and the benchmarks stand on top: they start the whole app.
 */
const FLOORS = [
  'secrets',
  'http',
  'db',
  'files',
  'limits',
  'config',
  'jobs',
  'audit',
  'mail',
  'notifications',
  'invoicing',
  'access',
  'plugins',
  'idp',
  'modules',
  'demo',
  'app',
  'server',
  'cli',
  'test',
  'bench',
];

/**
 * Floors whose files may still import one above, each with why; any other import back up fails the test.
 * config -> invoicing: the billing settings are checked with invoicing's own rules (plans, VAT rates, IBAN) while
 * invoicing reads those settings, so one of the two reaches up until the settings' shape is invoicing's own.
 */
const KNOWN_BACK_UP = new Set(['config -> invoicing']);

/** The floor's name of a path below src: its top-level folder, or its file name without `.ts`. */
const floorName = (file: string) => file.split(path.sep)[0]!.replace(/\.ts$/, '');
const floorOf = (file: string) => FLOORS.indexOf(floorName(file));

describe('server layers', () => {
  it('keep areas apart: shared code imports no area module, and no area imports another', () => {
    const wrong = imports().filter(({ file, target }) => {
      const to = areaOf(target);
      // The composition roots: the app assembles the areas, the command line runs one of their tasks.
      if (!to || file === 'app.ts' || file === 'cli.ts') return false;
      return areaOf(file) !== to;
    });
    expect(wrong).toEqual([]);
  });

  it('stand on floors: every top-level folder has its floor, and no import runs back up', () => {
    const found = imports();
    const unplaced = [...new Set(found.flatMap(({ file, target }) => [file, target]))].filter(
      (file) => floorOf(file) < 0,
    );
    expect(unplaced).toEqual([]);
    const backUp = found
      .filter(({ file }) => !file.endsWith('.bench.ts'))
      .filter(({ file, target }) => floorOf(file) < floorOf(target))
      .filter(({ file, target }) => !KNOWN_BACK_UP.has(`${floorName(file)} -> ${floorName(target)}`))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(backUp).toEqual([]);
  });
});
