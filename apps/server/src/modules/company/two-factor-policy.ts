import {
  TWO_FACTOR_GRACE_DEFAULT,
  TWO_FACTOR_PREVIEW_PAGE_SIZE,
  type MemberWithoutSecondFactor,
  type TwoFactorPolicy,
  type TwoFactorPreviewQuery,
  type UpdateTwoFactorPolicyBody,
} from '@portal/contract';
import { enrolledSecondFactorSql, identityOfUserSql } from '../../access/two-factor.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { listPage, pageOf, sqlParams, type ListPage } from '../../db/paging.ts';
import { iso } from '../../db/iso.ts';
import { conflict } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';

// The account's rule that its members use a second factor (company profile, switched by the owner). The check
// itself runs on every area route of the account (access/two-factor.ts); this file keeps the rule, tells the
// members who have none yet, and reminds them during the grace period.

const DAY_MS = 86_400_000;

/** Reminders during the grace period: this long before its end, once per member and step. */
export const REMINDER_STEPS = [
  { step: '3d', before: '3 days' },
  { step: '1d', before: '1 day' },
] as const;

interface PolicyRow {
  enabled: boolean;
  enabled_at: Date | null;
  grace_days: number;
  grace_until: Date | null;
  enabled_by_name: string | null;
  enabled_by_email: string | null;
}

/** Accepted members of account $1 without a second factor (the users row is `u`, the membership `m`). */
const MEMBERS_WITHOUT = `from account_members m join users u on u.uuid = m.user_uuid
  where m.account_uuid = $1 and m.invitation_status = 'ACCEPTED'
    and not ${enrolledSecondFactorSql(identityOfUserSql('u'))}`;

async function readPolicy(q: Queryable, accountUuid: string, lock = false): Promise<PolicyRow | undefined> {
  const { rows } = await q.query<PolicyRow>(
    `select p.enabled, p.enabled_at, p.grace_days, p.grace_until, u.name as enabled_by_name,
            u.email as enabled_by_email
       from account_two_factor_policies p left join users u on u.uuid = p.enabled_by
      where p.account_uuid = $1${lock ? ' for update of p' : ''}`,
    [accountUuid],
  );
  return rows[0];
}

async function countWithout(q: Queryable, accountUuid: string): Promise<number> {
  const { rows } = await q.query<{ n: string }>(`select count(*) as n ${MEMBERS_WITHOUT}`, [accountUuid]);
  return Number(rows[0]?.n ?? 0);
}

async function toPolicy(q: Queryable, accountUuid: string, embedded: boolean): Promise<TwoFactorPolicy> {
  const row = await readPolicy(q, accountUuid);
  const enabled = row?.enabled ?? false;
  return {
    enabled,
    enabledAt: enabled && row?.enabled_at ? iso(row.enabled_at) : null,
    enabledBy:
      enabled && row?.enabled_by_email
        ? { name: row.enabled_by_name ?? '', email: row.enabled_by_email }
        : null,
    graceDays: row?.grace_days ?? TWO_FACTOR_GRACE_DEFAULT,
    graceUntil: enabled && row?.grace_until ? iso(row.grace_until) : null,
    provider: embedded ? 'embedded' : 'external',
    membersWithout: embedded ? await countWithout(q, accountUuid) : null,
  };
}

export function getTwoFactorPolicy(db: Db, access: AccountAccess, embedded: boolean) {
  return toPolicy(db, access.accountUuid, embedded);
}

/** The members the rule would remind, by name; only the embedded sign-in service knows who has a second factor. */
export async function membersWithoutSecondFactor(
  db: Db,
  access: AccountAccess,
  query: TwoFactorPreviewQuery,
  embedded: boolean,
): Promise<ListPage<MemberWithoutSecondFactor>> {
  if (!embedded) {
    throw conflict(
      'With an external identity provider the portal cannot tell in advance who has a second factor; it is checked at sign-in',
    );
  }
  const paging = pageOf(query, TWO_FACTOR_PREVIEW_PAGE_SIZE);
  const p = sqlParams(access.accountUuid);
  const { rows } = await db.query<MemberWithoutSecondFactor>(
    `select u.uuid as "userUuid", u.name, u.email, m.role ${MEMBERS_WITHOUT}
      order by lower(case when u.name = '' then u.email else u.name end), u.uuid
      limit ${p.add(paging.limit)} offset ${p.add(paging.offset)}`,
    p.values,
  );
  return listPage(rows, await countWithout(db, access.accountUuid), paging);
}

const shown = (row: PolicyRow | undefined) =>
  row?.enabled
    ? { enabled: true, graceDays: row.grace_days, graceUntil: row.grace_until ? iso(row.grace_until) : null }
    : { enabled: false };

/**
 * Switches the rule on (with a grace period) or off. Switching on tells every member without a second factor at
 * once, in the inbox and by mail; with an external provider the portal cannot tell who has one, so it tells every
 * member but the owner. Changing only the grace period of a rule that is on moves its end from the day it was
 * switched on, and tells nobody again. Nobody is ever removed from the account.
 */
