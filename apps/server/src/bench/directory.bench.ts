/**
 * The account directory at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): 100,000 accounts (BENCH_DIRECTORY_ACCOUNTS to change it), generated here with generate_series, each
 * with an owner and a member, a company profile with a UID, a subscription and an open invoice, every fifth with an
 * open ticket. Measures, through the real app (authentication, the staff check, the union of index searches, the
 * summaries of one page, serialisation), the typical searches of a support agent: p50 and p99 over 200 requests each
 * (target p99 ≤ 20 ms). Every account is paged along the name with a cursor (decision 252): page 100 is the cursor
 * after 99 pages of 25.
 */
import { formatInvoiceNumber } from '@portal/contract';
import { TestApi } from '../test/api.ts';
import { settle, timed } from './logs.bench.ts';

const ACCOUNTS = Number(process.env.BENCH_DIRECTORY_ACCOUNTS ?? 100_000);

export interface DirectoryFigures {
  accounts: number;
  searches: Record<string, { p50: number; p99: number }>;
}

/** The digits of the UID of account `a.n`: 8 from n, then the check digit (none when it would be 10). */
const UID_DIGITS = `cross join lateral (select lpad((10000000 + a.n)::text, 8, '0') as b) x
  cross join lateral (select (11 - (5 * substr(b, 1, 1)::int + 4 * substr(b, 2, 1)::int + 3 * substr(b, 3, 1)::int
      + 2 * substr(b, 4, 1)::int + 7 * substr(b, 5, 1)::int + 6 * substr(b, 6, 1)::int
      + 5 * substr(b, 7, 1)::int + 4 * substr(b, 8, 1)::int) % 11) % 11 as check_digit) c`;

