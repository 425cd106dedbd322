// A migrated PGlite database with the demo data, made once and kept as a data-dir dump in a temp file, so each test
// database starts from a copy instead of creating, migrating and seeding a new one (the API tests and the browser
// journeys' servers share it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { seedDemoData } from '../demo/seed.ts';
import { importedSources } from '../demo/version.ts';

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
 * What the snapshot is made of: this file, the migrations (read as files) and every source the migration and the
 * seed (`demo/seed.ts`) import, wherever it lives (a changed money rule or demo text makes a new snapshot, not a stale
 * copy).
 */
export function snapshotSources(): string[] {
  const sources = new Set([...sourcesIn(path.join(srcDir, 'db')), fileURLToPath(import.meta.url)]);
  for (const entry of ['db/migrate.ts', 'demo/seed.ts']) {
    for (const file of importedSources(path.join(srcDir, entry))) sources.add(file);
  }
  return [...sources].sort();
}

/** The hash of the snapshot's sources, read once per process (a test run does not edit them). */
let sourcesHash: string | undefined;

/** Key of the snapshot cache: its sources and the day (the seed is relative to now). */
function snapshotKey(): string {
  if (!sourcesHash) {
    const hash = crypto.createHash('sha256');
    for (const file of snapshotSources()) hash.update(file).update(fs.readFileSync(file));
    sourcesHash = hash.digest('hex');
  }
  return crypto
    .createHash('sha256')
    .update(sourcesHash)
    .update(new Date().toISOString().slice(0, 10))
    .digest('hex')
    .slice(0, 16);
}

/** The snapshots this process has read, by file: every test database of a worker starts from the same bytes. */
const snapshots = new Map<string, Buffer>();

/** A migrated, seeded PGlite data dir, made once and shared by test files and test servers through a temp file. */
export async function pgliteSnapshot(): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `portal-test-db-${snapshotKey()}.tar`);
  let bytes = snapshots.get(file);
  if (!bytes && fs.existsSync(file)) bytes = fs.readFileSync(file);
  if (!bytes) {
    const db = await openDb('memory://', { walSegmentMb: 1 });
    await migrate(db);
    await seedDemoData(db);
    bytes = Buffer.from(await (await db.dumpDataDir!()).arrayBuffer());
    await db.close();
    const temp = `${file}.${process.pid}.${crypto.randomUUID()}`;
    fs.writeFileSync(temp, bytes);
    fs.renameSync(temp, file);
  }
  snapshots.set(file, bytes);
  return bytes;
}

/** Runs `fn` with an admin connection to the PostgreSQL server of TEST_DATABASE_URL. */
async function asAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of TEST_DATABASE_URL. */
export function postgresUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/** The date `offset` days from today as yyyymmdd (template names sort by it). */
function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/**
 * PostgreSQL's counterpart of the snapshot: a migrated, seeded template database, made once per source and day
 * (those of earlier days are dropped) and shared by every test process; a test database is a copy of it (`create
 * database … template …`), which takes a fraction of migrating and seeding one. Nobody connects to the template
 * itself: a copy can only be made from a database without connections.
 */
export function postgresTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `portal_template_${day(0)}_${snapshotKey()}`;
    const exists = (client: pg.Client) =>
      client
        .query('select 1 from pg_database where datname = $1', [name])
        .then((result) => result.rowCount === 1);
    if (await asAdmin(exists)) return name;
    // Made under another name and renamed when complete, so a copy never starts from a half-seeded template.
    const building = `portal_building_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
    await asAdmin((client) => client.query(`create database ${building}`));
    const db = await openDb(postgresUrl(building));
    try {
      await migrate(db);
      await seedDemoData(db);
    } finally {
      await db.close();
    }
    await asAdmin(async (client) => {
      // Another test process may have finished its template first: then this one is not needed.
      const renamed = await client.query(`alter database ${building} rename to ${name}`).then(
        () => true,
        () => false,
      );
      if (!renamed) await client.query(`drop database if exists ${building} with (force)`);
      // Templates of days before yesterday are no longer used (a run that began yesterday may still copy one).
      const { rows } = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like 'portal\\_template\\_%' and datname < $1",
        [`portal_template_${day(-1)}`],
      );
      for (const old of rows)
        await client.query(`drop database if exists ${old.datname} with (force)`).catch(() => undefined);
    });
    return name;
  })();
  template.catch(() => (template = undefined));
  return template;
}

/** A new PostgreSQL database copied from the template; returns its name. */
export async function postgresCopy(): Promise<string> {
  const source = await postgresTemplate();
  const name = `portal_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await asAdmin((client) => client.query(`create database ${name} template ${source}`));
  return name;
}

/** Drops a test database made by postgresCopy. */
export async function dropPostgres(name: string): Promise<void> {
  await asAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
}
