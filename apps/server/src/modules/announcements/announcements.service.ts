import {
  LANGUAGES,
  URGENT_ANNOUNCEMENT_KINDS,
  announcementText,
  mayAnnounce,
  type Announcement,
  type AnnouncementAction,
  type AnnouncementInput,
  type AnnouncementReading,
  type AnnouncementsQuery,
  type CurrentAnnouncement,
  type Language,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { pageOf, readPage, sqlParams, wholeList, type ListPage } from '../../db/paging.ts';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors.ts';
import { renderMarkdown } from '../../http/markdown.ts';
import type { PortalUser } from '../../http/types.ts';
import type { JobKinds, JobRunner } from '../../jobs/runner.ts';
import type { Notifier } from '../../notifications/notifier.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    /** Plans an announcement's fan-out at its start: queues all its batches at once, and the job that ends it. */
    'announcements.fanout': { announcementUuid: string; revision: number };
    /** Writes one batch of an announcement's notifications: its recipients after `after` up to `upTo` (uuids). */
    'announcements.fanout-batch': {
      announcementUuid: string;
      revision: number;
      after: string | null;
      upTo: string | null;
    };
    /** Marks an announcement fanned out once none of its batches is left. */
    'announcements.fanout-done': { announcementUuid: string; revision: number };
    /** Removes the next batch of a withdrawn announcement's notifications from the inboxes. */
    'announcements.withdraw': { announcementUuid: string };
  }
}

/** Recipients written per transaction: a batch commits on its own, never one transaction for everyone. */
export const FANOUT_BATCH = 2_000;
/** How often the job that ends a fan-out looks whether its batches are done, and how long it waits at most. */
const FANOUT_DONE_POLL_MS = 100;
const FANOUT_DONE_WAIT_MS = 60_000;

/** The one notification type of announcements. */
const TYPE = 'announcement.published';

interface AnnouncementRow {
  uuid: string;
  kind: Announcement['kind'];
  title: Announcement['title'];
  body: Announcement['body'];
  audience: Announcement['audience'];
  audience_values: string[];
  roles: Announcement['roles'];
  starts_at: Date | string;
  ends_at: Date | string | null;
  status: Announcement['status'];
  revision: number;
  fanned_out_at: Date | string | null;
  created_by_name: string | null;
  created_at: Date | string;
  published_at: Date | string | null;
  withdrawn_at: Date | string | null;
  reach: string | number;
  read: string | number;
}

const SELECT = `
  select a.uuid, a.kind, a.title, a.body, a.audience, a.audience_values, a.roles, a.starts_at, a.ends_at, a.status,
         a.revision, a.fanned_out_at, u.name as created_by_name, a.created_at, a.published_at, a.withdrawn_at,
         coalesce(c.reach, 0) as reach, coalesce(c.read, 0) as read
    from announcements a
    left join users u on u.uuid = a.created_by
    left join lateral (
      select count(*) as reach, count(n.read_at) as read
        from notifications n
       where n.type = '${TYPE}' and n.params ->> 'announcementUuid' = a.uuid::text
    ) c on true`;

function toAnnouncement(row: AnnouncementRow): Announcement {
  return {
    uuid: row.uuid,
    kind: row.kind,
    title: row.title,
    body: row.body,
    audience: row.audience,
    audienceValues: row.audience_values,
    roles: row.roles,
    startsAt: iso(row.starts_at),
    endsAt: row.ends_at === null ? null : iso(row.ends_at),
    status: row.status,
    reach: Number(row.reach),
    read: Number(row.read),
    fannedOutAt: row.fanned_out_at === null ? null : iso(row.fanned_out_at),
    createdBy: row.created_by_name,
    createdAt: iso(row.created_at),
    publishedAt: row.published_at === null ? null : iso(row.published_at),
    withdrawnAt: row.withdrawn_at === null ? null : iso(row.withdrawn_at),
  };
}

/** Refuses (403) a caller whose user role may not do `action`: customers, support agents, and drafters publishing. */
function requireRole(user: PortalUser, action: AnnouncementAction): void {
  if (!mayAnnounce(user.userRole, action)) {
    throw forbidden(
      action === 'publish'
        ? 'Publishing announcements needs the PORTAL_ADMIN role'
        : 'Announcements need the SUPPORT_MANAGER role',
    );
  }
}

