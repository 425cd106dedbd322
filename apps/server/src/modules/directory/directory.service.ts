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
  /** Null only in the one row of a search's page past its last hit (it carries the total). */
  uuid: string | null;
  /** lower(name): the key the list is sorted by, as the database computes it (the cursor carries it). */
  sort_name: string;
  kinds: DirectoryMatch[] | null;
  /** A search's count of its hits, in every row; null for the unfiltered list. */
  total: string | number | null;
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
 * The live accounts a search names, each with its sort name and what found it: one branch per kind the text can be,
 * each on its index and joined with the account it names. Null for an empty search (every account); an empty list of
 * branches finds nothing.
 */
function hitsOf(q: string, p: SqlParams): string | null {
  if (!q.trim()) return null;
  const search = parseDirectorySearch(q);
  // A hit of a branch other than the name's is the account its row names, when that account is live.
  const account = (column: string, kind: string) =>
    `select a.uuid, lower(a.name) as sort_name, '${kind}' as kind
       from accounts a where a.uuid = ${column} and ${NOT_EXPIRED}`;
  const branches: string[] = [];
  if (search.text) {
    const like = p.contains(search.text);
    branches.push(`select a.uuid, lower(a.name) as sort_name, 'name' as kind from accounts a
       where lower(a.name) like ${like} and ${NOT_EXPIRED}`);
    // A whole address finds that person only (owner@ is no part of newowner@); a part of one, every address with it.
    const email = isEmailAddress(search.text) ? `= ${p.add(search.text)}` : `like ${like}`;
    branches.push(`select h.* from users u
        join account_members m on m.user_uuid = u.uuid and m.invitation_status = 'ACCEPTED'
        cross join lateral (${account('m.account_uuid', 'email')}) h
       where lower(u.email) ${email}`);
  }
  if (search.uid)
    branches.push(`select h.* from company_profiles x cross join lateral (${account('x.account_uuid', 'uid')}) h
       where x.uid = ${p.add(search.uid)}`);
  if (search.invoice)
    branches.push(`select h.* from invoices x cross join lateral (${account('x.account_uuid', 'invoice')}) h
       where x.number = ${p.add(search.invoice)}`);
  if (search.ticket !== null)
    branches.push(`select h.* from support_tickets x
        cross join lateral (${account('x.account_uuid', 'ticket')}) h
       where x.number = ${p.add(search.ticket)}`);
  if (!branches.length)
    return 'select null::uuid as uuid, null::text as sort_name, null::text[] as kinds where false';
  return `select h.uuid, h.sort_name, array_agg(distinct h.kind) as kinds
            from (${branches.join(' union all ')}) h group by h.uuid, h.sort_name`;
}

/**
 * The summaries of a page's accounts ($1), as of today in the billing time zone ($2: overdue counts from the day
 * after the due date). One text for every page, kept planned by the database.
 */
const SUMMARIES = `select a.uuid, a.name, a.country, a.created_at, a.available_until,
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
               cross join lateral (select i.status = 'OVERDUE' or i.due_on < $2::date as overdue) x
               where i.account_uuid = a.uuid and i.kind = 'INVOICE' and i.status in ('OPEN', 'OVERDUE')
               group by i.currency) c) inv on true
   where a.uuid = any($1::uuid[])`;

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
  const after = query.cursor ? decodeNameCursor(query.cursor, 'the directory') : null;
  const from = (name: string, uuid: string) =>
    after ? `(${name}, ${uuid}) > (${p.add(after.name)}, ${p.add(after.uuid)}::uuid)` : 'true';
  // First the page of accounts (the filter and the order, on indexes), then the summaries of that page only: a
  // summary computed in the same statement would be computed for every row sorted, not for 25. A search finds its
  // hits once for both its page and its total (a statement each found them twice, on two connections), carrying
  // each hit's sort name, so no hit is read again to sort it (decision 260). The total comes in every row, and in
  // the one row of nulls of a page past the last hit.
  const read = await db.query<PageRow>(
    hits
      ? `with hits as materialized (${hits})
         select c.total, f.uuid, f.sort_name, f.kinds
           from (select count(*) as total from hits) c
           left join lateral (select * from hits f where ${from('f.sort_name', 'f.uuid')}
                               order by f.sort_name, f.uuid limit ${p.add(pageSize + 1)}) f on true`
      : `select null as total, a.uuid, lower(a.name) as sort_name, null as kinds from accounts a
          where ${NOT_EXPIRED} and ${from('lower(a.name)', 'a.uuid')}
          order by lower(a.name), a.uuid limit ${p.add(pageSize + 1)}`,
    p.values,
  );
  const total = read.rows[0]?.total ?? null;
  const page = keysetPage(
    read.rows.filter((row): row is PageRow & { uuid: string } => row.uuid !== null),
    pageSize,
    (row) => encodeNameCursor({ name: row.sort_name, uuid: row.uuid }),
  );
  const { rows } = page.rows.length
    ? await db.query<DirectoryRow>(
        SUMMARIES,
        [page.rows.map((row) => row.uuid), todayIn(billing.timeZone)],
        // The same text for every page: the database keeps it planned (decisions 254, 257).
        { prepare: 'portal_directory_summaries' },
      )
    : { rows: [] };
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const seesEmail = maySeeInDirectory(user.userRole, 'ownerEmail');
  const seesAmounts = maySeeInDirectory(user.userRole, 'invoiceAmounts');
  return {
    meta: {
      pageSize,
      nextCursor: page.nextCursor,
      total: total === null ? null : Number(total),
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
