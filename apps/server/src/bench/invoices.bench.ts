/**
 * The invoices list at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): one account with 10,000 invoices over ten years, generated here with generate_series. Measures,
 * through the real app (authentication, access check, SQL with the sums per currency, serialisation), the first
 * page and filtered pages: p50 and p99 over 200 requests each (target p99 ≤ 20 ms for the first page).
 */
import { DEMO_ACCOUNTS } from '../demo/users.ts';
import { TestApi } from '../test/api.ts';
import { settle, timed } from './logs.bench.ts';

export const INVOICES = 10_000;
const MUSTER = DEMO_ACCOUNTS.muster;

export interface InvoiceFigures {
  pages: Record<string, { p50: number; p99: number }>;
}

export async function measureInvoices(): Promise<InvoiceFigures> {
  const api = new TestApi('postgres');
  await api.start();
  try {
    // Copies of a seeded invoice (its lines and totals), one every 9 hours back from today: mostly paid, some
    // open, overdue or void, in francs and euros; numbers of a year of their own so they never meet real ones.
    await api.db.query(
      `insert into invoices (uuid, account_uuid, number, year, sequence, kind, reason, status, currency, issued_on,
         due_on, period_start, period_end, lines, totals, net_minor, vat_minor, total_minor, paid_minor, reference,
         billed_to, source_key)
       select gen_random_uuid(), $1::uuid, 'B-' || g, 1900, g, 'INVOICE', 'PERIOD',
              (array['PAID', 'PAID', 'PAID', 'PAID', 'PAID', 'PAID', 'OPEN', 'OVERDUE', 'PAID', 'VOID'])[1 + g % 10],
              (array['CHF', 'CHF', 'EUR'])[1 + g % 3],
              current_date - (g * 9 / 24), current_date - (g * 9 / 24) + 30,
              current_date - (g * 9 / 24), current_date - (g * 9 / 24) + 30,
              t.lines, t.totals, t.net_minor, t.vat_minor, t.total_minor,
              case when g % 10 in (6, 7, 9) then 0 else t.total_minor end,
              'RF-BENCH-' || g, t.billed_to, 'bench:' || g
         from generate_series(1, ${INVOICES}) g,
              (select lines, totals, net_minor, vat_minor, total_minor, billed_to from invoices
                where account_uuid = $1 order by issued_on limit 1) t`,
      [MUSTER],
    );
    // The steady state autovacuum keeps: the trigger's updates of the sums left dead row versions behind.
    await settle(api, 'vacuum analyze invoices, invoice_sums');
    const base = `/api/accounts/${MUSTER}/billing/v1/invoices`;
    const year = new Date().getFullYear() - 3;
    return {
      pages: {
        'first page': await timed(api, base),
        'page 20 (25 a page)': await timed(api, `${base}?page=20`),
        'filter: status OPEN': await timed(api, `${base}?status=OPEN`),
        'filter: year': await timed(api, `${base}?year=${year}`),
        'filter: status + year': await timed(api, `${base}?status=OVERDUE&year=${year}`),
        'first page, again': await timed(api, base),
        'GET /users/v1/me, for comparison': await timed(api, '/api/users/v1/me'),
      },
    };
  } finally {
    await api.stop();
  }
}

export function printInvoiceFigures(figures: InvoiceFigures): void {
  console.log(
    `  invoices list, one account with ${INVOICES.toLocaleString('en')} invoices on PostgreSQL (target first page p99 ≤ 20 ms):`,
  );
  for (const [name, { p50, p99 }] of Object.entries(figures.pages)) {
    console.log(`    ${name.padEnd(32)} p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  }
}
