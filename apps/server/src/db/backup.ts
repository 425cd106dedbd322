// Backups of the embedded database (decision 224): one .tar.gz with the PGlite data folder's dump and the uploaded
// files of FILES_DIR. A running server takes its own backup, so it is consistent: PGlite dumps the folder while no
// query runs (a crash-consistent copy, which PostgreSQL's recovery completes when it is opened). A backup command
// asks the server that holds the folder for one, over loopback, with a token derived from SECRETS_KEYS that only
// someone with the server's environment can compute; with no server running it opens the folder itself.
// PostgreSQL is backed up with pg_dump (README, "Backups").
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { dataDirHolder, openDb, type Db } from './client.ts';

/** What backups need of the configuration (the server's Config has it). */
interface BackupConfig {
  databaseUrl: string;
  filesDir: string | null;
  host: string;
  port: number;
  secrets: { keys: readonly { key: Buffer }[] };
}

export const BACKUP_PATH = '/internal/backup';
const MANIFEST = 'portal-backup.json';
const DATABASE = 'database.tar';
const FILES = 'files/';

/** The bearer token of the backup route: an HMAC of the sealing key, so it changes with SECRETS_KEYS. */
export function backupToken(config: BackupConfig): string {
  const key = config.secrets.keys[0]!.key;
  return crypto.createHmac('sha256', key).update('portal-backup').digest('base64url');
}

/** One ustar entry: a 512-byte header, the bytes, padding to 512. */
function tarEntry(name: string, data: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(data.length, 12), 124);
  header.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  header.write(' '.repeat(8), 148);
  header.write('0', 156);
  header.write('ustar\0' + '00', 257);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

function* tarEntries(tar: Buffer): Generator<{ name: string; data: Buffer }> {
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return;
    const field = (start: number, end: number) => header.toString('utf8', start, end).replace(/\0.*$/s, '');
    const size = parseInt(field(124, 136).trim(), 8);
    offset += 512;
    yield { name: field(0, 100), data: tar.subarray(offset, offset + size) };
    offset += Math.ceil(size / 512) * 512;
  }
}

/**
 * A backup of an open embedded database and the files folder: the dump first, then the files (a file uploaded
 * meanwhile is an extra, harmless; uploads write the file before its row, so no row of the dump lacks its file
 * unless it was deleted in between).
 */
export async function createBackup(db: Db, filesDir: string | null): Promise<Buffer> {
  if (!db.dumpDataDir) throw new Error('only the embedded database is backed up here; use pg_dump');
  const dump = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
  const entries = [tarEntry(DATABASE, dump)];
  let files = 0;
  if (filesDir && fs.existsSync(filesDir)) {
    for (const name of fs.readdirSync(filesDir)) {
      if (name.endsWith('.part')) continue;
      try {
        entries.push(tarEntry(FILES + name, fs.readFileSync(path.join(filesDir, name))));
        files += 1;
      } catch {
        // Deleted since the listing: its row is gone from the database too.
      }
    }
  }
  const manifest = { format: 1, createdAt: new Date().toISOString(), database: 'pglite', files };
  entries.unshift(tarEntry(MANIFEST, Buffer.from(JSON.stringify(manifest))));
  return zlib.gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
}

/** The route a backup command asks a running server by: loopback clients with the token only, never via a proxy. */
export function registerBackupRoute(app: FastifyInstance, deps: { config: BackupConfig; db: Db }) {
  const expected = Buffer.from(`Bearer ${backupToken(deps.config)}`);
  app.post(BACKUP_PATH, { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    const loopback = /^(127\.|::1$|::ffff:127\.)/.test(request.socket.remoteAddress ?? '');
    const direct = !request.headers['x-forwarded-for'] && !request.headers.forwarded;
    if (
      !loopback ||
      !direct ||
      given.length !== expected.length ||
      !crypto.timingSafeEqual(given, expected)
    ) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
    }
    const backup = await createBackup(deps.db, deps.config.filesDir);
    return reply.type('application/gzip').header('Cache-Control', 'no-store').send(backup);
  });
}

/** `cli.ts backup <file>`: from the server that holds the data folder, or from the folder when none does. */
export async function backupCommand(config: BackupConfig, file: string): Promise<string> {
  const dir = embeddedFolder(config);
  let backup: Buffer;
  const holder = dataDirHolder(dir);
  if (holder !== null) {
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}${BACKUP_PATH}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${backupToken(config)}` },
      });
    } catch {
      throw new Error(
        `process ${holder} holds ${dir} but no server answers at ${url}: run this with its PORT`,
      );
    }
    if (!response.ok) throw new Error(`the server at ${url} refused the backup (${response.status})`);
    backup = Buffer.from(await response.arrayBuffer());
  } else {
    const db = await openDb(dir);
    try {
      backup = await createBackup(db, config.filesDir);
    } finally {
      await db.close();
    }
  }
  fs.writeFileSync(`${file}.part`, backup);
  fs.renameSync(`${file}.part`, file);
  return holder !== null ? `from the running server (process ${holder})` : 'from the data folder';
}

/** `cli.ts restore <file>`: into an empty data folder (and FILES_DIR) with no server on it. */
export async function restoreCommand(config: BackupConfig, file: string): Promise<void> {
  const dir = embeddedFolder(config);
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new Error(
      `${dir} holds a database already: restore into an empty folder (move this one away first)`,
    );
  }
  let database: Buffer | undefined;
  let manifest: { format?: number } | undefined;
  const files: { name: string; data: Buffer }[] = [];
  for (const entry of tarEntries(zlib.gunzipSync(fs.readFileSync(file)))) {
    if (entry.name === MANIFEST) manifest = JSON.parse(entry.data.toString('utf8')) as { format?: number };
    else if (entry.name === DATABASE) database = entry.data;
    else if (entry.name.startsWith(FILES)) files.push({ name: path.basename(entry.name), data: entry.data });
  }
  if (manifest?.format !== 1 || !database) throw new Error(`${file} is not a Portal backup`);
  if (files.length > 0 && !config.filesDir) {
    throw new Error(`the backup holds ${files.length} uploaded files: set FILES_DIR to restore them`);
  }
  // Opening it once runs PostgreSQL's recovery, so the server starts on a finished database.
  const db = await openDb(dir, { loadDataDir: database });
  await db.close();
  if (config.filesDir) {
    fs.mkdirSync(config.filesDir, { recursive: true });
    for (const { name, data } of files) fs.writeFileSync(path.join(config.filesDir, name), data);
  }
}

function embeddedFolder(config: BackupConfig): string {
  if (config.databaseUrl === 'memory://' || /^postgres(ql)?:/i.test(config.databaseUrl)) {
    throw new Error(
      'backup and restore here are for the embedded database in a folder; PostgreSQL: pg_dump/pg_restore',
    );
  }
  return config.databaseUrl;
}
