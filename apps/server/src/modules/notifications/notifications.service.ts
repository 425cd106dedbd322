import {
  NOTIFICATION_TYPES,
  NOTIFICATION_TYPES_MAILED_BY_AREA,
  NOTIFICATIONS_PAGE_SIZE,
  TERMS_VERSION,
  emailsByDefault,
  type Notification,
  type NotificationPreference,
  type NotificationsQuery,
  type UpdateNotificationPreferencesBody,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';

interface NotificationRow {
  uuid: string;
  type: string;
  params: Record<string, unknown>;
  account_uuid: string | null;
  created_at: Date;
  read_at: Date | null;
  archived_at: Date | null;
  account_name: string | null;
}

const COLUMNS = `n.uuid, n.type, n.params, n.account_uuid, n.created_at, n.read_at, n.archived_at,
  (select a.name from accounts a where a.uuid = n.account_uuid) as account_name`;

/**
 * The caller's notifications in one account ($1 user, $2 account): the account's notifications addressed to them
 * and their personal ones (no account), archived or not. Nothing else is ever visible: another user's or another
 * account's notification is simply not found.
 */
const MINE = `n.user_uuid = $1 and (n.account_uuid = $2 or n.account_uuid is null)`;
/** The key of a personal notification's counts in `notification_counts` (its account is null). */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';
/** The inbox: the caller's notifications that are not archived (the only ones the unread count counts). */
const INBOX = `${MINE} and n.archived_at is null`;

/**
 * A notification as the API gives it. An account's notification names its account (`accountName`, as its mail
 * does) when its parameters do not: the inbox said "Für einem Konto wurde eine Rechnung … ausgestellt" (issue 23
 * item 9).
 */
function toNotification(row: NotificationRow): Notification {
  const named = row.account_name !== null && row.params.accountName === undefined;
  return {
    uuid: row.uuid,
    type: row.type,
    params: named ? { ...row.params, accountName: row.account_name } : row.params,
    accountUuid: row.account_uuid,
    createdAt: new Date(row.created_at).toISOString(),
    readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
    archivedAt: row.archived_at ? new Date(row.archived_at).toISOString() : null,
  };
}

/**
 * A page of the inbox: unread first, then newest (the creation order breaks ties), with the filtered total. The
 * archived view lists the archived ones instead, the most recently archived first.
 */
export async function listNotifications(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  query: NotificationsQuery,
): Promise<ListPage<Notification>> {
  const archived = query.archived === true;
  const p = sqlParams(user.uuid, access.accountUuid);
  const where = [archived ? `${MINE} and n.archived_at is not null` : INBOX];
  if (query.unread) where.push('n.read_at is null');
  const type = query.type ? p.add(query.type) : null;
  if (type) where.push(`n.type = ${type}`);
  const filter = `from notifications n where ${where.join(' and ')}`;
  const order = archived ? 'n.archived_at desc, n.id desc' : '(n.read_at is null) desc, n.id desc';
  // The total sums the view's kept counts (migration 043) rather than counting its notifications: 41,000 index
  // entries for a person with 100,000 took most of a page's time (decision 265). Same filters as the rows.
  const counted = [
    `c.user_uuid = $1 and c.account_key in ($2, '${NO_ACCOUNT}') and c.archived = ${archived}`,
  ];
  if (query.unread) counted.push('c.unread');
  if (type) counted.push(`c.type = ${type}`);
  return readPage(
    db,
    {
      rows: `select ${COLUMNS} ${filter} order by ${order}`,
      count: `select coalesce(sum(c.count), 0) as total from notification_counts c where ${counted.join(' and ')}`,
    },
    p,
    pageOf(query, NOTIFICATIONS_PAGE_SIZE),
    toNotification,
  );
}

/** One of the caller's notifications, archived or not (an archived one still opens, to be read or restored). */
async function findNotification(q: Queryable, user: PortalUser, access: AccountAccess, uuid: string) {
  const { rows } = await q.query<NotificationRow>(
    `select ${COLUMNS} from notifications n where ${MINE} and n.uuid = $3`,
    [user.uuid, access.accountUuid, uuid],
  );
  if (!rows[0]) throw notFound('No such notification');
  return rows[0];
}

export async function getNotification(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  uuid: string,
): Promise<Notification> {
  return toNotification(await findNotification(db, user, access, uuid));
}

/** Marks one notification read (keeping the first read time) or unread; the user's open tabs are told. */
export async function setRead(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  uuid: string,
  read: boolean,
): Promise<Notification> {
  return db.transaction(async (tx) => {
    const before = await findNotification(tx, user, access, uuid);
    if ((before.read_at !== null) === read) return toNotification(before);
    const { rows } = await tx.query<NotificationRow>(
      `update notifications n set read_at = case when $2 then now() else null end where n.uuid = $1
       returning ${COLUMNS}`,
      [uuid, read],
    );
    await notifier.changed(tx, user.uuid);
    return toNotification(rows[0]!);
  });
}

/**
 * Archives one notification (it leaves the inbox and the unread count) or restores an archived one to both.
 * Archiving an archived one keeps its first archive time; restoring one in the inbox changes nothing.
 */
export async function setArchived(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  uuid: string,
  archived: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findNotification(tx, user, access, uuid);
    if ((before.archived_at !== null) === archived) return;
    await tx.query(
      'update notifications set archived_at = case when $2 then now() else null end where uuid = $1',
      [uuid, archived],
    );
    await notifier.changed(tx, user.uuid);
  });
}