/** A 422 with field errors whose texts are rule keys of the web's validation texts (validation.json). */
const invalid = (fields: Record<string, string>) =>
  new HttpError(422, 'VALIDATION_FAILED', `Invalid announcement: ${Object.keys(fields).join(', ')}`, fields);

export interface AnnouncementRules {
  /** The plan codes of the catalogue: an audience by plan names only these. */
  planCodes: readonly string[];
}

/** What the schema cannot say: German texts present, an end after the start, an audience that names something. */
async function checkInput(q: Queryable, rules: AnnouncementRules, input: AnnouncementInput) {
  const fields: Record<string, string> = {};
  if (input.title.de.trim() === '') fields['title.de'] = 'required';
  if (input.body.de.trim() === '') fields['body.de'] = 'required';
  if (input.endsAt !== null && Date.parse(input.endsAt) <= Date.parse(input.startsAt)) {
    fields.endsAt = 'announcementEndBeforeStart';
  }
  const values = input.audienceValues;
  if (input.audience === 'all' && values.length > 0) fields.audienceValues = 'announcementAudienceAll';
  if (input.audience !== 'all' && values.length === 0) {
    fields.audienceValues = 'announcementAudienceEmpty';
  } else if (input.audience === 'plans' && values.some((code) => !rules.planCodes.includes(code))) {
    fields.audienceValues = 'announcementUnknownPlan';
  } else if (input.audience === 'countries' && values.some((code) => !/^[A-Z]{2}$/.test(code))) {
    fields.audienceValues = 'announcementUnknownCountry';
  } else if (input.audience === 'accounts') {
    const uuids = values.filter((value) =>
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
    );
    const { rows } =
      uuids.length === values.length
        ? await q.query<{ n: string | number }>(
            'select count(*) as n from accounts where uuid = any($1::uuid[])',
            [uuids],
          )
        : { rows: [{ n: -1 }] };
    if (Number(rows[0]!.n) !== new Set(values.map((v) => v.toLowerCase())).size) {
      fields.audienceValues = 'announcementUnknownAccount';
    }
  }
  if (Object.keys(fields).length > 0) throw invalid(fields);
}

/** The texts as stored: German always, the other languages only where written (trimmed of nothing else). */
function texts(input: Record<string, string | undefined>) {
  return Object.fromEntries(LANGUAGES.filter((l) => (input[l] ?? '') !== '').map((l) => [l, input[l]]));
}

async function readOne(q: Queryable, uuid: string): Promise<Announcement> {
  const { rows } = await q.query<AnnouncementRow>(`${SELECT} where a.uuid = $1`, [uuid]);
  if (!rows[0]) throw notFound('No such announcement');
  return toAnnouncement(rows[0]);
}

async function lockOne(tx: Queryable, uuid: string) {
  const { rows } = await tx.query<{ status: string; starts_at: Date | string; revision: number }>(
    'select status, starts_at, revision from announcements where uuid = $1 for update',
    [uuid],
  );
  if (!rows[0]) throw notFound('No such announcement');
  return rows[0];
}

export async function listAnnouncements(
  db: Db,
  user: PortalUser,
  query: AnnouncementsQuery,
): Promise<ListPage<Announcement>> {
  requireRole(user, 'draft');
  const paging = pageOf(query);
  const p = sqlParams();
  const where = query.status ? `where a.status = ${p.add(query.status)}` : '';
  return readPage<AnnouncementRow, Announcement>(
    db,
    {
      rows: `${SELECT} ${where} order by a.created_at desc, a.uuid`,
      count: `select count(*) as total from announcements a ${where}`,
    },
    p,
    paging,
    toAnnouncement,
  );
}

export async function getAnnouncement(db: Db, user: PortalUser, uuid: string): Promise<Announcement> {
  requireRole(user, 'draft');
  return readOne(db, uuid);
}

