// Booking money on invoices: the invoice row locked for a booking, whether it is open and what it still owes, and
// the booking itself with its audit entry. Bank files, staff's hand and card charges all book through here. An
// invoice is one row for the whole account, so when it is paid it is paid for everyone at once.
import crypto from 'node:crypto';
import { writeAudit } from '../../audit/audit.ts';
import type { Queryable } from '../../db/client.ts';
import type { PortalUser } from '../../http/types.ts';
import { summaryColumns, type SummaryRow } from './billing.service.ts';

export type InvoiceRow = SummaryRow & { account_uuid: string; account_name: string; reference: string };

/** Invoices outlive their account: the name is the account's, or the billed party's as it was when issued. */
export const INVOICE_SELECT = `
  select ${summaryColumns('i.')}, i.account_uuid, coalesce(a.name, i.billed_to->>'name') as account_name,
         i.reference
    from invoices i left join accounts a on a.uuid = i.account_uuid`;

export async function lockInvoice(tx: Queryable, where: string, value: string): Promise<InvoiceRow | null> {
  const { rows } = await tx.query<InvoiceRow>(`${INVOICE_SELECT} where ${where} for update of i`, [value]);
  return rows[0] ?? null;
}

export const isOpen = (invoice: InvoiceRow) =>
  invoice.kind === 'INVOICE' && (invoice.status === 'OPEN' || invoice.status === 'OVERDUE');

/** What is still owed on an invoice. */
export const outstanding = (invoice: InvoiceRow) => Number(invoice.total_minor) - Number(invoice.paid_minor);

/** References are compared without spaces and in upper case, as the bank file's are read. */
export const normalizeReference = (value: string) => value.replace(/\s+/g, '').toUpperCase();

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
