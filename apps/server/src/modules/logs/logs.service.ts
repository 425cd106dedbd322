import {
  ACCOUNT_ROLES,
  LOGS_PAGE_SIZE,
  STAFF_USER_ROLES,
  hasLevel,
  isLanguage,
  logTargetsFor,
  type LogEntry,
  type LogPerson,
  type LogsExportQuery,
  type LogsPage,
  type LogsQuery,
  type LogSubject,
  type Language,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import {
  decodeTimeCursor,
  keysetPage,
  sqlParams,
  type SqlParams,
  type TimePosition,
} from '../../db/paging.ts';
import { invalidField } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { shortBrowser } from '../../http/user-agent.ts';
import { LogSubjects, subjectSearch } from './logs.subjects.ts';

type Filters = Omit<LogsQuery, 'cursor' | 'pageSize'>;

/** The language a log is read in: the one asked for, else the reader's, else German. */
export function readerLanguage(user: PortalUser, lang?: Language): Language {
  return lang ?? (isLanguage(user.language) ? user.language : 'de');
}

interface LogRow {
  id: string;
  created_at: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  client_address: string | null;
  user_agent: string | null;
  actor_uuid: string | null;
  actor_name: string | null;
  actor_email: string | null;
  actor_is_staff: boolean;
  /** The target's user, from the pages' join (the export resolves it per batch instead). */
  target_uuid?: string | null;
  target_name?: string | null;
  target_email?: string | null;
}

/**
 * The user a target names: `user:<uuid>` and `member:<uuid>` name the user with that uuid (written as PostgreSQL
 * writes a uuid: 8-4-4-4-12 hexadecimal digits). Anything else names no user, and never breaks the query.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const TARGET_USER_SQL = `case when a.target ~ '^(user|member):${UUID}$'
  then substr(a.target, strpos(a.target, ':') + 1)::uuid end`;
const TARGET_USER = new RegExp(`^(?:user|member):(${UUID})$`);

/** The uuid of the user `target` names, as the database writes it (lower case); null when it names none. */
export function targetUserUuid(target: string | null): string | null {
  const match = target ? TARGET_USER.exec(target) : null;
  return match ? match[1]!.toLowerCase() : null;
}

/** The columns both the pages and the export read; `u` is the actor. */
const COLUMNS = `a.id::text as id,
         to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
         a.action, a.target, a.before, a.after, a.client_address, a.user_agent,
         a.actor_uuid, u.name as actor_name, u.email as actor_email`;

const SELECT = `
  select ${COLUMNS},
         (u.user_role = any($2::text[]) and m.user_uuid is null) as actor_is_staff,
         ${TARGET_USER_SQL} as target_uuid, tu.name as target_name, tu.email as target_email
    from audit_log a
    left join users u on u.uuid = a.actor_uuid
    left join account_members m on m.account_uuid = a.account_uuid and m.user_uuid = a.actor_uuid
    left join users tu on tu.uuid = ${TARGET_USER_SQL}`;

/**
 * The export reads the same entries without the target user's join: matching each target against the uuid
 * pattern costs the database microseconds a row, which bounded a million-row export; the export resolves target
 * users per batch instead (`TargetUsers`), where a log's few distinct targets are looked up once.
 */
const EXPORT_SELECT = `
  select ${COLUMNS},
         (u.user_role = any($2::text[]) and m.user_uuid is null) as actor_is_staff
    from audit_log a
    left join users u on u.uuid = a.actor_uuid
    left join account_members m on m.account_uuid = a.account_uuid and m.user_uuid = a.actor_uuid`;

/**
 * ADMIN and above (DC, OWNER, staff as SUPPORT) read the whole log, with every actor's client address and browser.
 * Lower roles read the entries in which they are actor or target, and the client address and browser of their own
 * actions only: who acted on them, not from where (issue 21 item 8).
 */
const readsWholeLog = (access: AccountAccess) => hasLevel(ACCOUNT_ROLES, access.role, 'ADMIN');

/**
 * The conditions of a log query: the account; for roles below ADMIN only the entries in which the caller is actor
 * or the target's user; then the filters and the keyset position. `params` gets the values ($1 account, $2 staff
 * roles are taken). Below ADMIN the free text looks in client addresses and browsers of the caller's own actions
 * only, as the entries show no others.
 */
function whereOf(
  user: PortalUser,
  access: AccountAccess,
  filters: Filters,
  params: SqlParams,
  after?: TimePosition,
) {
  const conditions = ['a.account_uuid = $1'];
  const whole = readsWholeLog(access);
  const self = whole ? '' : params.add(user.uuid);
  if (!whole) {
    conditions.push(
      `(a.actor_uuid = ${self} or a.target = any(${params.add(logTargetsFor(user.uuid))}::text[]))`,
    );
  }
  if (filters.actor) conditions.push(`a.actor_uuid = ${params.add(filters.actor)}`);
  if (filters.action) conditions.push(`a.action = ${params.add(filters.action)}`);
  if (filters.from) conditions.push(`a.created_at >= ${params.add(filters.from)}::timestamptz`);
  if (filters.to) conditions.push(`a.created_at < ${params.add(filters.to)}::timestamptz`);
  const q = filters.q?.trim();
  if (q) {
    const p = params.contains(q);
    const origin = `(a.client_address ilike ${p} or a.user_agent ilike ${p})`;
    const shownOrigin = whole ? origin : `(a.actor_uuid = ${self} and ${origin})`;
    // What the table shows (the action and target in the reader's language, the people, where from, the changed
    // values) and the raw keys and ids the export's own columns hold.
    const shown = subjectSearch(q, readerLanguage(user, filters.lang), params, p);
    conditions.push(
      `(${shown.join(' or ')} or a.action ilike ${p} or a.target ilike ${p} or u.name ilike ${p} or u.email ilike ${p}
        or exists (select 1 from users tu where tu.uuid = ${TARGET_USER_SQL} and (tu.name ilike ${p} or tu.email ilike ${p}))
        or ${shownOrigin}
        or a.before::text ilike ${p} or a.after::text ilike ${p})`,
    );
  }
  if (after) {
    conditions.push(
      `(a.created_at, a.id) < (${params.add(after.createdAt)}::timestamptz, ${params.add(after.id)}::bigint)`,
    );
  }
  return conditions.join(' and ');
}

export function checkRange(filters: Filters): void {
  if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to)) {
    throw invalidField('to', 'must be after from');
  }
}