export async function createAnnouncement(
  db: Db,
  rules: AnnouncementRules,
  user: PortalUser,
  input: AnnouncementInput,
): Promise<Announcement> {
  requireRole(user, 'draft');
  return db.transaction(async (tx) => {
    await checkInput(tx, rules, input);
    const { rows } = await tx.query<{ uuid: string }>(
      `insert into announcements (kind, title, body, audience, audience_values, roles, starts_at, ends_at,
                                  created_by, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning uuid`,
      [
        input.kind,
        JSON.stringify(texts(input.title)),
        JSON.stringify(texts(input.body)),
        input.audience,
        input.audienceValues,
        input.roles,
        input.startsAt,
        input.endsAt,
        user.uuid,
      ],
    );
    return readOne(tx, rows[0]!.uuid);
  });
}

/**
 * Changes a draft (SUPPORT_MANAGER and above) or a published announcement before its start (PORTAL_ADMIN: its
 * audience has not heard of it yet); a published one queues its fan-out again for the new start.
 */
export async function updateAnnouncement(
  db: Db,
  jobs: JobRunner,
  rules: AnnouncementRules,
  user: PortalUser,
  uuid: string,
  input: AnnouncementInput,
): Promise<Announcement> {
  requireRole(user, 'draft');
  return db.transaction(async (tx) => {
    const current = await lockOne(tx, uuid);
    if (current.status === 'withdrawn') throw conflict('A withdrawn announcement cannot be changed');
    if (current.status === 'published') {
      requireRole(user, 'publish');
      if (new Date(current.starts_at).getTime() <= Date.now()) {
        throw conflict('The announcement has started: withdraw it and write a new one');
      }
    }
    await checkInput(tx, rules, input);
    // A published one moved to a start in the past reaches its audience at once, as publishing a draft would.
    const published = current.status === 'published';
    await tx.query(
      `update announcements
          set kind = $2, title = $3, body = $4, audience = $5, audience_values = $6, roles = $7, starts_at = $8,
              ends_at = $9, updated_by = $10, updated_at = now(), revision = revision + $11
        where uuid = $1`,
      [
        uuid,
        input.kind,
        JSON.stringify(texts(input.title)),
        JSON.stringify(texts(input.body)),
        input.audience,
        input.audienceValues,
        input.roles,
        input.startsAt,
        input.endsAt,
        user.uuid,
        published ? 1 : 0,
      ],
    );
    if (published) await queueFanout(tx, jobs, uuid, current.revision + 1, input.startsAt);
    return readOne(tx, uuid);
  });
}

function queueFanout(
  tx: Queryable,
  jobs: JobRunner,
  uuid: string,
  revision: number,
  startsAt: string | Date,
) {
  const start = new Date(startsAt);
  return jobs.enqueue(
    'announcements.fanout',
    { announcementUuid: uuid, revision },
    {
      tx,
      runAt: start.getTime() > Date.now() ? start : undefined,
      uniqueKey: `announcement:${uuid}:${revision}`,
    },
  );
}

/** Publishes a draft (PORTAL_ADMIN): its fan-out is queued for its start (now, if it has started). */
export async function publishAnnouncement(
  db: Db,
  jobs: JobRunner,
  user: PortalUser,
  uuid: string,
): Promise<Announcement> {
  requireRole(user, 'publish');
  return db.transaction(async (tx) => {
    const current = await lockOne(tx, uuid);
    if (current.status !== 'draft') throw conflict('Only a draft can be published');
    await tx.query(
      `update announcements set status = 'published', published_by = $2, published_at = now(), updated_at = now()
        where uuid = $1`,
      [uuid, user.uuid],
    );
    await queueFanout(tx, jobs, uuid, current.revision, current.starts_at);
    return readOne(tx, uuid);
  });
}

