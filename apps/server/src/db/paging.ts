import { invalidField } from '../http/errors.ts';
import type { Queryable } from './client.ts';

// The one way a list is paged on the server (decision 203): `pageOf` reads page and pageSize from the query (the
// contract has capped both), `sqlParams` numbers the values of a statement, `readPage` reads one page and its total,
// and `listPage` answers the contract's List shape. A list that pages by position (the log, the sign-in history,
// the directory) uses the keyset helpers at the end instead.

/** The page size of a list whose contract names none. */
export const DEFAULT_PAGE_SIZE = 25;

export interface PageQuery {
  page?: number;
  pageSize?: number;
}

/** One page of a list: its number and size as answered, and the rows to skip and take in SQL. */
export interface Paging {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

/** The contract's List meta. */
export interface ListMeta {
  total: number;
  page: number;
  pageSize: number;
}

export interface ListPage<T> {
  data: T[];
  meta: ListMeta;
}

/** The page a query asks for: page 1 and `defaultSize` rows unless it says otherwise. */
export function pageOf(query: PageQuery, defaultSize = DEFAULT_PAGE_SIZE): Paging {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? defaultSize;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

/** A page as the contract's List answers it; a count as the database answers it (bigint as text) is a number. */
export function listPage<T>(data: T[], total: number | string, paging: Paging): ListPage<T> {
  return { data, meta: { total: Number(total), page: paging.page, pageSize: paging.pageSize } };
}

/** A list that is never paged (a person's accounts, passkeys), as the List shape: everything on page 1. */
export function wholeList<T>(data: T[]): ListPage<T> {
  return { data, meta: { total: data.length, page: 1, pageSize: data.length } };
}

/** A LIKE pattern that finds `text` anywhere, its `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The numbered values of one statement: `add(value)` keeps the value and answers its placeholder (`$3`), so a
 * condition is written where it is decided (`where.push(\`t.status = ${p.add(status)}\`)`) and the numbers never
 * need counting by hand.
 */
export class SqlParams {
  readonly values: unknown[];

  constructor(values: unknown[] = []) {
    this.values = [...values];
  }

  /** Keeps `value` and answers its placeholder. */
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }

  /** Keeps the LIKE pattern that finds `text` anywhere ({@link containsPattern}) and answers its placeholder. */
  contains(text: string): string {
    return this.add(containsPattern(text));
  }

  /** A copy with the values so far (a count that shares a page's filter but not its limit). */
  copy(): SqlParams {
    return new SqlParams(this.values);
  }
}

/** Values for one statement; `initial` become $1, $2… in order. */
export const sqlParams = (...initial: unknown[]) => new SqlParams(initial);

/**
 * One page of rows and the total of the same filter. `rows` is the statement without limit and offset (both are
 * added as parameters here); `count` answers one row with a `total` column. Both read the values of `params` as they
 * are when called.
 */
export async function readPage<R, T>(
  q: Queryable,
  sql: { rows: string; count: string },
  params: SqlParams,
  paging: Paging,
  toItem: (row: R) => T,
): Promise<ListPage<T>> {
  const page = params.copy();
  const [rows, count] = await Promise.all([
    q.query<R>(`${sql.rows} limit ${page.add(paging.limit)} offset ${page.add(paging.offset)}`, page.values),
    q.query<{ total: string | number }>(sql.count, params.values),
  ]);
  return listPage(rows.rows.map(toItem), count.rows[0]?.total ?? 0, paging);
}

// --- Keyset paging ----------------------------------------------------------------------------------------------

/** A keyset position of a list newest first: created_at (ISO with microseconds) and id of a page's last row. */
export interface TimePosition {
  createdAt: string;
  id: string;
}

const TIME_POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|(\d{1,19})$/;

/** The opaque cursor of a position. */
export function encodeTimeCursor(position: TimePosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`).toString('base64url');
}

/** The position of a cursor; one that does not decode is refused as bad input (422 on `cursor`), never a 500. */
export function decodeTimeCursor(cursor: string, of: string): TimePosition {
  const match = TIME_POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidField('cursor', `is not a cursor of ${of}`);
  return { createdAt: match[1]!, id: match[2]! };
}

/** A keyset position of a list by name (the directory): the name as the database sorts it, and the uuid. */
export interface NamePosition {
  name: string;
  uuid: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque cursor of a position by name. */
export function encodeNameCursor(position: NamePosition): string {
  return Buffer.from(JSON.stringify([position.name, position.uuid])).toString('base64url');
}

/** The position of a cursor by name; one that does not decode is refused as bad input (422 on `cursor`). */
export function decodeNameCursor(cursor: string, of: string): NamePosition {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 2 ||
    typeof parts[0] !== 'string' ||
    typeof parts[1] !== 'string' ||
    !UUID.test(parts[1])
  )
    throw invalidField('cursor', `is not a cursor of ${of}`);
  return { name: parts[0], uuid: parts[1] };
}

/**
 * A keyset page from rows read with a limit of `pageSize + 1` (the one more tells whether a next page exists): the
 * first `pageSize` rows and the cursor after the last of them (`cursorOf` it; by default its time position), or
 * null on the last page.
 */
export function keysetPage<R extends { created_at: string; id: string }>(
  rows: R[],
  pageSize: number,
): { rows: R[]; nextCursor: string | null };
export function keysetPage<R>(
  rows: R[],
  pageSize: number,
  cursorOf: (row: R) => string,
): { rows: R[]; nextCursor: string | null };
export function keysetPage<R>(
  rows: R[],
  pageSize: number,
  cursorOf: (row: R) => string = (row) => {
    const { created_at: createdAt, id } = row as { created_at: string; id: string };
    return encodeTimeCursor({ createdAt, id });
  },
): { rows: R[]; nextCursor: string | null } {
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > pageSize && last ? cursorOf(last) : null };
}
