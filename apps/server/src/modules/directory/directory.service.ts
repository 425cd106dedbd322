// The account directory (decision 229): staff find an account across all accounts and read its summary without
// opening it. Each kind of search runs on an index of its own (decision 230): part of a name or of a member's
// address on a trigram index, a UID, an invoice and a ticket number on exact ones; the hits are the union. Every
// list, searched or not, pages along the name with a keyset cursor (decision 252). What a summary shows follows the
// caller's user role (DIRECTORY_ROLES in the contract).
import {
  DIRECTORY_PAGE_SIZE_MAX,
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
import { statementName, type Queryable } from '../../db/client.ts';
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
  /** What found the account, as bits of MATCH_BITS. */
  kinds: number | null;
  /** A search's count of its hits, in every row. */
  total: string | number;
}

interface DirectoryRow {
  uuid: string;
  /** The unfiltered list's rows only: lower(name), the cursor's key. */
  sort_name?: string;
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
 * What found a hit, one bit per kind in the order the answer lists them (alphabetical). The hits of the branches
 * are grouped by account with `bit_or`, which the database groups by hashing; `array_agg(distinct …)` sorted every
 * hit first (0.5 ms of the 3.6 ms of a search with 1,000 hits, decision 268).
 */
const MATCH_BITS = ['email', 'invoice', 'name', 'ticket', 'uid'] as const satisfies readonly DirectoryMatch[];
const bitOf = (kind: DirectoryMatch) => 1 << MATCH_BITS.indexOf(kind);
const matchesOf = (bits: number): DirectoryMatch[] => MATCH_BITS.filter((_, i) => bits & (1 << i));

/**
 * The live accounts a search names, each with its sort name and what found it: one branch per kind the text can be,
 * each on its index and joined with the account it names. An empty list of branches finds nothing.
 */
function hitsOf(q: string, p: SqlParams): string {
  const search = parseDirectorySearch(q);
  // A hit of a branch other than the name's is the account its row names, when that account is live.
  const account = (column: string, kind: DirectoryMatch) =>
    `select a.uuid, lower(a.name) as sort_name, ${bitOf(kind)} as kind
       from accounts a where a.uuid = ${column} and ${NOT_EXPIRED}`;
  const branches: string[] = [];
  if (search.text) {
    const like = p.contains(search.text);
    branches.push(`select a.uuid, lower(a.name) as sort_name, ${bitOf('name')} as kind from accounts a
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
    return 'select null::uuid as uuid, null::text as sort_name, null::int as kinds where false';
  return `select h.uuid, h.sort_name, bit_or(h.kind) as kinds
            from (${branches.join(' union all ')}) h group by h.uuid, h.sort_name`;
}

/**
 * The summaries of the accounts `a` of one page (uuid, name, country, created_at and available_until; `columns`
 * adds others of theirs), as of the day `day` (a parameter: today in the billing time zone, overdue counts from the
 * day after the due date).
 */
function summaries(accounts: string, day: string, columns = ''): string {
  return `select a.uuid, a.name, a.country, a.created_at, a.available_until, ${columns}
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
    from ${accounts}
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
               cross join lateral (select i.status = 'OVERDUE' or i.due_on < ${day}::date as overdue) x
               where i.account_uuid = a.uuid and i.kind = 'INVOICE' and i.status in ('OPEN', 'OVERDUE')
               group by i.currency) c) inv on true`;
}

/**
 * The summaries of a search's page ($1, its accounts' uuids; $2 the day): one text, kept planned by the database.
 * PostgreSQL keeps one plan for all values only while that plan is estimated to cost no more than the plans it made
 * for the values so far, on average; it counts on ten uuids in an array it does not know, so pages of one account
 * (a UID, a number, an address) were planned anew every time (0.6 ms). The uuids therefore always come as
 * DIRECTORY_PAGE_SIZE_MAX of them, the last repeated (decision 268).
 */
const SEARCH_SUMMARIES = `${summaries('accounts a', '$2')}
   where a.uuid = any($1::uuid[])`;
const summaryKeys = (uuids: string[]) =>
  uuids.concat(
    Array<string>(Math.max(0, DIRECTORY_PAGE_SIZE_MAX - uuids.length)).fill(uuids[uuids.length - 1]!),
  );

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
  const q = query.q ?? '';
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  const after = query.cursor ? decodeNameCursor(query.cursor, 'the directory') : null;
  const today = todayIn(billing.timeZone);
  const toAccount = accountOf(billing, user);
  const cursorOf = (row: { sort_name: string; uuid: string }) =>
    encodeNameCursor({ name: row.sort_name, uuid: row.uuid });
  const from = (p: SqlParams, name: string, uuid: string) =>
    after ? `(${name}, ${uuid}) > (${p.add(after.name)}, ${p.add(after.uuid)}::uuid)` : 'true';

  if (!q.trim()) {
    // Every account: the page (on accounts_name_sort_idx) and its summaries in one statement, the page chosen in a
    // subquery before any summary is computed (a summary beside the sort would be computed for every row sorted).
    // The web's page size (the default) has two texts, with a cursor and without, which the database keeps planned;
    // the page size is written into them, so that the plan counts on a page and not on a tenth of all accounts (the
    // guess for a limit that is a parameter). One round trip instead of two, and no planning (decision 268).
    const p = sqlParams(today);
    const sql = `${summaries(
      `(select a.uuid, a.name, a.country, a.created_at, a.available_until, lower(a.name) as sort_name
          from accounts a
         where ${NOT_EXPIRED} and ${from(p, 'lower(a.name)', 'a.uuid')}
         order by lower(a.name), a.uuid limit ${pageSize + 1}) a`,
      '$1',
      'a.sort_name,',
    )}
     order by a.sort_name, a.uuid`;
    const { rows } = await db.query<DirectoryRow & { sort_name: string }>(
      sql,
      p.values,
      pageSize === DEFAULT_PAGE_SIZE ? { prepare: statementName('portal_directory_page', sql) } : {},
    );
    const page = keysetPage(rows, pageSize, cursorOf);
    return {
      meta: { pageSize, nextCursor: page.nextCursor, total: null },
      data: page.rows.map((row) => toAccount(row, [])),
    };
  }

  // A search: first the page of hits, then the summaries of that page only. The hits are found once for both the
  // page and the total (a statement each found them twice, on two connections), each carrying its sort name, so no
  // hit is read again to sort it (decision 260). The total comes in every row, and in the one row of nulls of a page
  // past the last hit. The hits' statement is planned for its values each time: planned once for all values,
  // PostgreSQL joined every member to find "person…@" (decision 265).
  const p = sqlParams();
  const hits = hitsOf(q, p);
  const read = await db.query<PageRow>(
    `with hits as materialized (${hits})
     select c.total, f.uuid, f.sort_name, f.kinds
       from (select count(*) as total from hits) c
       left join lateral (select * from hits f where ${from(p, 'f.sort_name', 'f.uuid')}
                           order by f.sort_name, f.uuid limit ${p.add(pageSize + 1)}) f on true`,
    p.values,
  );
  const total = Number(read.rows[0]?.total ?? 0);
  const page = keysetPage(
    read.rows.filter((row): row is PageRow & { uuid: string } => row.uuid !== null),
    pageSize,
    cursorOf,
  );
  const { rows } = page.rows.length
    ? await db.query<DirectoryRow>(
        SEARCH_SUMMARIES,
        [summaryKeys(page.rows.map((row) => row.uuid)), today],
        // The same text for every page: the database keeps it planned (decisions 254, 257).
        { prepare: 'portal_directory_summaries' },
      )
    : { rows: [] };
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  return {
    meta: { pageSize, nextCursor: page.nextCursor, total },
    data: page.rows.flatMap(({ uuid, kinds }) => {
      const row = byUuid.get(uuid);
      return row ? [toAccount(row, matchesOf(kinds ?? 0))] : [];
    }),
  };
}

/** A row of summaries as the directory answers it to `user`, what the role may not see left out. */
function accountOf(billing: BillingConfig, user: PortalUser) {
  const seesEmail = maySeeInDirectory(user.userRole, 'ownerEmail');
  const seesAmounts = maySeeInDirectory(user.userRole, 'invoiceAmounts');
  return (row: DirectoryRow, matchedBy: DirectoryMatch[]): DirectoryAccount => {
    const overdueCount = Number(row.overdue_count);
    const status: SubscriptionStatus | null =
      row.subscription_status === 'ACTIVE' && overdueCount > 0 ? 'PAST_DUE' : row.subscription_status;
    return {
      uuid: row.uuid,
      name: row.name,
      country: row.country,
      uid: row.uid,
      createdAt: iso(row.created_at),
      matchedBy,
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
  };
}

/** The owner as the caller may see them: the name always, the address from SUPPORT_AGENT on. */
function ownerOf(row: DirectoryRow, seesEmail: boolean): DirectoryAccount['owner'] {
  if (!seesEmail) return { name: row.owner_name ?? '' };
  return { name: row.owner_name || row.owner_email || '', email: row.owner_email ?? '' };
}