/** Withdraws an announcement at any time (PORTAL_ADMIN): its notifications leave the inboxes, batch by batch. */
export async function withdrawAnnouncement(
  db: Db,
  jobs: JobRunner,
  user: PortalUser,
  uuid: string,
): Promise<Announcement> {
  requireRole(user, 'publish');
  return db.transaction(async (tx) => {
    const current = await lockOne(tx, uuid);
    if (current.status !== 'published') throw conflict('Only a published announcement can be withdrawn');
    await tx.query(
      `update announcements set status = 'withdrawn', withdrawn_by = $2, withdrawn_at = now(), updated_at = now()
        where uuid = $1`,
      [uuid, user.uuid],
    );
    await jobs.enqueue(
      'announcements.withdraw',
      { announcementUuid: uuid },
      { tx, uniqueKey: `withdraw:${uuid}` },
    );
    return readOne(tx, uuid);
  });
}

/** Deletes a draft (SUPPORT_MANAGER and above); one that was ever published stays, for its counts. */
export async function deleteAnnouncement(db: Db, user: PortalUser, uuid: string): Promise<void> {
  requireRole(user, 'draft');
  await db.transaction(async (tx) => {
    const current = await lockOne(tx, uuid);
    if (current.status !== 'draft') throw conflict('Only a draft can be deleted');
    await tx.query('delete from announcements where uuid = $1', [uuid]);
  });
}

/**
 * The audience's recipients after `$1` up to `$2` (user uuids; null: from the first, to the last), in user uuid
 * order: every accepted member of the matching accounts, or only their owners and admins; `mail_always` when they
 * own one of them and `$6` (maintenance and incident mail owners always).
 */
const RECIPIENTS = `
  select m.user_uuid, $6::boolean and bool_or(m.role = 'OWNER') as mail_always
    from account_members m
    join accounts a on a.uuid = m.account_uuid
    left join subscriptions s on s.account_uuid = a.uuid
   where m.invitation_status = 'ACCEPTED'
     and ($1::uuid is null or m.user_uuid > $1::uuid)
     and ($2::uuid is null or m.user_uuid <= $2::uuid)
     and ($3 <> 'admins' or m.role in ('OWNER', 'ADMIN'))
     and case $4
           when 'all' then true
           when 'plans' then s.plan_code = any($5::text[])
           when 'countries' then a.country = any($5::text[])
           else a.uuid::text = any($5::text[])
         end
   group by m.user_uuid`;

interface FanoutRow {
  kind: Announcement['kind'];
  title: Announcement['title'];
  audience: string;
  audience_values: string[];
  roles: string;
  starts_at: Date | string;
  ends_at: Date | string | null;
  status: string;
  revision: number;
  fanned_out_at: Date | string | null;
}

/** The announcement as a fan-out reads it, locked `for update` (the plan) or `for share` (a batch). */
async function fanoutRow(
  tx: Queryable,
  uuid: string,
  lock: 'update' | 'share',
): Promise<FanoutRow | undefined> {
  const { rows } = await tx.query<FanoutRow>(
    `select kind, title, audience, audience_values, roles, starts_at, ends_at, status, revision, fanned_out_at
       from announcements where uuid = $1 for ${lock}`,
    [uuid],
  );
  return rows[0];
}

/** RECIPIENTS' parameters after the range: roles, audience and its values (account uuids in lower case). */
function audienceValues(a: FanoutRow, mailOwners: boolean): unknown[] {
  return [
    a.roles,
    a.audience,
    a.audience === 'countries' || a.audience === 'plans'
      ? a.audience_values
      : a.audience_values.map((v) => v.toLowerCase()),
    mailOwners,
  ];
}

const batchKey = (uuid: string, revision: number) => `announcement:${uuid}:${revision}:batch:`;

/**
 * Plans a fan-out at the announcement's start, in one short transaction: the audience is cut into ranges of
 * FANOUT_BATCH recipients (by user uuid, one pass over the audience), and every range is queued at once as a job
 * of its own, so the runner writes them as its limit for the kind allows (KIND_LIMITS, decision 251) and before the
 * mails they queue; then the job that marks the announcement fanned out once they are done. A job of an older
 * revision does nothing.
 * Returns how many batches it queued.
 */