export async function updateTwoFactorPolicy(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  body: UpdateTwoFactorPolicyBody,
  embedded: boolean,
): Promise<TwoFactorPolicy> {
  return db.transaction(async (tx) => {
    await tx.query('select 1 from accounts where uuid = $1 for update', [access.accountUuid]);
    const before = await readPolicy(tx, access.accountUuid, true);
    const graceDays = body.graceDays ?? before?.grace_days ?? TWO_FACTOR_GRACE_DEFAULT;
    const switchedOn = body.enabled && !before?.enabled;
    if (!body.enabled) {
      await tx.query(
        `insert into account_two_factor_policies (account_uuid, enabled, grace_days)
         values ($1, false, $2)
         on conflict (account_uuid) do update
            set enabled = false, enabled_at = null, enabled_by = null, grace_until = null, grace_days = $2,
                updated_at = now()`,
        [access.accountUuid, graceDays],
      );
    } else if (switchedOn) {
      await tx.query(
        `insert into account_two_factor_policies
                (account_uuid, enabled, enabled_at, enabled_by, grace_days, grace_until)
         values ($1, true, now(), $2, $3, now() + $4::interval)
         on conflict (account_uuid) do update
            set enabled = true, enabled_at = now(), enabled_by = $2, grace_days = $3,
                grace_until = now() + $4::interval, updated_at = now()`,
        [access.accountUuid, user.uuid, graceDays, `${graceDays} days`],
      );
    } else {
      await tx.query(
        `update account_two_factor_policies
            set grace_days = $2, grace_until = enabled_at + $3::interval, updated_at = now()
          where account_uuid = $1`,
        [access.accountUuid, graceDays, `${graceDays} days`],
      );
    }
    const after = await readPolicy(tx, access.accountUuid);
    if (switchedOn) await tellMembers(tx, notifier, user, access.accountUuid, after!, embedded);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'company.two_factor_policy',
      target: `account:${access.accountUuid}`,
      before: shown(before),
      after: shown(after),
    });
    return toPolicy(tx, access.accountUuid, embedded);
  });
}

/** The switch-on notice: to members without a second factor (embedded), or to every member but the owner. */
async function tellMembers(
  tx: Queryable,
  notifier: Notifier,
  user: PortalUser,
  accountUuid: string,
  policy: PolicyRow,
  embedded: boolean,
) {
  const { rows } = embedded
    ? await tx.query<{ uuid: string; name: string }>(
        `select u.uuid, (select name from accounts where uuid = $1) as name ${MEMBERS_WITHOUT}`,
        [accountUuid],
      )
    : await tx.query<{ uuid: string; name: string }>(
        `select m.user_uuid as uuid, a.name from accounts a join account_members m on m.account_uuid = a.uuid
          where a.uuid = $1 and m.invitation_status = 'ACCEPTED' and m.user_uuid <> $2`,
        [accountUuid, user.uuid],
      );
  if (!rows.length) return;
  const graceUntil = policy.grace_until!;
  await tx.query(
    `insert into two_factor_reminders (account_uuid, user_uuid, grace_until, step)
     select $1, unnest($2::uuid[]), $3, 'start' on conflict do nothing`,
    [accountUuid, rows.map((row) => row.uuid), graceUntil],
  );
  await notifier.notify(tx, {
    accountUuid,
    userUuids: rows.map((row) => row.uuid),
    type: 'account.two_factor_required',
    params: { accountName: rows[0]!.name, graceUntil: iso(graceUntil) },
  });
}

/**
 * The reminders that are due: during each grace period, members still without a second factor hear again 3 days
 * and 1 day before its end (a step that falls before the rule was switched on is skipped). A table of sent
 * reminders makes this idempotent per member, grace period and step, however often and on however many instances
 * it runs. Only the embedded sign-in service knows who has a second factor; otherwise there is nothing to do.
 */
export async function remindTwoFactor(db: Db, notifier: Notifier, embedded: boolean): Promise<number> {
  if (!embedded) return 0;
  return db.transaction(async (tx) => {
    const steps = REMINDER_STEPS.map((s) => `('${s.step}', interval '${s.before}')`).join(', ');
    const { rows } = await tx.query<{
      account_uuid: string;
      user_uuid: string;
      grace_until: Date;
      name: string;
    }>(
      `with due as (
         select p.account_uuid, m.user_uuid, p.grace_until, s.step
           from account_two_factor_policies p
           cross join (values ${steps}) as s (step, before)
           join account_members m on m.account_uuid = p.account_uuid and m.invitation_status = 'ACCEPTED'
           join users u on u.uuid = m.user_uuid
          where p.enabled and p.grace_until > now() and now() >= p.grace_until - s.before
            and p.enabled_at < p.grace_until - s.before
            and not ${enrolledSecondFactorSql(identityOfUserSql('u'))}
       ), sent as (
         insert into two_factor_reminders (account_uuid, user_uuid, grace_until, step)
         select account_uuid, user_uuid, grace_until, step from due
         on conflict do nothing
         returning account_uuid, user_uuid, grace_until
       )
       select distinct s.account_uuid, s.user_uuid, s.grace_until, a.name
         from sent s join accounts a on a.uuid = s.account_uuid`,
    );
    const byAccount = new Map<string, { name: string; graceUntil: Date; users: string[] }>();
    for (const row of rows) {
      const entry = byAccount.get(row.account_uuid) ?? {
        name: row.name,
        graceUntil: row.grace_until,
        users: [],
      };
      entry.users.push(row.user_uuid);
      byAccount.set(row.account_uuid, entry);
    }
    await notifier.notifyMany(
      tx,
      [...byAccount].map(([accountUuid, entry]) => ({
        accountUuid,
        userUuids: entry.users,
        type: 'account.two_factor_required' as const,
        params: { accountName: entry.name, graceUntil: iso(entry.graceUntil) },
      })),
    );
    return rows.length;
  });
}

/** How often the reminders are looked for: each step is sent within this long of falling due. */
export const REMINDER_EVERY_MS = DAY_MS / 24;
