import crypto from 'node:crypto';
import {
  DATA_EXPORT_DAYS,
  DATA_EXPORT_EVERY_HOURS,
  DATA_EXPORT_REAUTH_SECONDS,
  DATA_EXPORT_TOO_SOON,
  isLanguage,
  logTargetsFor,
  REAUTHENTICATION_REQUIRED,
  type DataExport,
  type DataExportBody,
  type DataExportStatus,
  type Language,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import type { FileStore } from '../../files/files.ts';
import type { ZipEntry } from '../../files/zip.ts';
import { HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { Config } from '../../config.ts';
import type { ExportSources } from '../deps.ts';
import { gatherAccountExport } from './account-export.ts';
import { confirmCurrentPassword, ownIdentity } from './security.service.ts';
import { README } from './my-data.readme.ts';
import { iso, json, safeName } from './export-format.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    'my-data.export': { exportUuid: string };
  }
}

/**
 * A document of the export as the job froze it, or what the download writes as it streams: a file of the store, an
 * invoice's PDF (the one the invoice download gives), the account's log as CSV up to the moment the job ran.
 */
export type ExportEntry =
  | { name: string; text: string }
  | { name: string; accountUuid: string; fileUuid: string }
  | { name: string; invoiceUuid: string }
  | { name: string; log: { to: string; language: Language } };

/**
 * Whose export: the person's own (`accountUuid` null), or an account's, asked for by one of its owners (decision
 * 240). Both go through the same table, rules, job and ZIP writer.
 */
export interface ExportScope {
  accountUuid: string | null;
}
const PERSONAL: ExportScope = { accountUuid: null };

interface ExportRow {
  uuid: string;
  state: DataExport['state'];
  requested_at: Date;
  ready_at: Date | null;
  expires_at: Date | null;
}

const toExport = (row: ExportRow): DataExport => ({
  uuid: row.uuid,
  state: row.state,
  requestedAt: iso(row.requested_at)!,
  readyAt: iso(row.ready_at),
  expiresAt: iso(row.expires_at),
});

export interface MyDataDeps {
  db: Db;
  config: Config;
  jobs: JobRunner;
  exportSources: ExportSources;
  files: FileStore;
  notifier: Notifier;
}