export async function planFanout(
  db: Db,
  jobs: JobRunner,
  uuid: string,
  revision: number,
  batch = FANOUT_BATCH,
): Promise<number> {
  return db.transaction(async (tx) => {
    const a = await fanoutRow(tx, uuid, 'update');
    if (!a || a.status !== 'published' || a.revision !== revision || a.fanned_out_at !== null) return 0;
    const { rows } = await tx.query<{ user_uuid: string }>(
      `select user_uuid from (
         select user_uuid, row_number() over (order by user_uuid) as n from (${RECIPIENTS}) r
       ) numbered where n % $7 = 0 order by user_uuid`,
      [null, null, ...audienceValues(a, false), batch],
    );
    // The last range is open at its end: who joins the audience after the plan with a later uuid is in it.
    const bounds = [null, ...rows.map((r) => r.user_uuid), null];
    const key = batchKey(uuid, revision);
    await jobs.enqueueMany(
      'announcements.fanout-batch',
      bounds.slice(1).map((upTo, i) => ({
        payload: { announcementUuid: uuid, revision, after: bounds[i]!, upTo },
        uniqueKey: `${key}${i}`,
      })),
      { tx },
    );
    await jobs.enqueue(
      'announcements.fanout-done',
      { announcementUuid: uuid, revision },
      { tx, uniqueKey: `announcement:${uuid}:${revision}:done` },
    );
    return bounds.length - 1;
  });
}

/**
 * One batch of a fan-out, in its own transaction: its recipients get their notification in one INSERT … SELECT
 * through the notifier (signalled, owners' mails queued in one statement). The announcement is held `for share`:
 * batches run side by side, and a withdrawal waits for the running ones (its removal then takes what they wrote).
 * Idempotent: a batch whose range has the announcement already (it committed, then ran again) writes nothing.
 */
export async function fanOutBatch(
  db: Db,
  notifier: Notifier,
  { announcementUuid: uuid, revision, after, upTo }: JobKinds['announcements.fanout-batch'],
): Promise<void> {
  await db.transaction(async (tx) => {
    const a = await fanoutRow(tx, uuid, 'share');
    if (!a || a.status !== 'published' || a.revision !== revision || a.fanned_out_at !== null) return;
    const { rows: written } = await tx.query(
      `select 1 from notifications
        where type = '${TYPE}' and params ->> 'announcementUuid' = $1
          and ($2::uuid is null or user_uuid > $2::uuid) and ($3::uuid is null or user_uuid <= $3::uuid)
        limit 1`,
      [uuid, after, upTo],
    );
    if (written.length) return;
    const title = Object.fromEntries(LANGUAGES.map((l) => [l, announcementText(a.title, l)])) as Record<
      Language,
      string
    >;
    await notifier.notifySelected(tx, {
      accountUuid: null,
      type: TYPE,
      params: {
        announcementUuid: uuid,
        kind: a.kind,
        title,
        startsAt: iso(a.starts_at),
        endsAt: a.ends_at === null ? null : iso(a.ends_at),
      },
      recipients: {
        sql: RECIPIENTS,
        values: [after, upTo, ...audienceValues(a, URGENT_ANNOUNCEMENT_KINDS.includes(a.kind))],
      },
    });
  });
}

/**
 * Ends a fan-out: waits while its batches run (it is queued after them, so it starts when the last of them have
 * started), then marks the announcement fanned out. A batch that failed for good leaves it unmarked, as its
 * recipients are missing; after FANOUT_DONE_WAIT_MS it queues itself again rather than hold a runner slot.
 */
export async function finishFanout(db: Db, jobs: JobRunner, uuid: string, revision: number): Promise<void> {
  const until = Date.now() + FANOUT_DONE_WAIT_MS;
  for (;;) {
    const { open, failed } = await jobs.outstanding('announcements.fanout-batch', batchKey(uuid, revision));
    if (failed) return;
    if (!open) break;
    if (Date.now() > until) {
      await jobs.enqueue(
        'announcements.fanout-done',
        { announcementUuid: uuid, revision },
        { uniqueKey: `announcement:${uuid}:${revision}:done:${Date.now()}` },
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, FANOUT_DONE_POLL_MS));
  }
  await db.query(
    `update announcements set fanned_out_at = now()
      where uuid = $1 and revision = $2 and status = 'published' and fanned_out_at is null`,
    [uuid, revision],
  );
}

