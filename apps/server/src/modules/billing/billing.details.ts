// Billing details of an account: the address, VAT number, recipients and purchase order invoices are made out to,
// and how the account pays (by invoice, or by card where a card provider is configured).
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
  type PaymentMethod,
  type PostalAddress,
  type UpdateBillingDetailsBody,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { billedTo } from '../../invoicing/invoicing.ts';

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
    updatedAt: row.updated_at === null ? null : iso(row.updated_at),
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
