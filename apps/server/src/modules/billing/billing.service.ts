import {
  INVOICE_RECIPIENTS_MAX,
  formatUid,
  isEmailAddress,
  isKnownCountry,
  isPostcode,
  isVatNumber,
  normalizeVatNumber,
  uidProblem,
  type BillingDetails,
  type BillingStatus,
  type Currency,
  type Invoice,
  type InvoiceLine,
  type InvoicePayment,
  type InvoiceSummary,
  type InvoiceTotals,
  type InvoicesList,
  type InvoicesQuery,
  type PaymentMethod,
  type PostalAddress,
  type UpdateBillingDetailsBody,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { BillingConfig } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { listPage, pageOf, sqlParams, type SqlParams } from '../../db/paging.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { billedTo } from '../../invoicing/invoicing.ts';
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

// --- Billing details -------------------------------------------------------------------------------------------

interface DetailsRow {
  name: string;
  street: string | null;
  building_number: string | null;
  postcode: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  recipients: string[] | null;
  purchase_order: string | null;
  payment_method: PaymentMethod | null;
  card_customer_id: string | null;
  card_payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  updated_at: Date | string | null;
}

export async function readDetails(q: Queryable, accountUuid: string, lock = false): Promise<DetailsRow> {
  const { rows } = await q.query<DetailsRow>(
    `select a.name, d.street, d.building_number, d.postcode, d.city, d.country, d.vat_number, d.recipients,
            d.purchase_order, d.payment_method, d.card_customer_id, d.card_payment_method_id, d.card_brand,
            d.card_last4, d.updated_at
       from accounts a left join billing_details d on d.account_uuid = a.uuid
      where a.uuid = $1${lock ? ' for update of a' : ''}`,
    [accountUuid],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** Whether paying by card can be offered: only with a configured card provider. */
export interface CardInfo {
  cardAvailable: boolean;
}

/**
 * How the account pays and with which card: paying by card counts only while a card is saved and a card provider is
 * configured (without one, the account is billed by invoice whatever was chosen before).
 */
function paymentOf(row: DetailsRow, card: CardInfo): Pick<BillingDetails, 'paymentMethod' | 'card'> {
  const saved =
    card.cardAvailable && row.card_payment_method_id
      ? { brand: row.card_brand ?? '', last4: row.card_last4 ?? '' }
      : null;
  return { paymentMethod: saved && row.payment_method === 'CARD' ? 'CARD' : 'INVOICE', card: saved };
}

/**
 * The saved billing details; before an admin saved any, what invoices would be made out to now (the company
 * profile's address and billing email), with `updatedAt` null so the form knows they are proposals.
 */
export async function getDetails(db: Db, access: AccountAccess, card: CardInfo): Promise<BillingDetails> {
  const row = await readDetails(db, access.accountUuid);
  if (row.updated_at !== null) return toDetails(row, card);
  const party = await billedTo(db, access.accountUuid);
  return {
    name: row.name,
    address: party.address,
    vatNumber: party.vatNumber,
    recipients: party.recipients,
    purchaseOrder: null,
    ...paymentOf(row, card),
    cardAvailable: card.cardAvailable,
    updatedAt: null,
  };
}

export function toDetails(row: DetailsRow, card: CardInfo): BillingDetails {
  return {
    name: row.name,
    address: row.street
      ? {
          street: row.street,
          buildingNumber: row.building_number,
          postcode: row.postcode!,
          city: row.city!,
          country: row.country!,
        }
      : null,
    vatNumber: row.vat_number,
    recipients: row.recipients ?? [],
    purchaseOrder: row.purchase_order,
    ...paymentOf(row, card),
    cardAvailable: card.cardAvailable,
    updatedAt: iso(row.updated_at),
  };
}

const trimmed = (value: string | null) => {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
};

interface CheckedDetails {
  address: PostalAddress;
  vatNumber: string | null;
  recipients: string[];
  purchaseOrder: string | null;
  paymentMethod: PaymentMethod;
}

/**
 * The rules of the billing form, all judged at once (422 with one message key per field, `recipients.1` for the
 * second address): a structured address with a known country and, where the country fixes it, a valid postcode; a
 * Swiss UID with its check digit for a Swiss address (written CHE-123.456.789 MWST; TVA or IVA kept when given),
 * another country's VAT format elsewhere; one to five distinct valid recipient addresses; paying by card only when
 * a card provider is configured (and, checked on saving, a card is saved).
 */
export function checkDetails(body: UpdateBillingDetailsBody, card: CardInfo): CheckedDetails {
  const problems: Record<string, string> = {};
  const address: PostalAddress = {
    street: body.address.street.trim(),
    buildingNumber: trimmed(body.address.buildingNumber),
    postcode: body.address.postcode.trim(),
    city: body.address.city.trim(),
    country: body.address.country,
  };
  for (const key of ['street', 'postcode', 'city'] as const) {
    if (!address[key]) problems[`address.${key}`] = 'required';
  }
  if (!isKnownCountry(address.country)) problems['address.country'] = 'pattern';
  else if (address.postcode && !isPostcode(address.postcode, address.country)) {
    problems['address.postcode'] = 'postcode';
  }
  let vatNumber = trimmed(body.vatNumber);
  if (vatNumber && !problems['address.country']) {
    if (address.country === 'CH') {
      const suffix = /\s*(MWST|TVA|IVA)\.?$/i.exec(vatNumber);
      const uid = suffix ? vatNumber.slice(0, suffix.index) : vatNumber;
      const problem = uidProblem(uid);
      if (problem) problems.vatNumber = problem;
      else vatNumber = `${formatUid(uid)} ${suffix ? suffix[1]!.toUpperCase() : 'MWST'}`;
    } else if (!isVatNumber(vatNumber, address.country)) problems.vatNumber = 'vatNumber';
    else vatNumber = normalizeVatNumber(vatNumber);
  }
  const recipients = body.recipients.map((email) => email.trim());
  const seen = new Set<string>();
  recipients.forEach((email, index) => {
    if (!isEmailAddress(email)) problems[`recipients.${index}`] = 'email';
    else if (seen.has(email.toLowerCase())) problems[`recipients.${index}`] = 'duplicate';
    seen.add(email.toLowerCase());
  });
  if (recipients.length < 1 || recipients.length > INVOICE_RECIPIENTS_MAX) problems.recipients = 'recipients';
  if (body.paymentMethod === 'CARD' && !card.cardAvailable) problems.paymentMethod = 'cardUnavailable';
  const names = Object.keys(problems);
  if (names.length) {
    throw new HttpError(422, 'VALIDATION_FAILED', `Invalid billing details: ${names.join(', ')}`, problems);
  }
  return {
    address,
    vatNumber,
    recipients,
    purchaseOrder: trimmed(body.purchaseOrder),
    paymentMethod: body.paymentMethod,
  };
}

function auditFields(row: DetailsRow) {
  if (row.updated_at === null) return null;
  const { address, vatNumber, recipients, purchaseOrder, paymentMethod } = toDetails(row, {
    cardAvailable: true,
  });
  return { address, vatNumber, recipients, purchaseOrder, paymentMethod };
}

/** Saves the billing details (later invoices are made out to them), with the audit entry of what changed. */
export async function updateDetails(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  body: UpdateBillingDetailsBody,
  card: CardInfo,
): Promise<BillingDetails> {
  const fields = checkDetails(body, card);
  return db.transaction(async (tx) => {
    const before = await readDetails(tx, access.accountUuid, true);
    if (fields.paymentMethod === 'CARD' && !before.card_payment_method_id) {
      throw new HttpError(422, 'VALIDATION_FAILED', 'Invalid billing details: paymentMethod', {
        paymentMethod: 'cardMissing',
      });
    }
    await tx.query(
      `insert into billing_details (account_uuid, street, building_number, postcode, city, country, vat_number,
         recipients, purchase_order, payment_method, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, now())
       on conflict (account_uuid) do update set street = excluded.street,
         building_number = excluded.building_number, postcode = excluded.postcode, city = excluded.city,
         country = excluded.country, vat_number = excluded.vat_number, recipients = excluded.recipients,
         purchase_order = excluded.purchase_order, payment_method = excluded.payment_method, updated_at = now()`,
      [
        access.accountUuid,
        fields.address.street,
        fields.address.buildingNumber,
        fields.address.postcode,
        fields.address.city,
        fields.address.country,
        fields.vatNumber,
        JSON.stringify(fields.recipients),
        fields.purchaseOrder,
        fields.paymentMethod,
      ],
    );
    const after = await readDetails(tx, access.accountUuid);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'billing.details.update',
      target: `account:${access.accountUuid}`,
      before: auditFields(before),
      after: auditFields(after),
    });
    return toDetails(after, card);
  });
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