/** The query of the filtered log, newest first, after `position` when given; `limit` rows when given. */
function logQuery(
  select: string,
  user: PortalUser,
  access: AccountAccess,
  filters: Filters,
  position?: TimePosition,
  limit?: number,
): { sql: string; params: unknown[] } {
  const params = sqlParams(access.accountUuid, STAFF_USER_ROLES);
  const where = whereOf(user, access, filters, params, position);
  const sql = `${select} where ${where} order by a.created_at desc, a.id desc`;
  return { sql: limit === undefined ? sql : `${sql} limit ${params.add(limit)}`, params: params.values };
}

/** One batch of entries after `position` (or from the newest), newest first. */
async function readBatch(
  q: Queryable,
  select: string,
  user: PortalUser,
  access: AccountAccess,
  filters: Filters,
  limit: number,
  position?: TimePosition,
): Promise<LogRow[]> {
  const { sql, params } = logQuery(select, user, access, filters, position, limit);
  return (await q.query<LogRow>(sql, params)).rows;
}

function person(uuid: string | null, name: string | null, email: string | null): LogPerson | null {
  return uuid ? { uuid, name, email } : null;
}

/**
 * An entry as the API gives it; `targetUser` from the row's join unless the caller resolved it. `origin` false leaves
 * out the actor's client address and browser (another person's, for a reader below ADMIN).
 */
