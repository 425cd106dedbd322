import Type from 'typebox';
import { DateTime, ErrorBody, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

/** Entries per page of the log: the default, and the most the server answers. */
export const LOGS_PAGE_SIZE = 50;
export const LOGS_PAGE_SIZE_MAX = 200;
/** Longest free-text search the log accepts. */
export const LOGS_QUERY_MAX = 100;
/** Action keys are dotted lower-case words, e.g. `account.update`. */
export const LOG_ACTION_PATTERN = '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$';

/** A person named by an entry (as actor or target); null name and email when the user no longer exists. */
export const LogPerson = Type.Object({
  uuid: Uuid,
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
});
export type LogPerson = Type.Static<typeof LogPerson>;

/**
 * What an entry acted on, readable: the server resolves the raw target (`invoice:<uuid>`, `terms:agb`, a request
 * line) to its kind, its id and the name people know it by (the invoice number, the ticket's subject, the person).
 */
export const LogSubject = Type.Object({
  /** person, account, terms, invoice, ticket, invitation, transfer, logo, file, shop, subscription, cloud,
   *  migration, passkey, paymentImport, bankPayment, area (what support staff opened) or other. */
  kind: Type.String(),
  /** The id its page takes (a uuid), the terms' kind (agb, privacy), the area's key; null when none. */
  id: Type.Union([Type.String(), Type.Null()]),
  /** Its number as people quote it (invoice "2026-0012", ticket 1042); null when it has none. */
  ref: Type.Union([Type.String(), Type.Null()]),
  /** Its name from the data (a person's name or address, a ticket's subject, an account's name); null when none. */
  name: Type.Union([Type.String(), Type.Null()]),
});
export type LogSubject = Type.Static<typeof LogSubject>;

/** One audit log entry as the log page shows it. */
export const LogEntry = Type.Object({
  /** Stable id (a decimal string: the database's bigint). */
  id: Type.String(),
  createdAt: DateTime,
  /** Dotted action key (`account.update`); the web shows a localised label, unknown keys readably. */
  action: Type.String(),
  /** What was acted on, as recorded: `account:<uuid>`, `user:<uuid>`, `member:<uuid>` or a request line. */
  target: Type.Union([Type.String(), Type.Null()]),
  /** The user the target names (`user:<uuid>` or `member:<uuid>`), if any. */
  targetUser: Type.Union([LogPerson, Type.Null()]),
  /** The target as people know it (shown with `logSubjectText`): never a raw id on the page. */
  subject: LogSubject,
  /** Who acted; null for jobs and for entries whose actor was deleted. */
  actor: Type.Union([LogPerson, Type.Null()]),
  /** The actor acted as support staff (not a member of the account). */
  actorIsStaff: Type.Boolean(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  /**
   * Where the actor acted from (client address, user agent): null when unknown, and for a reader below ADMIN on
   * every entry but their own actions.
   */
  clientAddress: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  /** The user agent in short, e.g. "Firefox 133 · Windows"; null when unknown. */
  browser: Type.Union([Type.String(), Type.Null()]),
});
export type LogEntry = Type.Static<typeof LogEntry>;

/** Filters of the log and of its CSV export. `from` is inclusive, `to` exclusive. */
const filterProperties = {
  actor: Type.Optional(Uuid),
  action: Type.Optional(Type.String({ maxLength: 100, pattern: LOG_ACTION_PATTERN })),
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  q: Type.Optional(Type.String({ maxLength: LOGS_QUERY_MAX })),
  /**
   * The reader's language: the free text matches actions and targets as they are shown in it, and the export
   * writes it. The caller's language by default.
   */
  lang: Type.Optional(Type.Enum(['de', 'en', 'fr', 'it'])),
};

export const LogsQuery = Type.Object(
  {
    ...filterProperties,
    /** Opaque keyset cursor from the previous page's `meta.nextCursor`. */
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: LOGS_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type LogsQuery = Type.Static<typeof LogsQuery>;

export const LogsExportQuery = Type.Object(filterProperties, { additionalProperties: false });
export type LogsExportQuery = Type.Static<typeof LogsExportQuery>;

/** A page of the log, newest first; `nextCursor` is null on the last page. */
export const LogsPage = Type.Object({
  data: Type.Array(LogEntry),
  meta: Type.Object({
    pageSize: Type.Integer(),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type LogsPage = Type.Static<typeof LogsPage>;

/**
 * The people the actor filter offers: the account's members and staff who opened the account; below ADMIN the caller
 * alone (the members list is ADMIN's to read).
 */
export const LogActors = Type.Object({ data: Type.Array(LogPerson) });
export type LogActors = Type.Static<typeof LogActors>;

/** Whom an entry concerns: the actor, or the user its target names (`user:<uuid>` or `member:<uuid>`). */
export function logTargetsFor(userUuid: string): string[] {
  return [`user:${userUuid}`, `member:${userUuid}`];
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/**
 * The account's audit log. Every member may read it: ADMIN and above the whole log, lower roles the entries in
 * which they are actor or target, with the client address and browser of their own actions only (the server
 * filters, in the pages, the free-text search and the export alike). There is no route that changes or deletes an
 * entry.
 */
export const logsRoutes = {
  listLogs: defineRoute({
    method: 'GET',
    path: '/logs/v1/entries',
    summary: 'A page of the account log, newest first (keyset pagination)',
    tags: ['logs'],
    accountScoped: true,
    accountRole: { min: 'EMPLOYEE' },
    querystring: LogsQuery,
    response: { 200: LogsPage, ...errors },
  }),
  listLogActors: defineRoute({
    method: 'GET',
    path: '/logs/v1/actors',
    summary: 'The people the actor filter of the log offers',
    tags: ['logs'],
    accountScoped: true,
    accountRole: { min: 'EMPLOYEE' },
    response: { 200: LogActors, ...errors },
  }),
  exportLogs: defineRoute({
    method: 'GET',
    path: '/logs/v1/entries.csv',
    summary:
      'The filtered account log as CSV (UTF-8 with BOM; semicolons in de, fr and it, as Swiss Excel reads them, commas in en), streamed',
    tags: ['logs'],
    accountScoped: true,
    accountRole: { min: 'EMPLOYEE' },
    querystring: LogsExportQuery,
    response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }), ...errors },
  }),
};
