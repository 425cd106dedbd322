// Invoices of an account, customer side: the list with its sums per currency, one invoice with its payments, and
// whether the account is past due. The billing details are billing.details.ts, the staff side staff.*.ts.
import {
  type BillingStatus,
  type Currency,
  type Invoice,
  type InvoiceLine,
  type InvoicePayment,
  type InvoiceSummary,
  type InvoiceTotals,
  type InvoicesList,
  type InvoicesQuery,
} from '@portal/contract';
import type { BillingConfig } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { listPage, pageOf, sqlParams, type SqlParams } from '../../db/paging.ts';
import { notFound } from '../../http/errors.ts';
import type { AccountAccess } from '../../http/types.ts';
import { addDays, todayIn } from '../../invoicing/money.ts';

/** The columns of an invoice's summary, of the table or its alias (`i.`). */
export const summaryColumns = (alias = '') =>
  `${alias}uuid, ${alias}number, ${alias}kind, ${alias}reason, ${alias}status, ${alias}currency,
   ${alias}issued_on::text as issued_on, ${alias}due_on::text as due_on, ${alias}period_start::text as period_start,
   ${alias}period_end::text as period_end, ${alias}total_minor, ${alias}paid_minor`;

export interface SummaryRow {
  uuid: string;
  number: string;
  kind: InvoiceSummary['kind'];
  reason: InvoiceSummary['reason'];
  status: InvoiceSummary['status'];
  currency: Currency;
  issued_on: string;
  due_on: string;
  period_start: string;
  period_end: string;
  total_minor: string | number;
  paid_minor: string | number;
}

export function toSummary(row: SummaryRow): InvoiceSummary {
  return {
    uuid: row.uuid,
    number: row.number,
    kind: row.kind,
    reason: row.reason,
    status: row.status,
    currency: row.currency,
    issuedOn: row.issued_on,
    dueOn: row.due_on,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    totalMinor: Number(row.total_minor),
    paidMinor: Number(row.paid_minor),
  };
}

/**
 * The filter of the invoices list as SQL: the account, then a status and an issue year, said by `byYear` for the
 * table it reads (a range of issue days on invoices, so the account's index on issue day serves it; the year on
 * the kept sums).
 */
function listFilter(
  accountUuid: string,
  query: InvoicesQuery,
  byYear: (year: number, p: SqlParams) => string,
): { where: string; params: SqlParams } {
  const p = sqlParams();
  const where = [`account_uuid = ${p.add(accountUuid)}`];
  if (query.status) where.push(`status = ${p.add(query.status)}`);
  if (query.year) where.push(byYear(query.year, p));
  return { where: where.join(' and '), params: p };
}

const invoicesInYear = (year: number, p: SqlParams) =>
  `issued_on >= ${p.add(`${year}-01-01`)}::date and issued_on < ${p.add(`${year + 1}-01-01`)}::date`;

const sumsOfYear = (year: number, p: SqlParams) => `year = ${p.add(year)}`;

/**
 * The account's invoices and credit notes, newest first, one page of them, with the count and the sums per
 * currency over everything the filter finds: invoiced (invoices not voided), paid, and outstanding (open and
 * overdue). Credit notes only cancel voided invoices, which the sums leave out already. Count and sums come from
 * the sums a trigger keeps per year, status and currency, so a page costs the same with ten or ten thousand
 * invoices.
 */
export async function listInvoices(
  db: Db,
  access: AccountAccess,
  query: InvoicesQuery,
): Promise<InvoicesList> {
  const paging = pageOf(query);
  const { where, params } = listFilter(access.accountUuid, query, invoicesInYear);
  const sumsWhere = listFilter(access.accountUuid, query, sumsOfYear);
  const [rows, sums] = await Promise.all([
    db.query<SummaryRow>(
      // Qualified: the bare name would sort by the output column, the day as text, which no index serves.
      `select ${summaryColumns()} from invoices where ${where}
        order by invoices.issued_on desc, invoices.sequence desc
        limit ${params.add(paging.limit)} offset ${params.add(paging.offset)}`,
      params.values,
    ),
    db.query<{ currency: Currency; count: string; invoiced: string; paid: string; outstanding: string }>(
      `select currency, sum(invoices) as count,
              coalesce(sum(total_minor) filter (where kind = 'INVOICE' and status <> 'VOID'), 0) as invoiced,
              coalesce(sum(paid_minor) filter (where kind = 'INVOICE'), 0) as paid,
              coalesce(sum(total_minor - paid_minor) filter (where status in ('OPEN', 'OVERDUE')), 0) as outstanding
         from invoice_sums where ${sumsWhere.where}
        group by currency having sum(invoices) > 0 order by currency`,
      sumsWhere.params.values,
    ),
  ]);
  const total = sums.rows.reduce((total, row) => total + Number(row.count), 0);
  const page = listPage(rows.rows.map(toSummary), total, paging);
  return {
    ...page,
    meta: {
      ...page.meta,
      sums: sums.rows.map((row) => ({
        currency: row.currency,
        invoicedMinor: Number(row.invoiced),
        paidMinor: Number(row.paid),
        outstandingMinor: Number(row.outstanding),
      })),
    },
  };
}

