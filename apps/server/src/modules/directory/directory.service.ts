// The account directory (decision 229): staff find an account across all accounts and read its summary without
// opening it. Each kind of search runs on an index of its own (decision 230): part of a name or of a member's
// address on a trigram index, a UID, an invoice and a ticket number on exact ones; the hits are the union. Every
// list, searched or not, pages along the name with a keyset cursor (decision 252). What a summary shows follows the
// caller's user role (DIRECTORY_ROLES in the contract).
import {
  isEmailAddress,
  maySeeInDirectory,
  parseDirectorySearch,
  type DirectoryAccount,
  type DirectoryList,
  type DirectoryMatch,
  type DirectoryQuery,
  type SubscriptionStatus,
} from '@portal/contract';
import { NOT_EXPIRED, STAFF_CONSENT, staffMayOpen } from '../../access/accounts.ts';
import type { BillingConfig } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import {
  DEFAULT_PAGE_SIZE,
  decodeNameCursor,
  encodeNameCursor,
  keysetPage,
  sqlParams,
  type SqlParams,
} from '../../db/paging.ts';
import { forbidden } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { todayIn } from '../../invoicing/money.ts';
import { findPlan } from '../../invoicing/plans.ts';

interface PageRow {
  uuid: string;
  /** lower(name): the key the list is sorted by, as the database computes it (the cursor carries it). */
  sort_name: string;
  kinds: DirectoryMatch[] | null;
}

interface DirectoryRow {
  uuid: string;
  name: string;
  country: string;
  uid: string | null;
  created_at: Date;
  available_until: Date | null;
  plan_code: string | null;
  subscription_status: 'TRIALING' | 'ACTIVE' | 'CANCELLED' | null;
  cancel_at_period_end: boolean | null;
  current_period_end: string | null;
  members_count: string | number;
  owner_name: string | null;
  owner_email: string | null;
  open_count: string | number;
  overdue_count: string | number;
  amounts: { currency: 'CHF' | 'EUR'; openMinor: number; overdueMinor: number }[];
  open_tickets: string | number;
  two_factor: boolean | null;
  two_factor_grace_until: Date | null;
  consented: boolean;
}

/** Refuses (403) a caller below the directory's role: customers never learn whether an account exists. */
function requireDirectory(user: PortalUser): void {
  if (!maySeeInDirectory(user.userRole, 'search'))
    throw forbidden('The account directory is for support staff');
}

/**
 * The accounts a search names, each with what found it: one branch per kind the text can be, each on its index.
 * Null for an empty search (every account); an empty list of branches finds nothing.
 */
function hitsOf(q: string, p: SqlParams): string | null {
  if (!q.trim()) return null;
  const search = parseDirectorySearch(q);
  const branches: string[] = [];
  if (search.text) {
    const like = p.contains(search.text);
    branches.push(`select a.uuid, 'name' as kind from accounts a where lower(a.name) like ${like}`);
    // A whole address finds that person only (owner@ is no part of newowner@); a part of one, every address with it.
    const email = isEmailAddress(search.text) ? `= ${p.add(search.text)}` : `like ${like}`;
    branches.push(`select m.account_uuid, 'email' from users u
        join account_members m on m.user_uuid = u.uuid and m.invitation_status = 'ACCEPTED'
       where lower(u.email) ${email}`);
  }
  if (search.uid)
    branches.push(`select p.account_uuid, 'uid' from company_profiles p where p.uid = ${p.add(search.uid)}`);
  if (search.invoice)
    branches.push(
      `select i.account_uuid, 'invoice' from invoices i where i.number = ${p.add(search.invoice)}`,
    );
  if (search.ticket !== null)
    branches.push(
      `select t.account_uuid, 'ticket' from support_tickets t where t.number = ${p.add(search.ticket)}`,
    );
  if (!branches.length) return 'select null::uuid as uuid, null::text[] as kinds where false';
  return `select h.uuid, array_agg(distinct h.kind) as kinds from (${branches.join(' union all ')}) h group by h.uuid`;
}

/**
 * Every account, or those the search finds, by name; each with its summary as the caller's role may see it. Pages
 * follow the name (lower(name), then uuid, on accounts_name_sort_idx) from the cursor on, so a page deep in the
 * unfiltered list costs what the first does (an offset read and dropped every row before it), and accounts created
 * meanwhile neither repeat nor skip one. A search's total counts its hits; the unfiltered list is not counted.
 */