export async function measureDirectory(): Promise<DirectoryFigures> {
  const api = new TestApi('postgres');
  await api.start();
  try {
    const words = `array['Alpen', 'Berg', 'Fluss', 'Garten', 'Holz', 'Licht', 'Stein', 'Wald', 'See', 'Tal']`;
    const forms = `array['AG', 'GmbH', 'Sàrl', 'SA', 'KlG']`;
    await api.db.query(
      `insert into users (uuid, subject, email, name, email_verified)
       select gen_random_uuid(), 'bench-' || g, 'person' || g || '@bench' || (g % 97) || '.example', 'Person ' || g, true
         from generate_series(1, ${ACCOUNTS * 2}) g`,
    );
    await api.db.query(
      `insert into accounts (uuid, name, country, created_at)
       select gen_random_uuid(),
              (${words})[1 + g % 10] || (${words})[1 + (g / 10) % 10] || ' ' || g || ' ' || (${forms})[1 + g % 5],
              (array['CH', 'CH', 'CH', 'DE', 'AT', 'FR', 'IT'])[1 + g % 7], now() - (g || ' minutes')::interval
         from generate_series(1, ${ACCOUNTS}) g`,
    );
    // Accounts and people numbered alike: account n has people 2n-1 (owner) and 2n (employee).
    await api.db.query(`create temporary table bench_accounts as
      select uuid, row_number() over (order by created_at desc) as n from accounts where name ~ ' [0-9]+ '`);
    await api.db.query(`create temporary table bench_users as
      select uuid, substr(subject, 7)::int as n from users where subject like 'bench-%'`);
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role)
       select a.uuid, u.uuid, case when u.n % 2 = 1 then 'OWNER' else 'EMPLOYEE' end
         from bench_accounts a join bench_users u on (u.n + 1) / 2 = a.n`,
    );
    await api.db.query(
      `insert into company_profiles (account_uuid, uid)
       select a.uuid, case when c.check_digit < 10 then
                'CHE-' || substr(b, 1, 3) || '.' || substr(b, 4, 3) || '.' || substr(b, 7, 2) || c.check_digit end
         from bench_accounts a ${UID_DIGITS}`,
    );
    await api.db.query(
      `insert into subscriptions (account_uuid, plan_code, billing_period, currency, seats, status,
         current_period_start, current_period_end, billing_anchor_day)
       select a.uuid, (array['FREE', 'STANDARD', 'PROFESSIONAL'])[1 + a.n % 3], 'MONTHLY', 'CHF', 5,
              (array['ACTIVE', 'ACTIVE', 'TRIALING', 'CANCELLED'])[1 + a.n % 4],
              current_date - 10, current_date + 20, 1
         from bench_accounts a`,
    );
    // One unpaid invoice each (a copy of a seeded one), numbered in a year of its own; every seventh overdue.
    await api.db.query(
      `insert into invoices (uuid, account_uuid, number, year, sequence, kind, reason, status, currency, issued_on,
         due_on, period_start, period_end, lines, totals, net_minor, vat_minor, total_minor, paid_minor, reference,
         billed_to, source_key)
       select gen_random_uuid(), a.uuid, '1901-' || lpad(a.n::text, 6, '0'), 1901, a.n, 'INVOICE', 'PERIOD',
              case when a.n % 7 = 0 then 'OVERDUE' else 'OPEN' end, 'CHF',
              current_date - 40, current_date - 10 + (a.n % 30)::int, current_date - 40, current_date - 10,
              t.lines, t.totals, t.net_minor, t.vat_minor, t.total_minor, 0, 'RF-DIR-' || a.n, t.billed_to, 'bench'
         from bench_accounts a,
              (select lines, totals, net_minor, vat_minor, total_minor, billed_to from invoices
                order by issued_on limit 1) t`,
    );
    await api.db.query(
      `insert into support_tickets (account_uuid, category, severity, subject, status)
       select a.uuid, 'TECHNICAL', 'NORMAL', 'Bench ' || a.n, 'OPEN' from bench_accounts a where a.n % 5 = 0`,
    );
    await settle(api, 'vacuum analyze');
    const { rows } = await api.db.query<{ number: string; uid: string }>(
      `select t.number::text, p.uid from support_tickets t join company_profiles p on p.account_uuid = t.account_uuid
        where t.subject = 'Bench ' || ${Math.floor(ACCOUNTS / 2 / 5) * 5}`,
    );
    const middle = Math.floor(ACCOUNTS / 2 / 5) * 5;
    const base = '/api/directory/v1/accounts';
    const search = (q: string) => `${base}?q=${encodeURIComponent(q)}`;
    // Page 100 of every account: the cursor after 99 pages of 25, followed once as staff paging on would.
    let cursor: string | null = null;
    for (let page = 1; page < 100; page += 1) {
      const res = await api.request('GET', cursor ? `${base}?cursor=${cursor}` : base, { as: 'agent' });
      cursor = res.json<{ meta: { nextCursor: string | null } }>().meta.nextCursor;
    }
    return {
      accounts: ACCOUNTS,
      searches: {
        'every account, first page': await timed(api, base, 'agent'),
        'every account, page 100': await timed(api, `${base}?cursor=${cursor!}`, 'agent'),
        'UID, with spaces': await timed(api, search(rows[0]!.uid.replace(/[-.]/g, ' ')), 'agent'),
        'name part (one hit)': await timed(api, search(`${middle} AG`), 'agent'),
        'name part (1,000 hits)': await timed(api, search('AlpenBerg'), 'agent'),
        'whole address': await timed(
          api,
          search(`person${middle * 2}@bench${(middle * 2) % 97}.example`),
          'agent',
        ),
        'part of an address': await timed(api, search(`person${middle * 2}@`), 'agent'),
        'invoice number': await timed(api, search(formatInvoiceNumber(1901, middle)), 'agent'),
        'ticket number': await timed(api, search(`Nr. ${rows[0]!.number}`), 'agent'),
        'GET /users/v1/me, for comparison': await timed(api, '/api/users/v1/me', 'agent'),
      },
    };
  } finally {
    await api.stop();
  }
}

export function printDirectoryFigures(figures: DirectoryFigures): void {
  console.log(
    `  account directory on PostgreSQL, ${figures.accounts.toLocaleString('en')} accounts (target p99 ≤ 20 ms):`,
  );
  for (const [name, { p50, p99 }] of Object.entries(figures.searches)) {
    console.log(`    ${name.padEnd(34)} p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  }
}
