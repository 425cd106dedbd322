// A migrated PGlite database with the demo data, made once and kept as a data-dir dump in a temp file, so each test
// database starts from a copy instead of creating, migrating and seeding a new one (the API tests and the browser
// journeys' servers share it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every source file under `dir` (tests excluded), recursively. */
function sourcesIn(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesIn(file);
    return entry.name.endsWith('.test.ts') ? [] : [file];
  });
}

/**
 * Key of the snapshot cache: the schema and every seed source (all of db/: a changed migration or seed makes a new
 * snapshot), and the day (the seed is relative to now).
 */
function snapshotKey(): string {
  const hash = crypto.createHash('sha256');
  for (const file of sourcesIn(path.join(srcDir, 'db')).sort())
    hash.update(file).update(fs.readFileSync(file));
  hash.update(new Date().toISOString().slice(0, 10));
  return hash.digest('hex').slice(0, 16);
}

/** A migrated, seeded PGlite data dir, made once and shared by test files and test servers through a temp file. */
export async function pgliteSnapshot(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `portal-test-db-${snapshotKey()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const db = await openDb('memory://');
  await migrate(db);
  await seedDemoData(db);
  const dump = await db.dumpDataDir!();
  await db.close();
  const temp = `${file}.${process.pid}.${crypto.randomUUID()}`;
  fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(temp, file);
  return dump;
}
