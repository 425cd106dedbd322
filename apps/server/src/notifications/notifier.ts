import {
  NOTIFICATION_EMAIL_DEFAULTS,
  NOTIFICATION_TYPES_MAILED_BY_AREA,
  type NotificationParams,
  type NotificationType,
} from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { Mailer } from '../mail/mailer.ts';
import { notificationMail } from './mails.ts';

declare module '../jobs/runner.ts' {
  interface JobKinds {
    /** Mail one notification to its recipient, rendered in their language when the job runs. */
    'notifications.mail': { notificationUuid: string };
  }
}

/** The PostgreSQL channel that carries "a notification was written" to every instance's live streams. */
export const NOTIFICATIONS_CHANNEL = 'portal_notifications';

/**
 * The channel's payload: enough for an instance to know whose streams to wake; the stream reads the rows. With
 * `id`, that notification was written; without, the user's notifications changed state (read, unread, archived),
 * so every open tab refreshes its list and badge.
 */
export interface NotificationSignal {
  userUuid: string;
  id?: string;
}

export interface NewNotification<T extends NotificationType> {
  /** The account it belongs to; null for one about the person, shown in the inbox of each of their accounts. */
  accountUuid: string | null;
  /** The recipients (users); an empty list writes nothing. */
  userUuids: readonly string[];
  type: T;
  params: NotificationParams[T];
  /**
   * Mailed whatever the recipients' preferences say (an announcement of a maintenance or incident to the accounts'
   * owners); otherwise their choice, else the type's default.
   */
  mailAlways?: boolean;
}

export interface SelectedNotification<T extends NotificationType> {
  accountUuid: string | null;
  type: T;
  params: NotificationParams[T];
  /**
   * The recipients: SQL selecting distinct `user_uuid` and a boolean `mail_always` (mailed whatever their
   * preferences say), with its parameters ($1 … $n).
   */
  recipients: { sql: string; values: readonly unknown[] };
}

export interface Notifier {
  /**
   * Writes one notification per recipient inside the caller's transaction, the one of the change that causes it:
   * it exists, is signalled to live streams and mailed exactly when that change commits.
   */
  notify<T extends NotificationType>(tx: Queryable, notification: NewNotification<T>): Promise<void>;
  /** `notify` for many notifications at once (a batch of invoices), in a few statements. */
  notifyMany(tx: Queryable, notifications: readonly NewNotification<NotificationType>[]): Promise<void>;
  /**
   * `notify` for recipients a query selects (an announcement's batch): written by one INSERT … SELECT, so the
   * recipients never travel to the server and back; signalled and mailed as `notify`.
   */
  notifySelected<T extends NotificationType>(
    tx: Queryable,
    notification: SelectedNotification<T>,
  ): Promise<void>;
  /** Tells the user's live streams that their notifications changed state; call it in the changing transaction. */
  changed(tx: Queryable, userUuid: string): Promise<void>;
}

function signal(tx: Queryable, payload: NotificationSignal) {
  // NOTIFY inside a transaction is delivered at its commit, and not at all when it rolls back.
  return tx.query('select pg_notify($1, $2)', [NOTIFICATIONS_CHANNEL, JSON.stringify(payload)]);
}

export interface NotifierOptions {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'productName'>;
}

/** The mail of one notification, rendered in the recipient's language when the job runs; its link opens it. */
async function mailNotification({ db, mailer, config }: NotifierOptions, uuid: string) {
  const { rows } = await db.query<{
    type: string;
    params: Record<string, unknown>;
    account_uuid: string | null;
    account_name: string | null;
    email: string;
    name: string;
    language: string;
  }>(
    `select n.type, n.params, n.account_uuid, a.name as account_name, u.email, u.name, u.language
       from notifications n join users u on u.uuid = n.user_uuid left join accounts a on a.uuid = n.account_uuid
      where n.uuid = $1 and n.archived_at is null`,
    [uuid],
  );
  const row = rows[0];
  // Archived (or gone with its user or account) before the job ran: nothing left to tell.
  if (!row) return;
  const account = row.account_uuid ? `?uuid=${row.account_uuid}` : '';
  await mailer.send(
    notificationMail({
      to: { email: row.email, name: row.name, language: row.language },
      type: row.type,
      params: row.params,
      accountName: row.account_name,
      link: `${config.publicUrl}/inbox/${uuid}${account}`,
      product: config.productName,
    }),
  );
}

