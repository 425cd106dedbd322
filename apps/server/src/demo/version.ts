// The demo data's version (decision 253): a hash of what decides the rows the seed writes — the seed's sources and
// every source they import, the migrations and the billing settings. A demo start seeds only when the version it
// finds stored differs from its own; the test database snapshot is keyed by the same sources.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BillingConfig } from '../config.ts';
import { listMigrations } from '../db/migrate.ts';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const contractIndex = path.resolve(srcDir, '../../../packages/contract/src/index.ts');

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g;

/** The files `entry` imports, directly or not: relative imports and the contract (packages are outside the key). */
export function importedSources(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const [, specifier] of fs.readFileSync(entry, 'utf8').matchAll(IMPORT)) {
    const target = specifier!.startsWith('.')
      ? path.resolve(path.dirname(entry), specifier!)
      : specifier === '@portal/contract'
        ? contractIndex
        : null;
    if (target && fs.existsSync(target) && fs.statSync(target).isFile()) importedSources(target, seen);
  }
  return seen;
}

const versions = new Map<string, string | null>();

/**
 * This tree's demo data version for these billing settings, or null where the sources are not beside the server
 * (then every demo start seeds, as before the version). Computed once per process and settings.
 */
export function demoDataVersion(billing: BillingConfig): string | null {
  const settings = JSON.stringify(billing);
  if (!versions.has(settings)) {
    let version: string | null;
    try {
      const hash = crypto.createHash('sha256');
      for (const file of [...importedSources(path.join(srcDir, 'demo/seed.ts'))].sort())
        hash.update(path.relative(srcDir, file)).update('\0').update(fs.readFileSync(file));
      for (const migration of listMigrations())
        hash.update(migration.version).update('\0').update(migration.sql);
      version = hash.update(settings).digest('hex').slice(0, 32);
    } catch {
      version = null;
    }
    versions.set(settings, version);
  }
  return versions.get(settings)!;
}