export function toEntry(
  row: LogRow,
  subjects: LogSubjects,
  targetUser = person(row.target_uuid ?? null, row.target_name ?? null, row.target_email ?? null),
  origin = true,
): LogEntry {
  const userAgent = origin ? row.user_agent : null;
  const subject: LogSubject = subjects.of(row.target, targetUser);
  return {
    id: row.id,
    createdAt: row.created_at,
    action: row.action,
    target: row.target,
    targetUser,
    subject,
    actor: person(row.actor_uuid, row.actor_name, row.actor_email),
    actorIsStaff: row.actor_is_staff === true,
    before: row.before ?? null,
    after: row.after ?? null,
    clientAddress: origin ? row.client_address : null,
    userAgent,
    browser: shortBrowser(userAgent),
  };
}

/** Whether the reader sees where the entry's actor acted from: below ADMIN only for their own actions. */
const showsOrigin = (user: PortalUser, access: AccountAccess) => {
  const whole = readsWholeLog(access);
  return (row: LogRow) => whole || row.actor_uuid === user.uuid;
};

/** A page of the account log, newest first; the cursor continues after the last entry of the previous page. */
export async function listLogs(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
  query: LogsQuery,
): Promise<LogsPage> {
  const { cursor, pageSize = LOGS_PAGE_SIZE, ...filters } = query;
  checkRange(filters);
  const position = cursor ? decodeTimeCursor(cursor, 'this log') : undefined;
  // One more than asked tells whether a next page exists.
  const rows = await readBatch(q, SELECT, user, access, filters, pageSize + 1, position);
  const page = keysetPage(rows, pageSize);
  const origin = showsOrigin(user, access);
  const subjects = new LogSubjects(q, access.accountUuid);
  await subjects.load(page.rows.map((row) => row.target));
  return {
    data: page.rows.map((row) => toEntry(row, subjects, undefined, origin(row))),
    meta: { pageSize, nextCursor: page.nextCursor },
  };
}

/**
 * The names of the users that targets name, looked up per batch and kept for the rest of the export: a log names
 * few distinct users, so a million rows need a handful of lookups instead of a join per row.
 */
class TargetUsers {
  private readonly known = new Map<string, LogPerson>();

  constructor(private readonly q: Queryable) {}

  /** Looks up the users the batch's targets name that were not seen before. */
  async load(rows: LogRow[]): Promise<void> {
    const missing = new Set<string>();
    for (const row of rows) {
      const uuid = targetUserUuid(row.target);
      if (uuid && !this.known.has(uuid)) missing.add(uuid);
    }
    if (!missing.size) return;
    const { rows: users } = await this.q.query<LogPerson>(
      'select uuid::text as uuid, name, email from users where uuid = any($1::uuid[])',
      [[...missing]],
    );
    // A uuid without a user (deleted) still names someone, as on the pages: a person without name and email.
    for (const uuid of missing) this.known.set(uuid, { uuid, name: null, email: null });
    for (const found of users) this.known.set(found.uuid, found);
  }

  /** The user `target` names, as the pages' join gives it; null when it names none. */
  of(target: string | null): LogPerson | null {
    const uuid = targetUserUuid(target);
    return uuid ? this.known.get(uuid)! : null;
  }
}

/**
 * Exports that read through a cursor at once, per database: each holds a pooled connection for as long as its
 * client reads, and the pool (10) must keep room for every other request. A further export waits for a slot.
 */
export const EXPORT_SLOTS = 3;

const exportSlots = new WeakMap<object, { free: number; waiting: (() => void)[] }>();

/** Waits for an export slot of `db`; the returned function gives it back (once, whatever it is called). */
export async function exportSlot(db: object): Promise<() => void> {
  let slots = exportSlots.get(db);
  if (!slots) exportSlots.set(db, (slots = { free: EXPORT_SLOTS, waiting: [] }));
  const own = slots;
  if (own.free > 0) own.free -= 1;
  else await new Promise<void>((resolve) => own.waiting.push(resolve));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // The slot passes straight to the next waiting export, or becomes free.
    const next = own.waiting.shift();
    if (next) next();
    else own.free += 1;
  };
}

