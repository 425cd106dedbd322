// Paying by card, customer side: an admin saves a card on the card provider's page (the account's customer at the
// provider is created once and kept), the card is kept when the admin comes back from that page, and removed again.
// An invoice issued to an account paying by card is charged on the saved card before it is mailed; a declined card
// leaves it open, to be paid by bank with its QR-bill like any other.
import type { BillingDetails } from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { billedTo } from '../../invoicing/invoicing.ts';
import { todayIn } from '../../invoicing/money.ts';
import { readDetails, toDetails } from './billing.details.ts';
import { bookPayment, isOpen, lockInvoice, outstanding } from './bookings.ts';
import type { CardPayments } from './card-payments.ts';

/** Refuses (409) every card action while no card provider is configured. */
export function requireCards(cards: CardPayments | null): CardPayments {
  if (!cards) throw new HttpError(409, 'CARD_NOT_CONFIGURED', 'Card payments are not configured');
  return cards;
}

const AVAILABLE = { cardAvailable: true };

/** What the audit log keeps of the card: the provider's description, never more. */
const cardOf = (details: BillingDetails) => ({ paymentMethod: details.paymentMethod, card: details.card });

/**
 * The provider's page for saving a card. The account's customer at the provider is created on the first setup and
 * kept, so every later card and charge belongs to it; the page sends the admin back to the billing page with the
 * session's id.
 */
export async function startCardSetup(
  db: Db,
  cards: CardPayments,
  user: PortalUser,
  access: AccountAccess,
  billingPageUrl: string,
): Promise<{ url: string }> {
  const row = await readDetails(db, access.accountUuid);
  const party = await billedTo(db, access.accountUuid);
  const back = new URL(billingPageUrl);
  const returnUrl = `${back.toString()}${back.search ? '&' : '?'}cardSession={CHECKOUT_SESSION_ID}`;
  const setup = await cards.createSetupUrl({
    customerId: row.card_customer_id,
    accountUuid: access.accountUuid,
    accountName: row.name,
    email: party.recipients[0] ?? user.email ?? '',
    returnUrl,
    cancelUrl: back.toString(),
  });
  await db.transaction(async (tx) => {
    // Kept without touching the billing details themselves (they may not be saved yet).
    await tx.query(
      `insert into billing_details (account_uuid, card_customer_id, updated_at) values ($1, $2, null)
       on conflict (account_uuid) do update
         set card_customer_id = coalesce(billing_details.card_customer_id, excluded.card_customer_id)`,
      [access.accountUuid, setup.customerId],
    );
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'billing.card.setup',
      target: `account:${access.accountUuid}`,
    });
  });
  return { url: setup.url };
}

/**
 * Keeps the card of a finished setup session: only a session of this account's own customer (any other is 404, as
 * if it did not exist), and the account pays by card from then on.
 */
export async function completeCardSetup(
  db: Db,
  cards: CardPayments,
  user: PortalUser,
  access: AccountAccess,
  sessionId: string,
): Promise<BillingDetails> {
  const row = await readDetails(db, access.accountUuid);
  if (!row.card_customer_id) throw notFound('No such card setup');
  const saved = await cards.completeSetup(sessionId);
  if (!saved || saved.customerId !== row.card_customer_id) throw notFound('No such card setup');
  return changeCard(db, user, access, 'billing.card.save', async (tx) => {
    await tx.query(
      `update billing_details
          set card_payment_method_id = $2, card_brand = $3, card_last4 = $4, payment_method = 'CARD'
        where account_uuid = $1`,
      [access.accountUuid, saved.paymentMethodId, saved.brand, saved.last4],
    );
    return true;
  });
}

/** Forgets the saved card: the account pays by invoice again. Without a saved card nothing changes. */
export async function removeCard(db: Db, user: PortalUser, access: AccountAccess): Promise<BillingDetails> {
  return changeCard(db, user, access, 'billing.card.remove', async (tx, before) => {
    if (!before.card) return false;
    await tx.query(
      `update billing_details
          set card_payment_method_id = null, card_brand = null, card_last4 = null, payment_method = 'INVOICE'
        where account_uuid = $1`,
      [access.accountUuid],
    );
    return true;
  });
}

/** Changes the saved card in one transaction, with the audit entry of the card before and after (if it changed). */
async function changeCard(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  action: string,
  change: (tx: Queryable, before: BillingDetails) => Promise<boolean>,
): Promise<BillingDetails> {
  return db.transaction(async (tx) => {
    const before = toDetails(await readDetails(tx, access.accountUuid, true), AVAILABLE);
    if (!(await change(tx, before))) return before;
    const after = toDetails(await readDetails(tx, access.accountUuid), AVAILABLE);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action,
      target: `account:${access.accountUuid}`,
      before: cardOf(before),
      after: cardOf(after),
    });
    return after;
  });
}

interface ChargeRow {
  account_uuid: string;
  number: string;
  currency: 'CHF' | 'EUR';
  payment_method: string | null;
  card_customer_id: string | null;
  card_payment_method_id: string | null;
  owed: string | number;
  charged: boolean;
}

export type CardChargeOutcome = 'paid' | 'declined' | null;

/**
 * Charges a newly issued invoice on the account's saved card, before it is mailed: paid at once when the charge
 * succeeds (a card payment booked for what it owes), left open when the card is declined (with an audit entry; the
 * mail then carries the QR-bill). Never charged twice: an invoice with a card payment is not charged again, and the
 * invoice is the provider's idempotency key, so a charge repeated after a crash returns the first one's result.
 * Null when there was nothing to charge (not paying by card, not open, already charged).
 */
export async function chargeIssuedInvoice(
  db: Db,
  cards: CardPayments,
  timeZone: string,
  invoiceUuid: string,
): Promise<CardChargeOutcome> {
  const { rows } = await db.query<ChargeRow>(
    `select i.account_uuid, i.number, i.currency, i.total_minor - i.paid_minor as owed, d.payment_method, d.card_customer_id, d.card_payment_method_id,
            exists (select 1 from invoice_payments p where p.invoice_uuid = i.uuid and p.source = 'CARD') as charged
       from invoices i join billing_details d on d.account_uuid = i.account_uuid
      where i.uuid = $1 and i.kind = 'INVOICE' and i.status in ('OPEN', 'OVERDUE') and i.total_minor > i.paid_minor`,
    [invoiceUuid],
  );
  const row = rows[0];
  if (!row || row.charged || row.payment_method !== 'CARD') return null;
  if (!row.card_customer_id || !row.card_payment_method_id) return null;
  const charge = await cards.charge({
    customerId: row.card_customer_id,
    paymentMethodId: row.card_payment_method_id,
    amountMinor: Number(row.owed),
    currency: row.currency,
    invoiceUuid,
    invoiceNumber: row.number,
  });
  return db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, 'i.uuid = $1', invoiceUuid);
    if (!invoice || !isOpen(invoice)) return null;
    if (!charge.succeeded) {
      await writeAudit(tx, {
        accountUuid: row.account_uuid,
        actor: null,
        action: 'billing.card.declined',
        target: `invoice:${invoiceUuid}`,
        after: { number: row.number, reason: charge.declineCode },
      });
      return 'declined';
    }
    const again = await tx.query(
      `select 1 from invoice_payments where invoice_uuid = $1 and source = 'CARD'`,
      [invoiceUuid],
    );
    if (again.rows.length) return null;
    await bookPayment(tx, null, invoice, {
      amountMinor: outstanding(invoice),
      bookedOn: todayIn(timeZone),
      source: 'CARD',
      note: charge.paymentId,
      bankPaymentUuid: null,
    });
    return 'paid';
  });
}