interface InvoiceRow extends SummaryRow {
  account_uuid: string;
  lines: InvoiceLine[];
  totals: InvoiceTotals;
  reference: string;
  billed_to: Invoice['billedTo'] & { recipients?: string[]; language?: string };
  related_uuid: string | null;
  related_number: string | null;
  paid_at: Date | string | null;
  voided_at: Date | string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** One invoice of the account with everything its page and its PDF show; null when the account has no such one. */
export async function readInvoice(
  q: Queryable,
  accountUuid: string,
  invoiceUuid: string,
): Promise<Invoice | null> {
  const { rows } = await q.query<InvoiceRow>(
    `select ${summaryColumns('i.')}, i.account_uuid, i.lines, i.totals,
            i.reference, i.billed_to, i.paid_at, i.voided_at, r.uuid as related_uuid, r.number as related_number
       from invoices i
       left join invoices r on r.uuid = i.related_invoice_uuid
      where i.uuid = $1 and i.account_uuid = $2`,
    [invoiceUuid, accountUuid],
  );
  const row = rows[0];
  if (!row) return null;
  const payments = await q.query<{
    booked_on: string;
    amount_minor: string;
    source: InvoicePayment['source'];
    note: string | null;
  }>(
    `select booked_on::text as booked_on, amount_minor, source, note from invoice_payments
      where invoice_uuid = $1 order by booked_on, created_at`,
    [invoiceUuid],
  );
  const party = row.billed_to;
  return {
    ...toSummary(row),
    lines: row.lines,
    totals: row.totals,
    reference: row.reference,
    billedTo: {
      name: party.name,
      address: party.address ?? null,
      vatNumber: party.vatNumber ?? null,
      purchaseOrder: party.purchaseOrder ?? null,
    },
    relatedInvoice: row.related_uuid ? { uuid: row.related_uuid, number: row.related_number! } : null,
    payments: payments.rows.map((payment) => ({
      bookedOn: payment.booked_on,
      amountMinor: Number(payment.amount_minor),
      source: payment.source,
      note: payment.note,
    })),
    paidAt: iso(row.paid_at),
    voidedAt: iso(row.voided_at),
  };
}

export async function getInvoice(db: Db, access: AccountAccess, invoiceUuid: string): Promise<Invoice> {
  const invoice = await readInvoice(db, access.accountUuid, invoiceUuid);
  if (!invoice) throw notFound();
  return invoice;
}

// --- Past due --------------------------------------------------------------------------------------------------

/**
 * The account is past due while an overdue invoice's due date lies more than the configured days back: since the
 * oldest such due date, with the amounts still owed on them per currency.
 */
export async function getStatus(
  db: Db,
  access: AccountAccess,
  config: Pick<BillingConfig, 'pastDueBannerDays' | 'timeZone'>,
  today = todayIn(config.timeZone),
): Promise<BillingStatus> {
  const { rows } = await db.query<{ currency: Currency; since: string; invoices: string; amount: string }>(
    `select currency, min(due_on)::text as since, count(*) as invoices, sum(total_minor - paid_minor) as amount
       from invoices
      where account_uuid = $1 and status = 'OVERDUE' and due_on < $2::date
      group by currency order by currency`,
    [access.accountUuid, addDays(today, -config.pastDueBannerDays)],
  );
  if (!rows.length) return { pastDue: null };
  return {
    pastDue: {
      since: rows.map((row) => row.since).sort()[0]!,
      invoices: rows.reduce((total, row) => total + Number(row.invoices), 0),
      amounts: rows.map((row) => ({ currency: row.currency, amountMinor: Number(row.amount) })),
    },
  };
}