export async function searchDirectory(
  db: Queryable,
  billing: BillingConfig,
  user: PortalUser,
  query: DirectoryQuery,
): Promise<DirectoryList> {
  requireDirectory(user);
  const p = sqlParams();
  const hits = hitsOf(query.q ?? '', p);
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  // First the page of accounts (the filter and the order, on indexes), then the summaries of that page only: a
  // summary computed in the same statement would be computed for every row sorted, not for 25.
  const source = hits ? `(${hits}) f join accounts a on a.uuid = f.uuid` : 'accounts a';
  const count = hits ? `select count(*) as total from ${source} where ${NOT_EXPIRED}` : null;
  const countValues = p.copy().values;
  const where = [NOT_EXPIRED];
  if (query.cursor) {
    const after = decodeNameCursor(query.cursor, 'the directory');
    where.push(`(lower(a.name), a.uuid) > (${p.add(after.name)}, ${p.add(after.uuid)}::uuid)`);
  }
  // Today in the billing time zone, written into the statement: the count shares the values of `p` and takes no
  // more (a day is digits and dashes, nothing a caller chose).
  const today = `'${/^\d{4}-\d\d-\d\d$/.exec(todayIn(billing.timeZone))![0]}'`;
  const sql = `select a.uuid, a.name, a.country, a.created_at, a.available_until,
        cp.uid, s.plan_code, s.status as subscription_status, s.cancel_at_period_end,
        to_char(s.current_period_end, 'YYYY-MM-DD') as current_period_end,
        (select count(*) from account_members m
          where m.account_uuid = a.uuid and m.invitation_status = 'ACCEPTED') as members_count,
        o.name as owner_name, o.email as owner_email,
        inv.open_count, inv.overdue_count, inv.amounts,
        (select count(*) from support_tickets t
          where t.account_uuid = a.uuid and t.status not in ('SOLVED', 'CLOSED')) as open_tickets,
        tf.enabled as two_factor, tf.grace_until as two_factor_grace_until,
        ${STAFF_CONSENT} as consented
      from accounts a
      left join company_profiles cp on cp.account_uuid = a.uuid
      left join subscriptions s on s.account_uuid = a.uuid
      left join account_two_factor_policies tf on tf.account_uuid = a.uuid
      left join lateral (select u.name, u.email from account_members m join users u on u.uuid = m.user_uuid
                          where m.account_uuid = a.uuid and m.role = 'OWNER' and m.invitation_status = 'ACCEPTED'
                          limit 1) o on true
      left join lateral (
        select coalesce(sum(c.open_count), 0) as open_count, coalesce(sum(c.overdue_count), 0) as overdue_count,
               coalesce(json_agg(json_build_object('currency', c.currency, 'openMinor', c.open_minor,
                                                   'overdueMinor', c.overdue_minor) order by c.currency), '[]')
                 as amounts
          from (select i.currency, count(*) as open_count, count(*) filter (where x.overdue) as overdue_count,
                       sum(i.total_minor - i.paid_minor) as open_minor,
                       coalesce(sum(i.total_minor - i.paid_minor) filter (where x.overdue), 0) as overdue_minor
                  from invoices i
                 cross join lateral (select i.status = 'OVERDUE' or i.due_on < ${today}::date as overdue) x
                 where i.account_uuid = a.uuid and i.kind = 'INVOICE' and i.status in ('OPEN', 'OVERDUE')
                 group by i.currency) c) inv on true
     where a.uuid = any($1::uuid[])`;

  const seesEmail = maySeeInDirectory(user.userRole, 'ownerEmail');
  const seesAmounts = maySeeInDirectory(user.userRole, 'invoiceAmounts');
  const [read, counted] = await Promise.all([
    db.query<PageRow>(
      `select a.uuid, lower(a.name) as sort_name, ${hits ? 'f.kinds' : 'null as kinds'} from ${source}
        where ${where.join(' and ')} order by lower(a.name), a.uuid limit ${p.add(pageSize + 1)}`,
      p.values,
    ),
    count ? db.query<{ total: string | number }>(count, countValues) : null,
  ]);
  const page = keysetPage(read.rows, pageSize, (row) =>
    encodeNameCursor({ name: row.sort_name, uuid: row.uuid }),
  );
  const { rows } = page.rows.length
    ? await db.query<DirectoryRow>(sql, [page.rows.map((row) => row.uuid)])
    : { rows: [] };
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  return {
    meta: {
      pageSize,
      nextCursor: page.nextCursor,
      total: counted ? Number(counted.rows[0]?.total ?? 0) : null,
    },
    data: page.rows.flatMap(({ uuid, kinds }) => {
      const row = byUuid.get(uuid);
      if (!row) return [];
      const overdueCount = Number(row.overdue_count);
      const status: SubscriptionStatus | null =
        row.subscription_status === 'ACTIVE' && overdueCount > 0 ? 'PAST_DUE' : row.subscription_status;
      return {
        uuid: row.uuid,
        name: row.name,
        country: row.country,
        uid: row.uid,
        createdAt: iso(row.created_at),
        matchedBy: kinds ?? [],
        subscription:
          row.plan_code && status
            ? {
                planCode: row.plan_code,
                planName: findPlan(billing.plans, row.plan_code)?.name ?? row.plan_code,
                status,
                cancelAtPeriodEnd: Boolean(row.cancel_at_period_end),
                currentPeriodEnd: row.current_period_end!,
              }
            : null,
        membersCount: Number(row.members_count),
        owner: row.owner_name !== null ? ownerOf(row, seesEmail) : null,
        invoices: {
          openCount: Number(row.open_count),
          overdueCount,
          ...(seesAmounts
            ? {
                amounts: row.amounts.map((a) => ({
                  currency: a.currency,
                  openMinor: Number(a.openMinor),
                  overdueMinor: Number(a.overdueMinor),
                })),
              }
            : {}),
        },
        openTickets: Number(row.open_tickets),
        availableUntil: row.available_until ? iso(row.available_until) : null,
        twoFactor: {
          required: Boolean(row.two_factor),
          graceUntil: row.two_factor && row.two_factor_grace_until ? iso(row.two_factor_grace_until) : null,
        },
        mayOpen: staffMayOpen(user.userRole, row.consented),
      } satisfies DirectoryAccount;
    }),
  };
}

/** The owner as the caller may see them: the name always, the address from SUPPORT_AGENT on. */
function ownerOf(row: DirectoryRow, seesEmail: boolean): DirectoryAccount['owner'] {
  if (!seesEmail) return { name: row.owner_name ?? '' };
  return { name: row.owner_name || row.owner_email || '', email: row.owner_email ?? '' };
}