/** One batch of a withdrawal: removes notifications of the announcement and tells their readers' open tabs. */
export async function withdrawBatch(
  db: Db,
  jobs: JobRunner,
  notifier: Notifier,
  uuid: string,
  batch = FANOUT_BATCH,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_uuid: string }>(
      `delete from notifications
        where id in (select id from notifications
                      where type = '${TYPE}' and params ->> 'announcementUuid' = $1 limit $2)
        returning user_uuid`,
      [uuid, batch],
    );
    for (const userUuid of new Set(rows.map((r) => r.user_uuid))) await notifier.changed(tx, userUuid);
    if (rows.length === batch) {
      await jobs.enqueue('announcements.withdraw', { announcementUuid: uuid }, { tx });
    }
  });
}

/**
 * The caller's bar: published maintenance and incident announcements in their window that reached them (their
 * notification exists, so the audience decided once) and that they have not closed.
 */
export async function listCurrentAnnouncements(
  db: Db,
  user: PortalUser,
): Promise<ListPage<CurrentAnnouncement>> {
  const { rows } = await db.query<{
    uuid: string;
    kind: Announcement['kind'];
    title: Announcement['title'];
    starts_at: Date | string;
    ends_at: Date | string | null;
    notification_uuid: string;
  }>(
    `select a.uuid, a.kind, a.title, a.starts_at, a.ends_at, n.uuid as notification_uuid
       from notifications n
       join announcements a on a.uuid::text = n.params ->> 'announcementUuid'
      where n.user_uuid = $1 and n.type = '${TYPE}' and n.archived_at is null
        and a.status = 'published' and a.kind in ('maintenance', 'incident')
        and a.starts_at <= now() and (a.ends_at is null or a.ends_at > now())
        and not exists (select 1 from announcement_dismissals d
                         where d.user_uuid = $1 and d.announcement_uuid = a.uuid)
      order by a.starts_at desc`,
    [user.uuid],
  );
  return wholeList(
    rows.map((row) => ({
      uuid: row.uuid,
      kind: row.kind,
      title: row.title,
      startsAt: iso(row.starts_at),
      endsAt: row.ends_at === null ? null : iso(row.ends_at),
      notificationUuid: row.notification_uuid,
    })),
  );
}

/** Whether the announcement reached the caller (a withdrawn one no longer has notifications). */
async function reached(q: Queryable, user: PortalUser, uuid: string): Promise<boolean> {
  const { rows } = await q.query(
    `select 1 from notifications
      where user_uuid = $1 and type = '${TYPE}' and params ->> 'announcementUuid' = $2 limit 1`,
    [user.uuid, uuid],
  );
  return rows.length > 0;
}

/** Closes the bar of an announcement that reached the caller, for good; 404 for any other. */
export async function dismissAnnouncement(db: Db, user: PortalUser, uuid: string): Promise<void> {
  if (!(await reached(db, user, uuid))) throw notFound('No such announcement');
  await db.query(
    `insert into announcement_dismissals (announcement_uuid, user_uuid) values ($1, $2) on conflict do nothing`,
    [uuid, user.uuid],
  );
}

/** An announcement that reached the caller, with its text as sanitised HTML per language; 404 for any other. */
export async function readAnnouncement(db: Db, user: PortalUser, uuid: string): Promise<AnnouncementReading> {
  if (!(await reached(db, user, uuid))) throw notFound('No such announcement');
  const { rows } = await db.query<{
    kind: Announcement['kind'];
    title: Announcement['title'];
    body: Announcement['body'];
    starts_at: Date | string;
    ends_at: Date | string | null;
  }>(
    `select kind, title, body, starts_at, ends_at from announcements where uuid = $1 and status = 'published'`,
    [uuid],
  );
  const row = rows[0];
  if (!row) throw notFound('No such announcement');
  const html = Object.fromEntries(
    LANGUAGES.map((l) => [l, renderMarkdown(announcementText(row.body, l))]),
  ) as AnnouncementReading['html'];
  return {
    uuid,
    kind: row.kind,
    title: row.title,
    html,
    startsAt: iso(row.starts_at),
    endsAt: row.ends_at === null ? null : iso(row.ends_at),
  };
}