/**
 * The notifier. notify() also queues a `notifications.mail` job per recipient who gets the type by email (their
 * choice in notification_preferences, else the type's default), in the same transaction. Without options (tools,
 * tests of the bare notifier) nothing is mailed.
 */
export function createNotifier(options?: NotifierOptions): Notifier {
  const jobs = options?.jobs;
  if (options) {
    jobs!.define('notifications.mail', {
      handler: ({ payload }) => mailNotification(options, payload.notificationUuid),
    });
  }
  /** Signals the written notifications to live streams and queues the mails of those mailed, in one go each. */
  async function signalAndMail(
    tx: Queryable,
    written: readonly { id: string; user_uuid: string; type: NotificationType }[],
    alwaysIds: readonly string[],
  ): Promise<void> {
    if (written.length === 0) return;
    // NOTIFY inside a transaction is delivered at its commit, and not at all when it rolls back.
    await tx.query('select pg_notify($1, payload) from unnest($2::text[]) as payload', [
      NOTIFICATIONS_CHANNEL,
      written.map((row) =>
        JSON.stringify({ userUuid: row.user_uuid, id: row.id } satisfies NotificationSignal),
      ),
    ]);
    // Types whose change mails the recipient itself (an invitation link, a transfer offer) get no second mail.
    const mailable = written.filter((row) => !NOTIFICATION_TYPES_MAILED_BY_AREA.includes(row.type));
    if (!jobs || mailable.length === 0) return;
    const mailed = await tx.query<{ uuid: string }>(
      `select n.uuid from notifications n
         left join notification_preferences p on p.user_uuid = n.user_uuid and p.type = n.type
        where n.id = any($1::bigint[])
          and (n.id = any($3::bigint[]) or coalesce(p.email, n.type = any($2::text[])))`,
      [mailable.map((row) => row.id), NOTIFICATION_EMAIL_DEFAULTS, alwaysIds],
    );
    await jobs.enqueueMany(
      'notifications.mail',
      mailed.rows.map(({ uuid }) => ({
        payload: { notificationUuid: uuid },
        uniqueKey: `notification:${uuid}`,
      })),
      { tx },
    );
  }

  const notifier: Notifier = {
    async notify(tx, notification) {
      await notifier.notifyMany(tx, [notification]);
    },
    async notifyMany(tx, notifications) {
      const rows = notifications.flatMap(({ accountUuid, userUuids, type, params }) =>
        [...new Set(userUuids)].map((user) => ({ account_uuid: accountUuid, user_uuid: user, type, params })),
      );
      const always = new Set(
        notifications.flatMap(({ accountUuid, userUuids, type, mailAlways }) =>
          mailAlways ? userUuids.map((user) => `${accountUuid}|${user}|${type}`) : [],
        ),
      );
      if (rows.length === 0) return;
      const written = await tx.query<{
        id: string;
        account_uuid: string | null;
        user_uuid: string;
        type: NotificationType;
      }>(
        `insert into notifications (account_uuid, user_uuid, type, params)
         select account_uuid, user_uuid, type, params
           from jsonb_to_recordset($1::jsonb) as r (account_uuid uuid, user_uuid uuid, type text, params jsonb)
         returning id::text, account_uuid, user_uuid, type`,
        [JSON.stringify(rows)],
      );
      await signalAndMail(
        tx,
        written.rows,
        written.rows
          .filter((row) => always.has(`${row.account_uuid}|${row.user_uuid}|${row.type}`))
          .map((row) => row.id),
      );
    },
    async notifySelected(tx, { accountUuid, type, params, recipients }) {
      const n = recipients.values.length;
      const written = await tx.query<{
        id: string;
        user_uuid: string;
        type: NotificationType;
        mail_always: boolean;
      }>(
        `with r as materialized (${recipients.sql}),
              w as (insert into notifications (account_uuid, user_uuid, type, params)
                    select $${n + 1}::uuid, r.user_uuid, $${n + 2}, $${n + 3}::jsonb from r
                    returning id, user_uuid, type)
         select w.id::text, w.user_uuid, w.type, r.mail_always from w join r on r.user_uuid = w.user_uuid`,
        [...recipients.values, accountUuid, type, JSON.stringify(params)],
      );
      await signalAndMail(
        tx,
        written.rows,
        written.rows.filter((row) => row.mail_always).map((row) => row.id),
      );
    },
    async changed(tx, userUuid) {
      await signal(tx, { userUuid });
    },
  };
  return notifier;
}
