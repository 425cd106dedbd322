import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.dirname(fileURLToPath(import.meta.url));

/** Relative imports of every non-test source file, as paths below src (`modules/users/users.service.ts`). */
function imports(): { file: string; target: string }[] {
  const found: { file: string; target: string }[] = [];
  for (const entry of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const full = path.join(entry.parentPath, entry.name);
    const file = path.relative(src, full);
    for (const [, spec] of fs.readFileSync(full, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      found.push({ file, target: path.relative(src, path.resolve(path.dirname(full), spec!)) });
    }
  }
  return found;
}

const areaOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];

describe('server layers', () => {
  it('keep areas apart: shared code imports no area module, and no area imports another', () => {
    const wrong = imports().filter(({ file, target }) => {
      const to = areaOf(target);
      if (!to || file === 'app.ts') return false;
      return areaOf(file) !== to;
    });
    expect(wrong).toEqual([]);
  });
});
