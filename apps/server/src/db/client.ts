import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type pg from 'pg';
import { readTemplate } from './template.ts';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * `prepare` names a statement that the database keeps parsed and planned (decisions 254 and 257): on PostgreSQL on
 * each pooled connection (node-postgres's named statements), on PGlite in its one session (see `pglitePrepared`).
 * For the few statements of every request (the signed-in user's row); only a statement whose text never varies.
 */
export interface QueryOptions {
  prepare?: string;
}

/**
 * The `prepare` name of a statement whose text is one of a bounded few (a list's filters choose which parts it
 * has): the prefix and a hash of the text, so that each text is parsed and planned once per connection. Planning
 * the support queue's first page took as long as running it (2.5 ms, decision 265). Only values from a fixed few
 * may be written into such a text (the queue's page sizes); any other goes in a parameter, or the texts (and the
 * statements each connection keeps) would not be few.
 */
export function statementName(prefix: string, text: string): string {
  return `${prefix}_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type Unlisten = () => Promise<void>;

/** One database interface over PGlite (embedded) and PostgreSQL (node-postgres); same SQL dialect. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Cheap liveness probe for /readyz. */
  ping(): Promise<void>;
  /**
   * LISTENs on a channel: `onPayload` gets each NOTIFY's payload once its transaction committed. PGlite listens in
   * process; PostgreSQL on a dedicated connection of its own (not one of the pool's), whose loss is reported once to
   * `onLost` (the listening has then ended; listen again). Resolves to the function that stops listening.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost?: (error: Error) => void,
  ): Promise<Unlisten>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to start other databases from (test snapshots). */
  dumpDataDir?(): Promise<Blob>;
  /**
   * PostgreSQL only: the rows of one query read through a database cursor, `batchSize` rows at a time, on a
   * connection of its own that is held until the rows are read or the caller stops (return/throw ends the cursor
   * and gives the connection back). The next batch is read only when the caller asks for it.
   */
  cursor?<T>(sql: string, params: unknown[], batchSize: number): AsyncGenerator<T[]>;
}

/** The protocol messages as one buffer: PGlite takes them in one call. */
function messages(parts: Uint8Array[]): Uint8Array {
  const buffer = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    buffer.set(part, offset);
    offset += part.length;
  }
  return buffer;
}

/**
 * Named statements on PGlite (decision 257). `PGlite.query` parses and plans its statement every time and takes six
 * calls into the database for it (parse, describe the parameters, bind, describe, execute, sync); the user row of
 * every request cost about 250 µs of the server's one thread that way. A named statement is parsed once, with its
 * parameter types; each query is then one call (bind, describe, execute, sync), about 110 µs. The parameters are
 * serialised and the rows parsed by PGlite's own serialisers and parsers, as `query` does. The query waits for
 * PGlite's transaction lock and then its query lock, also as `query` does: with the query lock alone
 * (`runExclusive`) the statement could run inside another request's open transaction.
 */
function pglitePrepared(db: PGlite) {
  const { serialize } = protocol;
  const statements = new Map<string, Promise<{ text: string; paramTypes: number[] }>>();
  const exclusive = <T>(fn: () => Promise<T>) => db._runExclusiveTransaction(() => db._runExclusiveQuery(fn));
  const prepare = (name: string, text: string) => {
    let statement = statements.get(name);
    if (!statement) {
      statement = exclusive(() =>
        db.execProtocol(
          messages([
            serialize.parse({ name, text }),
            serialize.describe({ type: 'S', name }),
            serialize.sync(),
          ]),
        ),
      ).then(({ messages: answer }) => ({ text, paramTypes: parse.parseDescribeStatementResults(answer) }));
      statements.set(name, statement);
      // A statement that does not parse is not kept: the next query reports its error again.
      statement.catch(() => statements.delete(name));
    }
    return statement;
  };
  return async function preparedQuery<T>(
    name: string,
    sql: string,
    params: unknown[],
  ): Promise<QueryResult<T>> {
    await db._checkReady();
    const { text, paramTypes } = await prepare(name, sql);
    if (text !== sql) throw new Error(`the prepared statement ${name} has another text`);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[paramTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const answer = await exclusive(() =>
      db.execProtocol(
        messages([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
      ),
    );
    const result = parse.parseResults(answer.messages, db.parsers)[0]!;
    return { rows: result.rows as T[], rowCount: result.affectedRows ?? result.rows.length };
  };
}

function fromPglite(db: PGlite): Db {
  const preparedQuery = pglitePrepared(db);
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      if (options?.prepare) return preparedQuery<T>(options.prepare, sql, params);
      const result = await db.query<T>(sql, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql) {
      await db.exec(sql);
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn({
          async query<T>(sql: string, params: unknown[] = []) {
            const result = await tx.query<T>(sql, params);
            return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
          },
          async exec(sql) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async ping() {
      await db.query('select 1');
    },
    async listen(channel, onPayload) {
      const unlisten = await db.listen(channel, onPayload);
      return async () => {
        if (!db.closed) await unlisten();
      };
    },
    async close() {
      if (!db.closed) await db.close();
    },
    dumpDataDir() {
      return db.dumpDataDir('none');
    },
  };
}

/** A client of its own for LISTEN: a pooled one would be handed to other queries, or closed when idle. */
async function listenOn(
  Client: typeof pg.Client,
  options: pg.ClientConfig,
  channel: string,
  onPayload: (payload: string) => void,
  onLost?: (error: Error) => void,
): Promise<Unlisten> {
  const client = new Client(options);
  let stopped = false;
  const lost = (error: Error) => {
    if (stopped) return;
    stopped = true;
    void client.end().catch(() => undefined);
    onLost?.(error);
  };
  client.on('error', lost);
  client.on('end', () => lost(new Error('the listening connection ended')));
  client.on('notification', (message) => {
    if (message.channel === channel) onPayload(message.payload ?? '');
  });
  try {
    await client.connect();
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
  } catch (error) {
    stopped = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    if (stopped) return;
    stopped = true;
    await client.end().catch(() => undefined);
  };
}

function fromPool(pool: pg.Pool, Client: typeof pg.Client): Db {
  const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      const result = options?.prepare
        ? await client.query({ name: options.prepare, text: sql, values: params })
        : await client.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql) {
      await client.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    listen(channel, onPayload, onLost) {
      return listenOn(Client, { ...pool.options, keepAlive: true }, channel, onPayload, onLost);
    },
    async *cursor<T>(sql: string, params: unknown[], batchSize: number) {
      const { default: Cursor } = await import('pg-cursor');
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const cursor = client.query(new Cursor<T>(sql, params));
        try {
          // The next batch is asked for before this one is handed over, so the database produces it while the
          // caller works on this one: one batch ahead, no more.
          let next: Promise<T[]> | undefined = cursor.read(batchSize);
          try {
            for (;;) {
              const rows: T[] = await next;
              next = undefined;
              if (rows.length === 0) return;
              next = cursor.read(batchSize);
              // A failure of the read ahead surfaces at the next await, or in the `finally` below.
              next.catch(() => undefined);
              yield rows;
            }
          } finally {
            // The read ahead completes before the cursor closes (the protocol takes one thing at a time).
            if (next) await next.catch((error: Error) => (broken = error));
          }
        } finally {
          await cursor.close().catch((error: Error) => (broken ??= error));
        }
      } catch (error) {
        broken ??= error as Error;
        throw error;
      } finally {
        // A connection whose cursor failed may be mid-protocol: it is closed instead of going back to the pool.
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}

export interface OpenDbOptions {
  /** PGlite only: start from a data-dir dump, a tarball's bytes (tests use a migrated snapshot). */
  loadDataDir?: Uint8Array;
  /**
   * PGlite only, for a new database: the size of its WAL files in MB (PostgreSQL's default 16). The test snapshot
   * takes 1: every copy of it unpacks its WAL files, and 9 MB less made a copy 15 % cheaper (1.9 to 1.6 s of CPU).
   */
  walSegmentMb?: number;
}

/**
 * PGlite's PostgreSQL starts with 32 MB of shared buffers instead of its default 128 MB (decision 250): setting up
 * the larger pool took about 0.6 s of CPU at every start, a third of opening the database. The embedded database is
 * one process's (demo, development, tests, a small installation); its pages beyond the pool are read through the
 * file system's own cache.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/** The file an embedded data folder's process holds it by: its process id (PGlite has no lock of its own). */
const LOCK_FILE = 'portal.lock';

/** The process that has the data folder open, if one does (a server, or a backup). */
export function dataDirHolder(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/**
 * A tarball's bytes as PGlite reads a dump: it calls `arrayBuffer()` once and copies what it unpacks. Node's Blob
 * copies the bytes in when made and out again in small chunks, which cost about half a second of CPU for each 35 MB
 * test database and for a first start's template.
 */
function tarball(bytes: Uint8Array): Blob {
  // A copy of exactly these bytes (a Buffer's `slice` would share the whole of its memory).
  return {
    type: 'application/x-tar',
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  } as unknown as Blob;
}

/** Opens the database named by DATABASE_URL: memory://, a folder (PGlite) or postgres://. */
export async function openDb(databaseUrl: string, options: OpenDbOptions = {}): Promise<Db> {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    // node-postgres loads only for PostgreSQL: an embedded database's start does not load it (decision 253).
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5_000 });
    // An idle client's error (e.g. the server restarting) must not crash the process; /readyz reports it.
    pool.on('error', () => undefined);
    return fromPool(pool, pg.Client);
  }
  const initDbStartParams = options.walSegmentMb ? [`--wal-segsize=${options.walSegmentMb}`] : undefined;
  // Trigram indexes (the account directory's search, migration 032): PostgreSQL ships pg_trgm in contrib,
  // PGlite as an extension it loads here.
  const extensions = { pg_trgm };
  if (databaseUrl === 'memory://') {
    const db = await PGlite.create(undefined, {
      loadDataDir: options.loadDataDir && tarball(options.loadDataDir),
      initDbStartParams,
      extensions,
      startParams: PGLITE_START_PARAMS,
    });
    return fromPglite(db);
  }
  // Two processes on one data folder would corrupt it: the second is refused.
  fs.mkdirSync(databaseUrl, { recursive: true });
  const holder = dataDirHolder(databaseUrl);
  if (holder !== null && holder !== process.pid) {
    throw new Error(`the database folder ${databaseUrl} is in use by process ${holder}`);
  }
  let loadDataDir = options.loadDataDir;
  // A new data folder starts from the build's migrated template when there is one (decision 223).
  if (!loadDataDir && !fs.existsSync(path.join(databaseUrl, 'PG_VERSION'))) loadDataDir = readTemplate();
  const pglite = await PGlite.create(databaseUrl, {
    loadDataDir: loadDataDir && tarball(loadDataDir),
    initDbStartParams,
    extensions,
    startParams: PGLITE_START_PARAMS,
  });
  // Written once the folder is unpacked (a backup brings the lock file of the process it was taken from).
  const lockFile = path.join(databaseUrl, LOCK_FILE);
  fs.writeFileSync(lockFile, String(process.pid));
  const db = fromPglite(pglite);
  return {
    ...db,
    async close() {
      await db.close();
      fs.rmSync(lockFile, { force: true });
    },
  };
}
