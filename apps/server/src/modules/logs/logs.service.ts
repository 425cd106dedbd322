import Bowser from 'bowser';
import {
  ACCOUNT_ROLES,
  LOGS_PAGE_SIZE,
  STAFF_USER_ROLES,
  hasLevel,
  logTargetsFor,
  type LogEntry,
  type LogPerson,
  type LogsExportQuery,
  type LogsPage,
  type LogsQuery,
} from '@portal/contract';
import type { Queryable } from '../../db/client.ts';
import { invalidField } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';

type Filters = Omit<LogsQuery, 'cursor' | 'pageSize'>;

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
  target_uuid: string | null;
  target_name: string | null;
  target_email: string | null;
}

/** A keyset position: the (created_at, id) of the last entry of a page; created_at with microseconds. */
interface Position {
  createdAt: string;
  id: string;
}

const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|(\d{1,19})$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdAt}|${position.id}`).toString('base64url');
}

/** The cursor is opaque to clients; one that does not decode is refused as bad input, never a 500. */
export function decodeCursor(cursor: string): Position {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidField('cursor', 'is not a cursor of this log');
  return { createdAt: match[1]!, id: match[2]! };
}

/** LIKE pattern that matches the text literally (its % _ and \ escaped), anywhere. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The user a target names: `user:<uuid>` and `member:<uuid>` name the user with that uuid. */
const TARGET_USER_SQL = `case when a.target ~ '^(user|member):[0-9a-fA-F-]{36}$'
  then substr(a.target, strpos(a.target, ':') + 1)::uuid end`;

const SELECT = `
  select a.id::text as id,
         to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
         a.action, a.target, a.before, a.after, a.client_address, a.user_agent,
         a.actor_uuid, u.name as actor_name, u.email as actor_email,
         (u.user_role = any($2::text[]) and m.user_uuid is null) as actor_is_staff,
         ${TARGET_USER_SQL} as target_uuid, tu.name as target_name, tu.email as target_email
    from audit_log a
    left join users u on u.uuid = a.actor_uuid
    left join account_members m on m.account_uuid = a.account_uuid and m.user_uuid = a.actor_uuid
    left join users tu on tu.uuid = ${TARGET_USER_SQL}`;

/**
 * The conditions of a log query: the account; for roles below ADMIN only the entries in which the caller is actor
 * or the target's user; then the filters and the keyset position. `params` gets the values ($1 account, $2 staff
 * roles are taken).
 */
function whereOf(
  user: PortalUser,
  access: AccountAccess,
  filters: Filters,
  params: unknown[],
  after?: Position,
) {
  const add = (value: unknown) => `$${params.push(value)}`;
  const conditions = ['a.account_uuid = $1'];
  if (!hasLevel(ACCOUNT_ROLES, access.role, 'ADMIN')) {
    conditions.push(
      `(a.actor_uuid = ${add(user.uuid)} or a.target = any(${add(logTargetsFor(user.uuid))}::text[]))`,
    );
  }
  if (filters.actor) conditions.push(`a.actor_uuid = ${add(filters.actor)}`);
  if (filters.action) conditions.push(`a.action = ${add(filters.action)}`);
  if (filters.from) conditions.push(`a.created_at >= ${add(filters.from)}::timestamptz`);
  if (filters.to) conditions.push(`a.created_at < ${add(filters.to)}::timestamptz`);
  const q = filters.q?.trim();
  if (q) {
    const p = add(containsPattern(q));
    conditions.push(
      `(a.action ilike ${p} or a.target ilike ${p} or u.name ilike ${p} or u.email ilike ${p}
        or tu.name ilike ${p} or tu.email ilike ${p} or a.client_address ilike ${p} or a.user_agent ilike ${p}
        or a.before::text ilike ${p} or a.after::text ilike ${p})`,
    );
  }
  if (after) {
    conditions.push(
      `(a.created_at, a.id) < (${add(after.createdAt)}::timestamptz, ${add(after.id)}::bigint)`,
    );
  }
  return conditions.join(' and ');
}

export function checkRange(filters: Filters): void {
  if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to)) {
    throw invalidField('to', 'must be after from');
  }
}

/** One batch of entries after `position` (or from the newest), newest first. */
async function readBatch(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
  filters: Filters,
  limit: number,
  position?: Position,
): Promise<LogRow[]> {
  const params: unknown[] = [access.accountUuid, STAFF_USER_ROLES];
  const where = whereOf(user, access, filters, params, position);
  const { rows } = await q.query<LogRow>(
    `${SELECT} where ${where} order by a.created_at desc, a.id desc limit ${Number(limit)}`,
    params,
  );
  return rows;
}

/**
 * "Firefox 133 · Windows": browser, its major version and the operating system; for a client no browser (a script,
 * "curl/8.5.0"), its first product token; null without a user agent.
 */
export function shortBrowser(userAgent: string | null): string | null {
  if (!userAgent) return null;
  let short = browserCache.get(userAgent);
  if (short === undefined) {
    short = parseBrowser(userAgent);
    // A log holds few distinct user agents; parsing each once keeps a million-row export fast. Bounded.
    if (browserCache.size >= 1_000) browserCache.clear();
    browserCache.set(userAgent, short);
  }
  return short;
}

const browserCache = new Map<string, string | null>();

function parseBrowser(userAgent: string): string | null {
  const parsed = Bowser.parse(userAgent);
  const name = parsed.browser.name;
  const major = parsed.browser.version?.split('.')[0];
  const browser = name ? [name, major].filter(Boolean).join(' ') : null;
  const parts = [browser, parsed.os.name].filter(Boolean);
  if (parts.length) return parts.join(' · ');
  return userAgent.split(/\s/)[0]!.slice(0, 40) || null;
}

function person(uuid: string | null, name: string | null, email: string | null): LogPerson | null {
  return uuid ? { uuid, name, email } : null;
}

export function toEntry(row: LogRow): LogEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    action: row.action,
    target: row.target,
    targetUser: person(row.target_uuid, row.target_name, row.target_email),
    actor: person(row.actor_uuid, row.actor_name, row.actor_email),
    actorIsStaff: row.actor_is_staff === true,
    before: row.before ?? null,
    after: row.after ?? null,
    clientAddress: row.client_address,
    userAgent: row.user_agent,
    browser: shortBrowser(row.user_agent),
  };
}

/** A page of the account log, newest first; the cursor continues after the last entry of the previous page. */
export async function listLogs(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
  query: LogsQuery,
): Promise<LogsPage> {
  const { cursor, pageSize = LOGS_PAGE_SIZE, ...filters } = query;
  checkRange(filters);
  const position = cursor ? decodeCursor(cursor) : undefined;
  // One more than asked tells whether a next page exists.
  const rows = await readBatch(q, user, access, filters, pageSize + 1, position);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    data: page.map(toEntry),
    meta: {
      pageSize,
      nextCursor:
        rows.length > pageSize && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    },
  };
}

/**
 * The filtered log as batches of entries, newest first, read by keyset (one query per batch, the same on PGlite
 * and PostgreSQL): the caller holds one batch at a time. Entries written after the export started are newer than
 * its first batch and are not part of it.
 */
export async function* readLogBatches(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
  filters: Omit<LogsExportQuery, 'lang'>,
  batchSize = 2_000,
): AsyncGenerator<LogEntry[]> {
  let position: Position | undefined;
  for (;;) {
    const rows = await readBatch(q, user, access, filters, batchSize, position);
    if (rows.length) yield rows.map(toEntry);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    position = { createdAt: last.created_at, id: last.id };
  }
}

/** The actor filter's choices: the account's members and the staff who opened the account, by name. */
export async function listLogActors(q: Queryable, access: AccountAccess): Promise<LogPerson[]> {
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
