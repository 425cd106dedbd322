import type { NotificationParams, NotificationType } from '@portal/contract';
import type { Queryable } from '../db/client.ts';

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
}

export interface Notifier {
  /**
   * Writes one notification per recipient inside the caller's transaction, the one of the change that causes it:
   * it exists, is signalled to live streams and mailed exactly when that change commits.
   */
  notify<T extends NotificationType>(tx: Queryable, notification: NewNotification<T>): Promise<void>;
  /** Tells the user's live streams that their notifications changed state; call it in the changing transaction. */
  changed(tx: Queryable, userUuid: string): Promise<void>;
}

function signal(tx: Queryable, payload: NotificationSignal) {
  // NOTIFY inside a transaction is delivered at its commit, and not at all when it rolls back.
  return tx.query('select pg_notify($1, $2)', [NOTIFICATIONS_CHANNEL, JSON.stringify(payload)]);
}

export function createNotifier(): Notifier {
  return {
    async notify(tx, { accountUuid, userUuids, type, params }) {
      const recipients = [...new Set(userUuids)];
      if (recipients.length === 0) return;
      const { rows } = await tx.query<{ id: string; user_uuid: string }>(
        `insert into notifications (account_uuid, user_uuid, type, params)
         select $1, recipient, $3, $4::jsonb from unnest($2::uuid[]) as recipient
         returning id::text, user_uuid`,
        [accountUuid, recipients, type, JSON.stringify(params)],
      );
      for (const row of rows) await signal(tx, { userUuid: row.user_uuid, id: row.id });
    },
    async changed(tx, userUuid) {
      await signal(tx, { userUuid });
    },
  };
}
