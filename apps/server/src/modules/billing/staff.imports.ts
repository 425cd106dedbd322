// Bank files, staff side: a camt.054 file is imported once, each of its credits booked once (across files) on the
// open invoice its reference names; what cannot be booked waits for staff (staff.payments.ts).
import crypto from 'node:crypto';
import {
  CAMT_MAX_BYTES,
  type CamtUploadBody,
  type PaymentImport,
  type PaymentProblem,
  type PaymentsQuery,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import { HttpError, invalidField } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { bookPayment, isOpen, lockInvoice, normalizeReference } from './bookings.ts';
import { CamtRefused, parseCamt054, type CamtCredit } from './camt.ts';
import { requireBillingStaff } from './staff.access.ts';

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
