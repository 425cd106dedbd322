// The first start of an embedded database copies a template instead of creating the database: an empty PGlite
// data folder with every migration applied, made once by the build (`npm run build`, decision 223). Creating one
// (initdb in WebAssembly) took most of a first start's time; unpacking the template takes about a third of it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listMigrations } from './migrate.ts';

/** The server's build folder: the template lives beside the bundle. */
const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/**
 * The template for this PGlite and these migrations. Its name changes with either, so a build from an older tree
 * (a migration added or renumbered since) is never used: the start then creates the database as before.
 */
export function templateFile(): string {
  const hash = crypto.createHash('sha256');
  const { version } = JSON.parse(
    fs.readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '../package.json'),
      'utf8',
    ),
  ) as { version: string };
  hash.update(version);
  for (const migration of listMigrations()) hash.update(migration.version).update(migration.sql);
  return path.join(distDir, `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** The template to start a new data folder from, when the build made one for this tree. */
export function readTemplate(): Buffer | undefined {
  const file = templateFile();
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

/**
 * Saves a template (the build makes it through `cli.ts template`: a new in-memory database, migrated, dumped
 * uncompressed, quicker to unpack than gzip) under this tree's name, and removes older ones.
 */
export async function saveTemplate(dump: Blob): Promise<string> {
  const file = templateFile();
  fs.mkdirSync(distDir, { recursive: true });
  for (const old of fs.readdirSync(distDir)) {
    if (/^pglite-template-\w+\.tar$/.test(old)) fs.rmSync(path.join(distDir, old));
  }
  const part = `${file}.${process.pid}.part`;
  fs.writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(part, file);
  return file;
}
