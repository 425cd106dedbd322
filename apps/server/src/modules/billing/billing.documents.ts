import { createHash } from 'node:crypto';
import type { Invoice, Language } from '@portal/contract';
import type { BillingConfig } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import type { FileStore, StoredFile } from '../../files/files.ts';
import { readInvoice } from './billing.service.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

/** The file store's purpose of a kept invoice PDF. */
export const INVOICE_PDF_PURPOSE = 'invoice-pdf';

const LANGUAGES: readonly Language[] = ['de', 'en', 'fr', 'it'];
const asLanguage = (value: string | null | undefined): Language =>
  LANGUAGES.includes(value as Language) ? (value as Language) : 'de';

/** The download's name in the reader's language: Rechnung-2026-000123.pdf, Invoice-…, Facture-…, Fattura-…. */
const DOCUMENT_NAMES: Record<Language, Record<Invoice['kind'], string>> = {
  de: { INVOICE: 'Rechnung', CREDIT_NOTE: 'Gutschrift' },
  en: { INVOICE: 'Invoice', CREDIT_NOTE: 'Credit-note' },
  fr: { INVOICE: 'Facture', CREDIT_NOTE: 'Note-de-credit' },
  it: { INVOICE: 'Fattura', CREDIT_NOTE: 'Nota-di-credito' },
};

export function invoiceFileName(invoice: Pick<Invoice, 'kind' | 'number'>, language: Language): string {
  return `${DOCUMENT_NAMES[language][invoice.kind]}-${invoice.number}.pdf`;
}

interface AccountBrand {
  name: string;
  language: Language;
  logoFileUuid: string | null;
}

async function accountBrand(q: Queryable, accountUuid: string): Promise<AccountBrand | null> {
  const { rows } = await q.query<{ name: string; language: string; logo_file_uuid: string | null }>(
    `select a.name, a.preferred_language as language, p.logo_file_uuid
       from accounts a left join company_profiles p on p.account_uuid = a.uuid where a.uuid = $1`,
    [accountUuid],
  );
  const row = rows[0];
  return row
    ? { name: row.name, language: asLanguage(row.language), logoFileUuid: row.logo_file_uuid }
    : null;
}

export interface InvoiceDocument {
  invoice: Invoice;
  language: Language;
  file: StoredFile;
  content: Buffer;
}

/**
 * The invoice's PDF, branded with the account's company name and logo, the provider as creditor, in the account's
 * language. While nothing is paid on it, that is the document kept when it was first rendered (the one mailed);
 * once a payment is booked or it is paid or void, it is rendered anew from its state, so the payment part asks for
 * what is still owed or is gone (the kept copy stays as the record of what was sent). `keep` (the mail): the
 * document is kept whatever its state, as the record of what is sent, e.g. an invoice paid by card before it was
 * mailed. Null when the account has no such invoice.
 */
export async function invoiceDocument(
  db: Db,
  files: FileStore,
  config: BillingConfig,
  accountUuid: string,
  invoiceUuid: string,
  options: { keep?: boolean } = {},
): Promise<InvoiceDocument | null> {
  const invoice = await readInvoice(db, accountUuid, invoiceUuid);
  const brand = await accountBrand(db, accountUuid);
  if (!invoice || !brand) return null;
  const render = async () => {
    const logo = brand.logoFileUuid ? await files.read(db, accountUuid, brand.logoFileUuid) : null;
    return renderInvoicePdf({
      invoice,
      language: brand.language,
      creditor: config.creditor,
      brand: config.brand,
      companyName: brand.name,
      logo: logo ? { bytes: logo.content, contentType: logo.file.contentType } : null,
      plans: config.plans,
      timeZone: config.timeZone,
    });
  };
  const fileName = invoiceFileName(invoice, brand.language);
  const settled = invoice.paidMinor !== 0 || invoice.status === 'PAID' || invoice.status === 'VOID';
  if (settled && !options.keep) {
    const content = await render();
    const file: StoredFile = {
      uuid: invoiceUuid,
      accountUuid,
      purpose: INVOICE_PDF_PURPOSE,
      contentType: 'application/pdf',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      fileName,
      createdAt: new Date().toISOString(),
    };
    return { invoice, language: brand.language, file, content };
  }
  const kept = await db.query<{ pdf_file_uuid: string | null }>(
    'select pdf_file_uuid from invoices where uuid = $1',
    [invoiceUuid],
  );
  const keptUuid = kept.rows[0]?.pdf_file_uuid;
  if (keptUuid) {
    const found = await files.read(db, accountUuid, keptUuid);
    if (found) return { invoice, language: brand.language, ...found };
  }
  const content = await render();
  return db.transaction(async (tx) => {
    // Two renderings at once keep the first one stored: the row is locked while the file is chosen.
    const { rows } = await tx.query<{ pdf_file_uuid: string | null }>(
      'select pdf_file_uuid from invoices where uuid = $1 for update',
      [invoiceUuid],
    );
    const other = rows[0]?.pdf_file_uuid ? await files.read(tx, accountUuid, rows[0].pdf_file_uuid) : null;
    if (other) return { invoice, language: brand.language, ...other };
    const file = await files.put(tx, {
      accountUuid,
      purpose: INVOICE_PDF_PURPOSE,
      contentType: 'application/pdf',
      content,
      fileName,
      createdBy: null,
    });
    await tx.query('update invoices set pdf_file_uuid = $2 where uuid = $1', [invoiceUuid, file.uuid]);
    return { invoice, language: brand.language, file, content };
  });
}
