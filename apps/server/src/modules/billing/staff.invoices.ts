// Invoices, staff side, across accounts: found by number, reference or account name, marked paid by hand (money
// that came another way) or voided with a credit note. Only staff with the billing role may (staff.access.ts).
import {
  type InvoiceLine,
  type MarkPaidBody,
  type StaffInvoice,
  type StaffInvoicesQuery,
  type VoidInvoiceBody,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import { HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Invoicing } from '../../invoicing/invoicing.ts';
import { todayIn } from '../../invoicing/money.ts';
import { toSummary } from './billing.service.ts';
import {
  INVOICE_SELECT,
  bookPayment,
  isOpen,
  lockInvoice,
  normalizeReference,
  outstanding,
  type InvoiceRow,
} from './bookings.ts';
import { requireBillingStaff } from './staff.access.ts';

const toStaffInvoice = (row: InvoiceRow): StaffInvoice => ({
  ...toSummary(row),
  reference: row.reference,
  accountUuid: row.account_uuid,
  accountName: row.account_name,
});

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
