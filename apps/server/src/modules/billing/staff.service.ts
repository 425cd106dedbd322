// Payments, staff side: bank files (camt.054) are booked against open invoices by their reference, what cannot be
// booked is listed for staff to handle, and staff mark invoices paid by hand or void them. Only staff with the
// billing role (SUPPORT_MANAGER and above) may do any of it. An invoice is one row for the whole account, so when
// it is paid it is paid for everyone at once. Every booking is written to the audit log of the invoice's account.
import crypto from 'node:crypto';
import {
  BILLING_STAFF_ROLE,
  CAMT_MAX_BYTES,
  USER_ROLES,
  hasLevel,
  type AssignPaymentBody,
  type BankPayment,
  type CamtUploadBody,
  type InvoiceLine,
  type MarkPaidBody,
  type PaymentImport,
  type PaymentProblem,
  type PaymentsQuery,
  type StaffInvoice,
  type StaffInvoicesQuery,
  type VoidInvoiceBody,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import { HttpError, forbidden, invalidField, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Invoicing } from '../../invoicing/invoicing.ts';
import { todayIn } from '../../invoicing/money.ts';
import { summaryColumns, toSummary, type SummaryRow } from './billing.service.ts';
import { CamtRefused, parseCamt054, type CamtCredit } from './camt.ts';

/** Refuses (403) a caller below the billing staff role; customers and support agents alike. */
export function requireBillingStaff(user: PortalUser): void {
  if (!hasLevel(USER_ROLES, user.userRole, BILLING_STAFF_ROLE)) {
    throw forbidden('Handling payments needs the SUPPORT_MANAGER role');
  }
}

// --- Invoices ---------------------------------------------------------------------------------------------------

export type InvoiceRow = SummaryRow & { account_uuid: string; account_name: string; reference: string };

/** Invoices outlive their account: the name is the account's, or the billed party's as it was when issued. */
const INVOICE_SELECT = `
  select ${summaryColumns('i.')}, i.account_uuid, coalesce(a.name, i.billed_to->>'name') as account_name,
         i.reference
    from invoices i left join accounts a on a.uuid = i.account_uuid`;

const toStaffInvoice = (row: InvoiceRow): StaffInvoice => ({
  ...toSummary(row),
  reference: row.reference,
  accountUuid: row.account_uuid,
  accountName: row.account_name,
});

export async function lockInvoice(tx: Queryable, where: string, value: string): Promise<InvoiceRow | null> {
  const { rows } = await tx.query<InvoiceRow>(`${INVOICE_SELECT} where ${where} for update of i`, [value]);
  return rows[0] ?? null;
}

export const isOpen = (invoice: InvoiceRow) =>
  invoice.kind === 'INVOICE' && (invoice.status === 'OPEN' || invoice.status === 'OVERDUE');

/** What is still owed on an invoice. */
export const outstanding = (invoice: InvoiceRow) => Number(invoice.total_minor) - Number(invoice.paid_minor);

/** References are compared without spaces and in upper case, as the bank file's are read. */
const normalizeReference = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/**
 * Invoices across accounts, newest first: part of the number, the reference (spaces ignored) or the account's name
 * finds them, optionally with one status.
 */
export async function listStaffInvoices(
  db: Queryable,
  user: PortalUser,
  query: StaffInvoicesQuery,
): Promise<ListPage<StaffInvoice>> {
  requireBillingStaff(user);
  const p = sqlParams();
  const where: string[] = [];
  if (query.status) where.push(`i.status = ${p.add(query.status)}`);
  const q = query.q?.trim();
  if (q) {
    const like = p.contains(q);
    const ref = p.contains(normalizeReference(q));
    where.push(
      `(i.number ilike ${like} or i.reference ilike ${ref} or coalesce(a.name, i.billed_to->>'name') ilike ${like})`,
    );
  }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  return readPage(
    db,
    {
      rows: `${INVOICE_SELECT} ${filter} order by i.issued_on desc, i.year desc, i.sequence desc`,
      count: `select count(*) as total from invoices i left join accounts a on a.uuid = i.account_uuid ${filter}`,
    },
    p,
    pageOf(query),
    toStaffInvoice,
  );
}

export interface Booking {
  amountMinor: number;
  bookedOn: string;
  source: 'CAMT' | 'MANUAL' | 'CARD';
  note: string | null;
  bankPaymentUuid: string | null;
}

/**
 * Books a payment on an open invoice (locked by the caller): the invoice is paid once what it owes is covered,
 * otherwise it stays open with the amount paid so far (`user` null: booked by the system, e.g. a card charge).
 * Returns what was paid beyond what was owed.
 */
export async function bookPayment(
  tx: Queryable,
  user: PortalUser | null,
  invoice: InvoiceRow,
  booking: Booking,
): Promise<{ paid: boolean; overpaidMinor: number }> {
  const owed = outstanding(invoice);
  const paid = booking.amountMinor >= owed;
  await tx.query(
    `insert into invoice_payments (uuid, invoice_uuid, account_uuid, booked_on, amount_minor, source, note,
                                   bank_payment_uuid, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      crypto.randomUUID(),
      invoice.uuid,
      invoice.account_uuid,
      booking.bookedOn,
      booking.amountMinor,
      booking.source,
      booking.note,
      booking.bankPaymentUuid,
      user?.uuid ?? null,
    ],
  );
  const { rows } = await tx.query<{ status: string; paid_minor: string | number }>(
    `update invoices
        set paid_minor = paid_minor + $2,
            status = case when $3::boolean then 'PAID' else status end,
            paid_at = case when $3::boolean then now() else paid_at end
      where uuid = $1 returning status, paid_minor`,
    [invoice.uuid, booking.amountMinor, paid],
  );
  await writeAudit(tx, {
    accountUuid: invoice.account_uuid,
    actor: user,
    action: 'invoice.payment',
    target: `invoice:${invoice.uuid}`,
    before: { number: invoice.number, status: invoice.status, paidMinor: Number(invoice.paid_minor) },
    after: {
      number: invoice.number,
      status: rows[0]!.status,
      paidMinor: Number(rows[0]!.paid_minor),
      amountMinor: booking.amountMinor,
      source: booking.source,
      bookedOn: booking.bookedOn,
      ...(booking.note ? { note: booking.note } : {}),
      ...(booking.bankPaymentUuid ? { bankPaymentUuid: booking.bankPaymentUuid } : {}),
    },
  });
  return { paid, overpaidMinor: Math.max(0, booking.amountMinor - owed) };
}

/**
 * Marks an open or overdue invoice paid by hand (money that came another way): the outstanding amount is booked
 * as a manual payment on the given day, with the note.
 */
export async function markInvoicePaid(
  db: Db,
  invoicing: Invoicing,
  user: PortalUser,
  invoiceUuid: string,
  body: MarkPaidBody,
): Promise<StaffInvoice> {
  requireBillingStaff(user);
  const note = body.note.trim();
  if (!note) throw invalidField('note', 'required');
  if (body.paidOn > todayIn(invoicing.config.timeZone)) throw invalidField('paidOn', 'paidOnFuture');
  return db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, 'i.uuid = $1', invoiceUuid);
    if (!invoice) throw notFound('No such invoice');
    if (!isOpen(invoice))
      throw new HttpError(409, 'INVOICE_NOT_OPEN', 'Only an open or overdue invoice can be marked paid');
    await bookPayment(tx, user, invoice, {
      amountMinor: outstanding(invoice),
      bookedOn: body.paidOn,
      source: 'MANUAL',
      note,
      bankPaymentUuid: null,
    });
    return toStaffInvoice((await lockInvoice(tx, 'i.uuid = $1', invoiceUuid))!);
  });
}

// --- Bank files -------------------------------------------------------------------------------------------------

/** Decodes the upload; base64 that does not round-trip is no file at all. */
function decode(content: string): Buffer {
  const bytes = Buffer.from(content, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== content.replace(/\s/g, '').replace(/=+$/, '')) {
    throw invalidField('file', 'camtNotXml');
  }
  return bytes;
}

type Outcome = 'matched' | 'partial' | 'unmatched';

/** Books one new credit: on the open invoice its reference names, in its currency; otherwise it waits for staff. */
async function bookCredit(
  tx: Queryable,
  user: PortalUser,
  importUuid: string,
  credit: CamtCredit,
): Promise<Outcome | 'duplicate'> {
  const uuid = crypto.randomUUID();
  // A credit the bank sent in an earlier file (overlapping statements) has the same key: it is booked once.
  const inserted = await tx.query(
    `insert into bank_payments (uuid, import_uuid, entry_key, status, booked_on, amount_minor, currency, reference,
                                debtor_name)
     values ($1, $2, $3, 'UNMATCHED', $4, $5, $6, $7, $8) on conflict (entry_key) do nothing returning uuid`,
    [
      uuid,
      importUuid,
      credit.entryKey,
      credit.bookedOn,
      credit.amountMinor,
      credit.currency,
      credit.reference,
      credit.debtorName,
    ],
  );
  if (inserted.rows.length === 0) return 'duplicate';
  const invoice = credit.reference
    ? await lockInvoice(tx, 'i.reference = $1', normalizeReference(credit.reference))
    : null;
  let problem: PaymentProblem | null = null;
  if (!credit.reference) problem = 'NO_REFERENCE';
  else if (!invoice) problem = 'UNKNOWN_REFERENCE';
  else if (!isOpen(invoice)) problem = 'NOT_OPEN';
  else if (invoice.currency !== credit.currency) problem = 'CURRENCY';
  if (problem || !invoice) {
    await tx.query(`update bank_payments set problem = $2 where uuid = $1`, [uuid, problem]);
    return 'unmatched';
  }
  const { paid, overpaidMinor } = await bookPayment(tx, user, invoice, {
    amountMinor: credit.amountMinor,
    bookedOn: credit.bookedOn,
    source: 'CAMT',
    note: null,
    bankPaymentUuid: uuid,
  });
  await tx.query(
    `update bank_payments set status = $2, invoice_uuid = $3, overpaid_minor = $4 where uuid = $1`,
    [uuid, paid ? 'MATCHED' : 'PARTIAL', invoice.uuid, overpaidMinor],
  );
  return paid ? 'matched' : 'partial';
}

interface ImportRow {
  uuid: string;
  file_name: string;
  imported_at: Date | string;
  imported_by_name: string | null;
  matched: number;
  partial: number;
  unmatched: number;
  duplicates: number;
}

const IMPORT_SELECT = `
  select b.uuid, b.file_name, b.imported_at, u.name as imported_by_name, b.matched, b.partial, b.unmatched,
         b.duplicates
    from bank_payment_imports b left join users u on u.uuid = b.imported_by`;

const toImport = (row: ImportRow): PaymentImport => ({
  uuid: row.uuid,
  fileName: row.file_name,
  importedAt: new Date(row.imported_at).toISOString(),
  importedBy: row.imported_by_name,
  counts: {
    matched: Number(row.matched),
    partial: Number(row.partial),
    unmatched: Number(row.unmatched),
    duplicates: Number(row.duplicates),
  },
});

/**
 * Imports a camt.054 file in one transaction: the same file (by content) is refused as already imported and books
 * nothing; each credit is booked once across files; the counts say how each credit went.
 */
export async function importPayments(db: Db, user: PortalUser, body: CamtUploadBody): Promise<PaymentImport> {
  requireBillingStaff(user);
  const content = decode(body.file.content);
  let notification;
  try {
    notification = parseCamt054(content, CAMT_MAX_BYTES);
  } catch (error) {
    if (error instanceof CamtRefused) throw invalidField('file', error.problem);
    throw error;
  }
  const sha256 = crypto.createHash('sha256').update(content).digest('hex');
  const fileName = body.file.fileName.replace(/\\/g, '/').split('/').pop() || 'camt054.xml';
  return db.transaction(async (tx) => {
    const uuid = crypto.randomUUID();
    // The unique file hash makes a second upload of the same file (even at the same moment) wait and then refuse.
    const inserted = await tx.query(
      `insert into bank_payment_imports (uuid, file_sha256, file_name, message_id, imported_by)
       values ($1, $2, $3, $4, $5) on conflict (file_sha256) do nothing returning uuid`,
      [uuid, sha256, fileName, notification.messageId, user.uuid],
    );
    if (inserted.rows.length === 0) {
      throw new HttpError(409, 'ALREADY_IMPORTED', 'This file was already imported', {
        file: 'camtAlreadyImported',
      });
    }
    const counts = { matched: 0, partial: 0, unmatched: 0, duplicates: 0 };
    for (const credit of notification.credits) {
      const outcome = await bookCredit(tx, user, uuid, credit);
      counts[outcome === 'duplicate' ? 'duplicates' : outcome] += 1;
    }
    await tx.query(
      `update bank_payment_imports set matched = $2, partial = $3, unmatched = $4, duplicates = $5 where uuid = $1`,
      [uuid, counts.matched, counts.partial, counts.unmatched, counts.duplicates],
    );
    await writeAudit(tx, {
      accountUuid: null,
      actor: user,
      action: 'billing.payment-import',
      target: `payment-import:${uuid}`,
      after: {
        fileName,
        sha256,
        messageId: notification.messageId,
        version: notification.version,
        ...counts,
      },
    });
    const { rows } = await tx.query<ImportRow>(`${IMPORT_SELECT} where b.uuid = $1`, [uuid]);
    return toImport(rows[0]!);
  });
}

export async function listPaymentImports(
  db: Queryable,
  user: PortalUser,
  query: PaymentsQuery,
): Promise<ListPage<PaymentImport>> {
  requireBillingStaff(user);
  return readPage(
    db,
    {
      rows: `${IMPORT_SELECT} order by b.imported_at desc, b.uuid`,
      count: 'select count(*) as total from bank_payment_imports',
    },
    sqlParams(),
    pageOf(query),
    toImport,
  );
}

// --- Credits ----------------------------------------------------------------------------------------------------

interface PaymentRow {
  uuid: string;
  status: BankPayment['status'];
  booked_on: string;
  amount_minor: string | number;
  currency: string;
  reference: string | null;
  debtor_name: string | null;
  problem: PaymentProblem | null;
  overpaid_minor: string | number;
  note: string | null;
  import_uuid: string;
  invoice_uuid: string | null;
  invoice_number: string | null;
  invoice_account_uuid: string | null;
  invoice_account_name: string | null;
}

const PAYMENT_SELECT = `
  select p.uuid, p.status, p.booked_on::text as booked_on, p.amount_minor, p.currency, p.reference, p.debtor_name,
         p.problem, p.overpaid_minor, p.note, p.import_uuid, p.invoice_uuid, i.number as invoice_number,
         i.account_uuid as invoice_account_uuid, coalesce(a.name, i.billed_to->>'name') as invoice_account_name
    from bank_payments p
    left join invoices i on i.uuid = p.invoice_uuid
    left join accounts a on a.uuid = i.account_uuid`;

const toPayment = (row: PaymentRow): BankPayment => ({
  uuid: row.uuid,
  status: row.status,
  bookedOn: row.booked_on,
  amountMinor: Number(row.amount_minor),
  currency: row.currency,
  problem: row.problem,
  overpaidMinor: Number(row.overpaid_minor),
  reference: row.reference,
  debtorName: row.debtor_name,
  invoice: row.invoice_uuid
    ? {
        uuid: row.invoice_uuid,
        number: row.invoice_number!,
        accountUuid: row.invoice_account_uuid!,
        accountName: row.invoice_account_name ?? '',
      }
    : null,
  note: row.note,
  importUuid: row.import_uuid,
});

/** Credits from bank files, newest booking first; TO_HANDLE lists the partial and unmatched ones. */
export async function listPayments(
  db: Queryable,
  user: PortalUser,
  query: PaymentsQuery,
): Promise<ListPage<BankPayment>> {
  requireBillingStaff(user);
  const p = sqlParams();
  let filter = '';
  if (query.status === 'TO_HANDLE') filter = `where p.status in ('PARTIAL', 'UNMATCHED')`;
  else if (query.status) filter = `where p.status = ${p.add(query.status)}`;
  return readPage(
    db,
    {
      rows: `${PAYMENT_SELECT} ${filter} order by p.booked_on desc, p.created_at desc, p.uuid`,
      count: `select count(*) as total from bank_payments p ${filter}`,
    },
    p,
    pageOf(query),
    toPayment,
  );
}

/**
 * Handles a partial or unmatched credit, with a note. With an invoice, the credit is booked on it (an unmatched
 * one) or moved to it (a partial one, taken off the invoice it was booked on while that is still open); without
 * one, it is only marked handled (refunded, booked elsewhere, the rest written off).
 */
export async function assignPayment(
  db: Db,
  invoicing: Invoicing,
  user: PortalUser,
  paymentUuid: string,
  body: AssignPaymentBody,
): Promise<BankPayment> {
  requireBillingStaff(user);
  const note = body.note.trim();
  if (!note) throw invalidField('note', 'required');
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<PaymentRow>(`${PAYMENT_SELECT} where p.uuid = $1 for update of p`, [
      paymentUuid,
    ]);
    const payment = rows[0];
    if (!payment) throw notFound('No such payment');
    if (payment.status !== 'PARTIAL' && payment.status !== 'UNMATCHED') {
      throw new HttpError(409, 'PAYMENT_HANDLED', 'This payment was handled already');
    }
    const amountMinor = Number(payment.amount_minor);
    let invoiceUuid = payment.invoice_uuid;
    let overpaidMinor = Number(payment.overpaid_minor);
    if (body.invoiceUuid && body.invoiceUuid !== payment.invoice_uuid) {
      const target = await lockInvoice(tx, 'i.uuid = $1', body.invoiceUuid);
      if (!target) throw invalidField('invoiceUuid', 'invoiceNotFound');
      if (!isOpen(target)) throw invalidField('invoiceUuid', 'invoiceNotOpen');
      if (target.currency !== payment.currency) throw invalidField('invoiceUuid', 'invoiceCurrency');
      if (payment.invoice_uuid) await unbook(tx, user, payment, todayIn(invoicing.config.timeZone));
      ({ overpaidMinor } = await bookPayment(tx, user, target, {
        amountMinor,
        bookedOn: payment.booked_on,
        source: 'CAMT',
        note,
        bankPaymentUuid: payment.uuid,
      }));
      invoiceUuid = target.uuid;
    }
    await tx.query(
      `update bank_payments
          set status = 'RESOLVED', invoice_uuid = $2, overpaid_minor = $3, note = $4, resolved_by = $5,
              resolved_at = now()
        where uuid = $1`,
      [payment.uuid, invoiceUuid, overpaidMinor, note, user.uuid],
    );
    const after = await tx.query<PaymentRow>(`${PAYMENT_SELECT} where p.uuid = $1`, [payment.uuid]);
    const resolved = toPayment(after.rows[0]!);
    await writeAudit(tx, {
      accountUuid: resolved.invoice?.accountUuid ?? null,
      actor: user,
      action: 'billing.payment-resolve',
      target: `bank-payment:${payment.uuid}`,
      before: { status: payment.status, invoiceUuid: payment.invoice_uuid },
      after: { status: resolved.status, invoiceUuid, note },
    });
    return resolved;
  });
}

/** Takes a partial credit off the invoice it was booked on, which must still be open (nothing else paid it). */
async function unbook(tx: Queryable, user: PortalUser, payment: PaymentRow, today: string): Promise<void> {
  const amountMinor = Number(payment.amount_minor);
  const source = (await lockInvoice(tx, 'i.uuid = $1', payment.invoice_uuid!))!;
  if (!isOpen(source))
    throw new HttpError(
      409,
      'SOURCE_INVOICE_NOT_OPEN',
      'The invoice this payment was booked on is no longer open',
    );
  await tx.query(
    `insert into invoice_payments (uuid, invoice_uuid, account_uuid, booked_on, amount_minor, source, note,
                                   bank_payment_uuid, created_by)
     values ($1, $2, $3, $4, $5, 'CAMT', $6, $7, $8)`,
    [
      crypto.randomUUID(),
      source.uuid,
      source.account_uuid,
      today,
      -amountMinor,
      'Moved to another invoice',
      payment.uuid,
      user.uuid,
    ],
  );
  await tx.query(`update invoices set paid_minor = paid_minor - $2 where uuid = $1`, [
    source.uuid,
    amountMinor,
  ]);
  await writeAudit(tx, {
    accountUuid: source.account_uuid,
    actor: user,
    action: 'invoice.payment-moved',
    target: `invoice:${source.uuid}`,
    before: { number: source.number, paidMinor: Number(source.paid_minor) },
    after: {
      number: source.number,
      paidMinor: Number(source.paid_minor) - amountMinor,
      bankPaymentUuid: payment.uuid,
    },
  });
}

// --- Void ---------------------------------------------------------------------------------------------------------

/**
 * Voids an open or overdue invoice nothing was paid on yet: it becomes VOID with the reason, and a credit note with
 * its lines negated is issued for it (reason VOID), each pointing at the other. Voiding twice issues nothing twice:
 * the voided invoice is no longer open, and the credit note's source key is the invoice's.
 */
export async function voidInvoice(
  db: Db,
  invoicing: Invoicing,
  user: PortalUser,
  invoiceUuid: string,
  body: VoidInvoiceBody,
): Promise<StaffInvoice> {
  requireBillingStaff(user);
  const reason = body.reason.trim();
  if (!reason) throw invalidField('reason', 'required');
  return db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, 'i.uuid = $1', invoiceUuid);
    if (!invoice) throw notFound('No such invoice');
    if (!isOpen(invoice))
      throw new HttpError(409, 'INVOICE_NOT_OPEN', 'Only an open or overdue invoice can be voided');
    if (Number(invoice.paid_minor) !== 0) {
      throw new HttpError(
        409,
        'INVOICE_HAS_PAYMENTS',
        'Payments were booked on this invoice: move or refund them before voiding it',
      );
    }
    const { rows } = await tx.query<{ lines: InvoiceLine[] }>(`select lines from invoices where uuid = $1`, [
      invoice.uuid,
    ]);
    const lines = rows[0]!.lines.map((line) => ({
      ...line,
      unitMinor: -line.unitMinor,
      netMinor: -line.netMinor,
      vatMinor: -line.vatMinor,
    }));
    const creditNote = await invoicing.issue(tx, {
      accountUuid: invoice.account_uuid,
      kind: 'CREDIT_NOTE',
      reason: 'VOID',
      sourceKey: `void:${invoice.uuid}`,
      currency: invoice.currency,
      lines,
      periodStart: invoice.period_start,
      periodEnd: invoice.period_end,
      issuedOn: todayIn(invoicing.config.timeZone),
      relatedInvoiceUuid: invoice.uuid,
    });
    await tx.query(
      `update invoices set status = 'VOID', voided_at = now(), void_reason = $2, related_invoice_uuid = $3
        where uuid = $1`,
      [invoice.uuid, reason, creditNote.uuid],
    );
    await writeAudit(tx, {
      accountUuid: invoice.account_uuid,
      actor: user,
      action: 'invoice.void',
      target: `invoice:${invoice.uuid}`,
      before: { number: invoice.number, status: invoice.status },
      after: { number: invoice.number, status: 'VOID', reason, creditNote: creditNote.number },
    });
    return toStaffInvoice((await lockInvoice(tx, 'i.uuid = $1', invoiceUuid))!);
  });
}