/** What the download needs to write the ZIP: the file store, the invoices' renderer and the reader (the log). */
export interface ZipContext {
  db: Db;
  files: FileStore;
  sources: ExportSources;
  reader: PortalUser;
  scope: ExportScope;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The newest export of the person (their own) or of the account that counts towards the once-a-day rule (one that
 * failed does not).
 */
async function newestExport(
  q: Queryable,
  userUuid: string,
  scope: ExportScope,
): Promise<ExportRow | undefined> {
  const { rows } = await q.query<ExportRow>(
    scope.accountUuid
      ? `select uuid, state, requested_at, ready_at, expires_at from data_exports
          where account_uuid = $1 and state <> 'failed' order by requested_at desc limit 1`
      : `select uuid, state, requested_at, ready_at, expires_at from data_exports
          where user_uuid = $1 and account_uuid is null and state <> 'failed' order by requested_at desc limit 1`,
    [scope.accountUuid ?? userUuid],
  );
  return rows[0];
}

const nextAllowed = (row: ExportRow | undefined): Date | null => {
  if (!row) return null;
  const next = new Date(new Date(row.requested_at).getTime() + DATA_EXPORT_EVERY_HOURS * HOUR_MS);
  return next > new Date() ? next : null;
};

export async function getExportStatus(
  { db, config }: Pick<MyDataDeps, 'db' | 'config'>,
  user: PortalUser,
  scope: ExportScope = PERSONAL,
): Promise<DataExportStatus> {
  const newest = await newestExport(db, user.uuid, scope);
  const usable = newest && (newest.state === 'preparing' || new Date(newest.expires_at!) > new Date());
  const next = nextAllowed(newest);
  return {
    latest: usable ? toExport(newest) : null,
    nextAllowedAt: next?.toISOString() ?? null,
    provider: config.oidc.embedded ? 'embedded' : 'external',
  };
}

/**
 * Asks for an export: the current password again with the embedded sign-in service, a sign-in of the last
 * DATA_EXPORT_REAUTH_SECONDS with an external Keycloak (403 REAUTHENTICATION_REQUIRED), at most one per
 * DATA_EXPORT_EVERY_HOURS (429 DATA_EXPORT_TOO_SOON, `retryAt`), then a job prepares it.
 */
export async function requestExport(
  deps: MyDataDeps,
  user: PortalUser,
  body: DataExportBody,
  scope: ExportScope = PERSONAL,
): Promise<DataExport> {
  const { db, config, jobs } = deps;
  if (config.oidc.embedded) {
    if (!body.password) throw invalidField('password', 'required');
    const identity = await ownIdentity(deps, user);
    await confirmCurrentPassword(deps, user, identity, body.password, 'password');
  } else {
    // No password to ask: the person signs in again at Keycloak (prompt=login) and the token says when.
    const signedIn = user.signedInAt?.getTime();
    if (!signedIn || Date.now() - signedIn > DATA_EXPORT_REAUTH_SECONDS * 1000) {
      throw new HttpError(403, REAUTHENTICATION_REQUIRED, 'Sign in again to export your data', {
        maxAge: String(DATA_EXPORT_REAUTH_SECONDS),
      });
    }
  }
  return db.transaction(async (tx) => {
    // One request at a time per person (per account): the row lock of the user (the account) orders two
    // concurrent requests.
    if (scope.accountUuid) {
      await tx.query('select uuid from accounts where uuid = $1 for update', [scope.accountUuid]);
    } else {
      await tx.query('select uuid from users where uuid = $1 for update', [user.uuid]);
    }
    const next = nextAllowed(await newestExport(tx, user.uuid, scope));
    if (next) {
      throw new HttpError(429, DATA_EXPORT_TOO_SOON, 'One export of this data per day', {
        retryAt: next.toISOString(),
      });
    }
    const { rows } = await tx.query<ExportRow>(
      `insert into data_exports (uuid, user_uuid, account_uuid) values ($1, $2, $3)
       returning uuid, state, requested_at, ready_at, expires_at`,
      [crypto.randomUUID(), user.uuid, scope.accountUuid],
    );
    const row = rows[0]!;
    await jobs.enqueue('my-data.export', { exportUuid: row.uuid }, { tx, uniqueKey: `my-data:${row.uuid}` });
    return toExport(row);
  });
}

/**
 * The entries of a ready export that has not expired (404 otherwise: another's, gone, preparing): the person's own,
 * or the account's (any owner of it: the route lets only owners through).
 */
export async function readyEntries(
  db: Db,
  user: PortalUser,
  uuid: string,
  scope: ExportScope = PERSONAL,
): Promise<ExportEntry[]> {
  const { rows } = await db.query<{ entries: ExportEntry[] }>(
    scope.accountUuid
      ? `select entries from data_exports
          where uuid = $1 and account_uuid = $2 and state = 'ready' and expires_at > now()`
      : `select entries from data_exports
          where uuid = $1 and user_uuid = $2 and account_uuid is null and state = 'ready' and expires_at > now()`,
    [uuid, scope.accountUuid ?? user.uuid],
  );
  if (!rows[0]) throw notFound('No such export');
  return rows[0].entries;
}

/** The account export's file name: "portal-<account>-<date>.zip", characters file systems refuse replaced. */
export async function accountExportFileName(q: Queryable, accountUuid: string): Promise<string> {
  const { rows } = await q.query<{ name: string }>('select name from accounts where uuid = $1', [
    accountUuid,
  ]);
  const account = [...(rows[0]?.name ?? 'account')]
    .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .trim()
    .replace(/\s+/g, '-');
  return `portal-${account}-${new Date().toISOString().slice(0, 10)}.zip`;
}

/** Text and data formats gain from compression; images, PDFs and archives do not. */
const compressible = (contentType: string) => contentType.startsWith('text/') || contentType.endsWith('+xml');

/**
 * The archive's entries, each written only when the ZIP writer gets to it: a file of the store read piece by piece
 * (never whole), an invoice's PDF as its download gives it, the log's CSV as the log's own export writes it.
 */
export async function* zipEntries(context: ZipContext, entries: ExportEntry[]): AsyncGenerator<ZipEntry> {
  const { db, files } = context;
  for (const entry of entries) {
    if ('text' in entry) {
      yield { name: entry.name, content: Buffer.from(entry.text, 'utf8') };
    } else if ('fileUuid' in entry) {
      const found = await files.stream(db, entry.accountUuid, entry.fileUuid);
      // A file deleted since (its ticket's account is gone) is left out.
      if (found) {
        yield { name: entry.name, content: found.chunks, compress: compressible(found.file.contentType) };
      }
    } else if ('invoiceUuid' in entry) {
      if (!context.scope.accountUuid) continue;
      const pdf = await context.sources.invoicePdf(db, context.scope.accountUuid, entry.invoiceUuid);
      if (pdf) yield { name: entry.name, content: pdf, compress: false };
    } else if (context.scope.accountUuid) {
      // The owner reads the whole log, with where each entry came from, up to the moment the job ran.
      const csv = context.sources.logCsv(
        db,
        context.reader,
        context.scope.accountUuid,
        entry.log.to,
        entry.log.language,
      );
      yield { name: entry.name, content: csvBytes(csv) };
    }
  }
}

async function* csvBytes(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/** Notification parameters that name another person: left out of the export (theirs, not the reader's). */
const PERSON_PARAMS = new Set([
  'invitedBy',
  'email',
  'name',
  'changedBy',
  'removedBy',
  'requestedBy',
  'acceptedBy',
  'cancelledBy',
  'scheduledBy',
]);

/**
 * Gathers everything the portal keeps about the person, frozen now: what is theirs only, never another person's
 * address, name or anything secret (password hash, TOTP secret, recovery codes, passkey keys, tokens, session ids).
 */
export async function gatherExport(
  q: Queryable,
  config: Config,
  userUuid: string,
): Promise<{ entries: ExportEntry[]; language: Language }> {
  const { rows: users } = await q.query<{
    uuid: string;
    subject: string;
    email: string;
    name: string;
    language: string;
    user_role: string;
    email_verified: boolean;
    created_at: Date;
    last_sign_in_at: Date | null;
  }>(
    `select uuid, subject, email, name, language, user_role, email_verified, created_at, last_sign_in_at
       from users where uuid = $1 and deleted_at is null`,
    [userUuid],
  );
  const user = users[0];
  if (!user) throw new Error('The person is gone');
  const language: Language = isLanguage(user.language) ? user.language : 'de';
  const all = async <T extends object>(sql: string, params: unknown[]) =>
    (await q.query<T>(sql, params)).rows;

  const profile = {
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    language: user.language,
    userRole: user.user_role,
    emailVerified: user.email_verified,
    createdAt: iso(user.created_at),
    lastSignInAt: iso(user.last_sign_in_at),
  };
  const memberships = await all(
    `select a.uuid as "accountUuid", a.name as "accountName", m.role, m.invitation_status as "invitationStatus",
            m.invited_at as "invitedAt", m.accepted_at as "acceptedAt"
       from account_members m join accounts a on a.uuid = m.account_uuid
      where m.user_uuid = $1 order by a.name, a.uuid`,
    [user.uuid],
  );
  const invitations = await all(
    `select a.name as "accountName", i.role, i.status, i.note, i.invited_at as "invitedAt",
            i.expires_at as "expiresAt", i.answered_at as "answeredAt"
       from invitations i join accounts a on a.uuid = i.account_uuid
      where lower(i.email) = lower($1) and $1 <> '' order by i.invited_at`,
    [user.email],
  );
  const preferences = await all(
    'select type, email from notification_preferences where user_uuid = $1 order by type',
    [user.uuid],
  );
  const notifications = (
    await all<{ params: Record<string, unknown> } & Record<string, unknown>>(
      `select n.type, n.params, a.name as "accountName", n.created_at as "createdAt", n.read_at as "readAt",
              n.archived_at as "archivedAt"
         from notifications n left join accounts a on a.uuid = n.account_uuid
        where n.user_uuid = $1 order by n.id`,
      [user.uuid],
    )
  ).map((row) => ({
    ...row,
    params: Object.fromEntries(Object.entries(row.params).filter(([key]) => !PERSON_PARAMS.has(key))),
  }));
  const terms = await all(
    `select a.name as "accountName", t.kind, t.version, t.accepted_at as "acceptedAt"
       from terms_acceptances t join accounts a on a.uuid = t.account_uuid
      where t.accepted_by = $1 order by t.accepted_at`,
    [user.uuid],
  );
  const tickets = await all(
    `select t.number, a.name as "accountName", t.subject, t.category, t.severity, t.status,
            t.staff_access_consent as "staffAccessConsent", t.created_at as "createdAt", t.solved_at as "solvedAt"
       from support_tickets t join accounts a on a.uuid = t.account_uuid
      where t.created_by = $1 order by t.number`,
    [user.uuid],
  );
  // The messages the person wrote (an agent's internal notes stay with the support team: they are about customers).
  const messageRows = await all<{
    id: string;
    uuid: string;
    number: string;
    account_uuid: string;
    body: string;
    created_at: Date;
  }>(
    `select m.id, m.uuid, t.number, t.account_uuid, m.body, m.created_at
       from support_messages m join support_tickets t on t.uuid = m.ticket_uuid
      where m.author_uuid = $1 and not m.internal order by m.id`,
    [user.uuid],
  );
  const attachmentRows = await all<{ message_id: string; file_uuid: string; file_name: string }>(
    `select a.message_id, f.uuid as file_uuid, f.file_name
       from support_attachments a join support_messages m on m.id = a.message_id join files f on f.uuid = a.file_uuid
      where m.author_uuid = $1 and not m.internal order by a.message_id, a.position`,
    [user.uuid],
  );
  const files: ExportEntry[] = [];
  const messages = messageRows.map((message) => {
    const attachments = attachmentRows
      .filter((row) => String(row.message_id) === String(message.id))
      .map((row, index) => {
        const name = `attachments/${message.number}/${message.uuid.slice(0, 8)}-${index + 1}-${safeName(row.file_name)}`;
        files.push({ name, accountUuid: message.account_uuid, fileUuid: row.file_uuid });
        return name;
      });
    return {
      ticketNumber: Number(message.number),
      body: message.body,
      createdAt: iso(message.created_at),
      attachments,
    };
  });
  // The log: entries about the person in whole; entries the person made with what, where and when, from which
  // address and browser (theirs), but not whom or what they changed (that may be another person).
  const logAbout = await all(
    `select l.action, a.name as "accountName", l.before, l.after, l.created_at as "createdAt"
       from audit_log l left join accounts a on a.uuid = l.account_uuid
      where l.target = any($1::text[]) order by l.id`,
    [logTargetsFor(user.uuid)],
  );
  const logBy = await all(
    `select l.action, a.name as "accountName", l.client_address as "clientAddress", l.user_agent as "userAgent",
            l.created_at as "createdAt"
       from audit_log l left join accounts a on a.uuid = l.account_uuid
      where l.actor_uuid = $1 order by l.id`,
    [user.uuid],
  );

  const signIn: Record<string, unknown> = { provider: config.oidc.embedded ? 'embedded' : 'external' };
  if (config.oidc.embedded) {
    const identity = user.subject;
    signIn.signIns = await all(
      `select outcome, method, user_agent as "userAgent", client_address as "clientAddress", created_at as "at"
         from idp_sign_ins where identity_id = $1 order by created_at, id`,
      [identity],
    );
    signIn.sessions = await all(
      `select user_agent as "userAgent", client_address as "clientAddress", started_at as "startedAt",
              last_active_at as "lastActiveAt"
         from idp_session_details where identity_id = $1 order by started_at`,
      [identity],
    );
    signIn.passkeys = await all(
      `select name, device_type as "deviceType", backed_up as "backedUp", created_at as "createdAt",
              last_used_at as "lastUsedAt"
         from idp_passkeys where identity_id = $1 order by created_at`,
      [identity],
    );
    const totp = await all<{ confirmed_at: Date | null }>(
      'select confirmed_at from idp_totp where identity_id = $1',
      [identity],
    );
    const codes = await all<{ left: string | number }>(
      'select count(*) as left from idp_recovery_codes where identity_id = $1 and used_at is null',
      [identity],
    );
    signIn.twoFactor = {
      authenticatorApp: Boolean(totp[0]?.confirmed_at),
      authenticatorAppSince: iso(totp[0]?.confirmed_at ?? null),
      recoveryCodesLeft: totp[0]?.confirmed_at ? Number(codes[0]?.left ?? 0) : 0,
    };
  }

  const entries: ExportEntry[] = [
    { name: 'README.txt', text: README[language](new Date()) },
    { name: 'profile.json', text: json(profile) },
    { name: 'memberships.json', text: json(memberships) },
    { name: 'invitations.json', text: json(invitations) },
    { name: 'notification-preferences.json', text: json(preferences) },
    { name: 'notifications.json', text: json(notifications) },
    { name: 'sign-in.json', text: json(signIn) },
    { name: 'terms.json', text: json(terms) },
    { name: 'tickets.json', text: json(tickets) },
    { name: 'messages.json', text: json(messages) },
    { name: 'log.json', text: json({ aboutYou: logAbout, byYou: logBy }) },
    ...files,
  ];
  return { entries, language };
}

/**
 * The job: gathers the export (the person's, or the account's when the row names one), offers it for
 * DATA_EXPORT_DAYS, tells the person who asked in the inbox and by mail.
 */
export function defineExportJob({ db, config, jobs, notifier, exportSources }: MyDataDeps): void {
  const maxAttempts = 3;
  jobs.define('my-data.export', {
    maxAttempts,
    handler: async ({ payload, attempt, log }) => {
      try {
        await db.transaction(async (tx) => {
          const { rows } = await tx.query<{ user_uuid: string; account_uuid: string | null; state: string }>(
            'select user_uuid, account_uuid, state from data_exports where uuid = $1 for update',
            [payload.exportUuid],
          );
          const row = rows[0];
          if (!row || row.state !== 'preparing') return;
          const { entries, accountName } = row.account_uuid
            ? await gatherAccountExport(tx, exportSources, row.account_uuid, row.user_uuid)
            : { ...(await gatherExport(tx, config, row.user_uuid)), accountName: undefined };
          const expires = new Date(Date.now() + DATA_EXPORT_DAYS * 24 * HOUR_MS);
          await tx.query(
            `update data_exports set state = 'ready', entries = $2::jsonb, ready_at = now(), expires_at = $3
              where uuid = $1`,
            [payload.exportUuid, JSON.stringify(entries), expires.toISOString()],
          );
          await notifier.notify(tx, {
            accountUuid: row.account_uuid,
            userUuids: [row.user_uuid],
            type: 'data_export.ready',
            params: {
              availableUntil: expires.toISOString(),
              ...(accountName === undefined ? {} : { accountName }),
            },
          });
        });
      } catch (error) {
        if (attempt >= maxAttempts) {
          log.error({ err: error, exportUuid: payload.exportUuid }, 'data export failed');
          await db.query(`update data_exports set state = 'failed' where uuid = $1 and state = 'preparing'`, [
            payload.exportUuid,
          ]);
        }
        throw error;
      }
    },
  });
}