/**
 * Rows per batch of the export. A batch's rows and entries live until its last row is written, and the next batch is
 * read meanwhile: with 1,000 rows (about 4.6 MB allocated per 1,000 rows) the two spanned most of V8's young
 * generation cycle (about 12 MB between scavenges), so batches outlived two scavenges, went to the old generation
 * and piled up there until a full collection (up to 170 MB of the server's memory; decision 264). 250 rows keep
 * them young with room for costlier rows; the cursor's extra round trips are read ahead.
 */
const EXPORT_BATCH_ROWS = 250;

/**
 * The filtered log as batches of entries, newest first; the caller holds one batch at a time and the next is read
 * only when it asks. On PostgreSQL one query read through a database cursor (one snapshot: entries written after
 * the export started are not part of it). PGlite, a single connection that a held cursor would block for every
 * other request, reads the same query in keyset batches instead (one query per batch; entries written meanwhile
 * are newer than the first batch and not part of it either). Both give the same entries, so the same file.
 */
export async function* readLogBatches(
  db: Queryable & Pick<Db, 'cursor'>,
  user: PortalUser,
  access: AccountAccess,
  filters: LogsExportQuery,
  batchSize = EXPORT_BATCH_ROWS,
): AsyncGenerator<LogEntry[]> {
  const targets = new TargetUsers(db);
  const subjects = new LogSubjects(db, access.accountUuid);
  const origin = showsOrigin(user, access);
  const entries = async (rows: LogRow[]) => {
    await targets.load(rows);
    await subjects.load(rows.map((row) => row.target));
    return rows.map((row) => toEntry(row, subjects, targets.of(row.target), origin(row)));
  };
  if (db.cursor) {
    const { sql, params } = logQuery(EXPORT_SELECT, user, access, filters);
    const release = await exportSlot(db);
    try {
      for await (const rows of db.cursor<LogRow>(sql, params, batchSize)) yield await entries(rows);
    } finally {
      release();
    }
    return;
  }
  let position: TimePosition | undefined;
  for (;;) {
    const rows = await readBatch(db, EXPORT_SELECT, user, access, filters, batchSize, position);
    if (rows.length) yield await entries(rows);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    position = { createdAt: last.created_at, id: last.id };
  }
}

/**
 * The actor filter's choices: the account's members and the staff who opened the account, by name. Below ADMIN the
 * caller alone: the list of members is ADMIN's to read, and such a reader sees only entries about themselves.
 */
export async function listLogActors(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
): Promise<LogPerson[]> {
  if (!readsWholeLog(access)) {
    const { rows } = await q.query<LogPerson>('select uuid, name, email from users where uuid = $1', [
      user.uuid,
    ]);
    return rows;
  }
  const { rows } = await q.query<LogPerson>(
    `select u.uuid, u.name, u.email from users u
      where u.uuid in (select user_uuid from account_members where account_uuid = $1)
         or u.uuid in (select actor_uuid from audit_log where account_uuid = $1 and action = 'support.access')
      order by lower(u.name), lower(u.email)`,
    [access.accountUuid],
  );
  return rows;
}

/** The export's file name: "log-<account>-<date>.csv", with an ASCII fallback for old clients. */
export async function exportFileName(
  q: Queryable,
  access: AccountAccess,
): Promise<{ utf8: string; ascii: string }> {
  const { rows } = await q.query<{ name: string; today: string }>(
    `select name, to_char(now() at time zone 'UTC', 'YYYY-MM-DD') as today from accounts where uuid = $1`,
    [access.accountUuid],
  );
  // Characters file systems refuse (and control characters) become spaces.
  const account = [...(rows[0]?.name ?? 'account')]
    .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .trim();
  const today = rows[0]?.today ?? new Date().toISOString().slice(0, 10);
  const utf8 = `log-${account.replace(/\s+/g, '-')}-${today}.csv`;
  const ascii = utf8
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/"/g, '');
  return { utf8, ascii };
}
