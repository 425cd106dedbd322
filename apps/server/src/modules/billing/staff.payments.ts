// Credits from bank files, staff side: listed (those to handle first), and a partial or unmatched one handled with
// a note: booked on an invoice, moved from the invoice it was booked on, or only marked handled.
import crypto from 'node:crypto';
import {
  type AssignPaymentBody,
  type BankPayment,
  type PaymentProblem,
  type PaymentsQuery,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import { HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Invoicing } from '../../invoicing/invoicing.ts';
import { todayIn } from '../../invoicing/money.ts';
import { bookPayment, isOpen, lockInvoice } from './bookings.ts';
import { requireBillingStaff } from './staff.access.ts';

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