/** Marks every unread notification of the inbox (the account's and the personal ones) read. */
export async function markAllRead(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `update notifications n set read_at = now() where ${INBOX} and n.read_at is null returning n.id`,
      [user.uuid, access.accountUuid],
    );
    if (rows.length > 0) await notifier.changed(tx, user.uuid);
    return rows.length;
  });
}

export async function unreadCount(db: Db, user: PortalUser, access: AccountAccess): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `select count(*) as count from notifications n where ${INBOX} and n.read_at is null`,
    [user.uuid, access.accountUuid],
  );
  return Number(rows[0]!.count);
}

/** The user's email setting of every known type: their choice, else the type's default. */
export async function getPreferences(db: Queryable, user: PortalUser): Promise<NotificationPreference[]> {
  const { rows } = await db.query<{ type: string; email: boolean }>(
    'select type, email from notification_preferences where user_uuid = $1',
    [user.uuid],
  );
  const chosen = new Map(rows.map((row) => [row.type, row.email]));
  return NOTIFICATION_TYPES.map((type) =>
    NOTIFICATION_TYPES_MAILED_BY_AREA.includes(type)
      ? { type, email: true, fixed: true }
      : { type, email: chosen.get(type) ?? emailsByDefault(type) },
  );
}

/** Stores the named types' settings; the others keep theirs. A type its area always mails stays on. */
export async function updatePreferences(
  db: Db,
  user: PortalUser,
  body: UpdateNotificationPreferencesBody,
): Promise<NotificationPreference[]> {
  const fixed = body.preferences.findIndex(
    ({ type, email }) => !email && NOTIFICATION_TYPES_MAILED_BY_AREA.includes(type),
  );
  if (fixed >= 0) throw invalidField(`preferences.${fixed}.email`, 'alwaysMailed');
  return db.transaction(async (tx) => {
    for (const { type, email } of body.preferences) {
      await tx.query(
        `insert into notification_preferences (user_uuid, type, email) values ($1, $2, $3)
         on conflict (user_uuid, type) do update set email = excluded.email`,
        [user.uuid, type, email],
      );
    }
    return getPreferences(tx, user);
  });
}

/**
 * Terms to accept: an account in use (it has accepted terms on record) whose current owner has not accepted the
 * current version of the terms or the privacy policy — a new version came into force, or the owner changed. Its
 * owner gets one notification per version and account; running again writes nothing new.
 */
export async function notifyTermsToAccept(db: Db, notifier: Notifier): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      account_uuid: string;
      account_name: string;
      owner_uuid: string;
      agb: boolean;
      privacy: boolean;
    }>(
      `select a.uuid as account_uuid, a.name as account_name, o.user_uuid as owner_uuid,
              exists (select 1 from terms_acceptances t where t.account_uuid = a.uuid and t.kind = 'agb'
                         and t.version = $1 and t.accepted_by = o.user_uuid) as agb,
              exists (select 1 from terms_acceptances t where t.account_uuid = a.uuid and t.kind = 'privacy'
                         and t.version = $1 and t.accepted_by = o.user_uuid) as privacy
         from accounts a
         join account_members o on o.account_uuid = a.uuid and o.role = 'OWNER' and o.invitation_status = 'ACCEPTED'
        where (a.available_until is null or a.available_until > now())
          and exists (select 1 from terms_acceptances t where t.account_uuid = a.uuid)
          and not exists (select 1 from notifications n where n.account_uuid = a.uuid
                             and n.user_uuid = o.user_uuid and n.type = 'terms.to_accept'
                             and n.params ->> 'version' = $1)`,
      [TERMS_VERSION],
    );
    let written = 0;
    for (const row of rows) {
      if (row.agb && row.privacy) continue;
      const kind = row.agb ? 'privacy' : row.privacy ? 'agb' : 'all';
      await notifier.notify(tx, {
        accountUuid: row.account_uuid,
        userUuids: [row.owner_uuid],
        type: 'terms.to_accept',
        params: { kind, version: TERMS_VERSION },
      });
      written += 1;
    }
    return written;
  });
}
