import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { formatReference, LANGUAGES, type Invoice, type Language } from '@portal/contract';
import { formatReference as qrBillReference } from 'swissqrbill/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { Creditor } from '../../config.ts';
import { DEFAULT_PLANS } from '../../invoicing/plans.ts';
import {
  IBAN_CREDITOR,
  QR_IBAN_CREDITOR,
  renewalLines,
  sampleInvoice,
  upgradeLines,
} from './invoice-pdf.fixtures.ts';
import { printableText, renderInvoicePdf } from './invoice-pdf.ts';
import { fill, INVOICE_PDF_TEXTS } from './invoice-pdf.texts.ts';

describe('invoice PDF texts', () => {
  const keys = Object.keys(INVOICE_PDF_TEXTS.de).sort();
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it.each(LANGUAGES.filter((language) => language !== 'de'))(
    '%s has every text German has, with the same placeholders',
    (language) => {
      const texts = INVOICE_PDF_TEXTS[language] as unknown as Record<string, string>;
      expect(Object.keys(texts).sort()).toEqual(keys);
      for (const key of keys) {
        const german = (INVOICE_PDF_TEXTS.de as unknown as Record<string, string>)[key]!;
        expect(texts[key]?.trim(), `${language}.${key}`).toBeTruthy();
        expect(placeholders(texts[key]!), `${language}.${key}`).toEqual(placeholders(german));
      }
    },
  );

  it.each(LANGUAGES)('%s texts only use characters the PDF font can show', (language) => {
    for (const text of Object.values(INVOICE_PDF_TEXTS[language])) expect(printableText(text)).toBe(text);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(fill('Rechnung {number}', { number: '2026-000123' })).toBe('Rechnung 2026-000123');
    expect(fill('{a} {b}', { a: 'x' })).toBe('x {b}');
  });
});

describe('invoice PDF formats', () => {
  it('renders the same state to the same bytes, whenever it is rendered (the account export relies on it)', async () => {
    const invoice = sampleInvoice('CHF', upgradeLines());
    const first = await render(invoice, 'de', QR_IBAN_CREDITOR);
    // PDF dates have whole seconds: a rendering in the next second would differ if the moment were written.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await render(invoice, 'de', QR_IBAN_CREDITOR);
    expect(second.equals(first)).toBe(true);
  });

  // Amounts, days and rates are the contract's formatters (decision 201), tested in packages/contract.
  it.each(['210000000003139471430009017', 'RF18539007547034', 'RF4820260000123'])(
    'groups the reference %s as the QR-bill’s payment part prints it',
    (reference) => expect(formatReference(reference)).toBe(qrBillReference(reference)),
  );

  it.each([
    ['Portal Services Sàrl, Zürich, Hauptstraße', 'Portal Services Sàrl, Zürich, Hauptstraße'],
    ['Société Générale — «Genève» €', 'Société Générale — «Genève» €'],
    ['Dvořák Łódź', 'Dvorák ?ódz'],
    ['Muster AG\r\nAbteilung', 'Muster AG Abteilung'],
    ['Rocket 🚀', 'Rocket ?'],
  ])('prints %s as %s', (input, expected) => {
    expect(printableText(input)).toBe(expected);
  });
});

// The PDF itself: its text and the QR code of its payment part, read back with Debian's poppler-utils and a QR
// decoder, compared with the invoice it was made from.

const hasPoppler = spawnSync('pdftoppm', ['-v']).error === undefined;
if (!hasPoppler) {
  console.warn(
    'SKIPPED: the invoice PDF tests need pdftoppm and pdftotext (Debian: apt-get install poppler-utils)',
  );
}

const POINTS_PER_INCH = 72;
const DPI = 300;
/** The payment part is the bottom 105 mm of an A4 page. */
const PAYMENT_PART_HEIGHT_MM = 105;

let dir = '';
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-pdf-'));
  const wasm = fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
  await prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function save(pdf: Buffer): string {
  files += 1;
  const file = path.join(dir, `invoice-${files}.pdf`);
  fs.writeFileSync(file, pdf);
  return file;
}

function pageCount(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

function pdfText(file: string, page?: number): string {
  const pages = page ? ['-f', String(page), '-l', String(page)] : [];
  return execFileSync('pdftotext', ['-layout', ...pages, file, '-'], { encoding: 'utf8' });
}

/** The words of `page` with their boxes in points from the top left. */
function words(file: string, page: number): { text: string; yMin: number; yMax: number }[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-'], {
    encoding: 'utf8',
  });
  return [
    ...html.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g),
  ].map((m) => ({ text: m[3]!, yMin: Number(m[1]), yMax: Number(m[2]) }));
}

/** The QR codes found in the bottom 105 mm of `page` (1-based), rendered at 300 dpi. */
async function qrCodesOfPaymentPart(file: string, page: number): Promise<string[]> {
  const pageHeightPx = Math.round((841.89 / POINTS_PER_INCH) * DPI);
  const partHeightPx = Math.round((PAYMENT_PART_HEIGHT_MM / 25.4) * DPI);
  const prefix = path.join(dir, `page-${files}-${page}`);
  execFileSync('pdftoppm', [
    ...['-r', String(DPI), '-png', '-singlefile', '-f', String(page), '-l', String(page)],
    ...['-x', '0', '-y', String(pageHeightPx - partHeightPx), '-W', '2480', '-H', String(partHeightPx)],
    file,
    prefix,
  ]);
  const results = await readBarcodes(fs.readFileSync(`${prefix}.png`), { formats: ['QRCode'] });
  return results.filter((result) => result.isValid).map((result) => result.text);
}

/** The fields of a Swiss QR code (Swiss Payment Standards, version 2.0), by name. */
function swissQrFields(payload: string) {
  const lines = payload.split(/\r?\n/);
  const address = (at: number) => ({
    type: lines[at],
    name: lines[at + 1],
    street: lines[at + 2],
    buildingNumber: lines[at + 3],
    postcode: lines[at + 4],
    city: lines[at + 5],
    country: lines[at + 6],
  });
  return {
    header: lines.slice(0, 3),
    iban: lines[3],
    creditor: address(4),
    ultimateCreditor: lines.slice(11, 18),
    amount: lines[18],
    currency: lines[19],
    debtor: address(20),
    referenceType: lines[27],
    reference: lines[28],
    message: lines[29],
    trailer: lines[30],
  };
}

function expectedAddress(name: string, address: NonNullable<Invoice['billedTo']['address']>) {
  return {
    type: 'S',
    name,
    street: address.street,
    buildingNumber: address.buildingNumber ?? '',
    postcode: address.postcode,
    city: address.city,
    country: address.country,
  };
}

function render(invoice: Invoice, language: Language, creditor: Creditor) {
  return renderInvoicePdf({
    invoice,
    language,
    creditor,
    companyName: invoice.billedTo.name,
    plans: DEFAULT_PLANS,
  });
}

describe.skipIf(!hasPoppler)('invoice PDF with the QR-bill payment part', () => {
  it('pays a CHF invoice to a QR-IBAN with a QR reference: the QR code says what the invoice says', async () => {
    const invoice = sampleInvoice('CHF', upgradeLines());
    const file = save(await render(invoice, 'de', QR_IBAN_CREDITOR));

    // The lines leave room for the payment part at the bottom of the one page.
    expect(pageCount(file)).toBe(1);
    const [payload, ...others] = await qrCodesOfPaymentPart(file, 1);
    expect(others).toEqual([]);
    const qr = swissQrFields(payload!);
    expect(qr.header).toEqual(['SPC', '0200', '1']);
    expect(qr.iban).toBe('CH4431999123000889012');
    expect(qr.creditor).toEqual(expectedAddress(QR_IBAN_CREDITOR.name, QR_IBAN_CREDITOR.address));
    expect(qr.ultimateCreditor).toEqual(['', '', '', '', '', '', '']);
    expect(qr.amount).toBe((invoice.totalMinor / 100).toFixed(2));
    expect(qr.amount).toBe('78.35');
    expect(qr.currency).toBe('CHF');
    expect(qr.debtor).toEqual(expectedAddress(invoice.billedTo.name, invoice.billedTo.address!));
    expect(qr.referenceType).toBe('QRR');
    expect(qr.reference).toBe(invoice.reference);
    expect(qr.message).toBe(invoice.number);
    expect(qr.trailer).toBe('EPD');

    const text = pdfText(file);
    for (const word of [
      'Portal Services Sàrl',
      'Zürich',
      'Hauptstraße 1a',
      'Rechnung 2026-000123',
      'Zahlteil',
    ]) {
      expect(text).toContain(word);
    }
    expect(text).toMatch(/MWST 8\.1 % auf 72\.50\s+5\.87/);
    expect(text).toMatch(/Rundungsdifferenz\s+-0\.02/);
    expect(text).toMatch(/Total CHF\s+78\.35/);
  });

  it('pays a EUR invoice to a normal IBAN with a creditor reference, in English, to a German debtor', async () => {
    const invoice = sampleInvoice('EUR', renewalLines(), {
      number: '2026-000124',
      reference: 'RF462026000123',
      billedTo: {
        name: 'Beispiel GmbH',
        address: {
          street: 'Königstraße',
          buildingNumber: null,
          postcode: '70173',
          city: 'Stuttgart',
          country: 'DE',
        },
        vatNumber: 'DE123456789',
        purchaseOrder: null,
      },
    });
    const file = save(await render(invoice, 'en', IBAN_CREDITOR));

    const [payload] = await qrCodesOfPaymentPart(file, pageCount(file));
    const qr = swissQrFields(payload!);
    expect(qr.iban).toBe('CH9300762011623852957');
    expect(qr.creditor).toEqual(expectedAddress(IBAN_CREDITOR.name, IBAN_CREDITOR.address));
    expect(qr.amount).toBe('4096.99');
    expect(qr.currency).toBe('EUR');
    expect(qr.debtor).toEqual(expectedAddress('Beispiel GmbH', invoice.billedTo.address!));
    expect(qr.referenceType).toBe('SCOR');
    expect(qr.reference).toBe('RF462026000123');
    expect(qr.message).toBe('2026-000124');

    const text = pdfText(file);
    expect(text).toContain('Invoice 2026-000124');
    expect(text).toContain('Germany');
    expect(text).toMatch(/Total EUR\s+4'096\.99/);
  });

  it('puts names the standard cannot take into the QR code in its character set, at most 70 characters', async () => {
    const name = `Dvořák & Söhne – „Ateliers” ${'Ä'.repeat(60)}`;
    const invoice = sampleInvoice('CHF', upgradeLines(), {
      billedTo: { ...sampleInvoice('CHF', []).billedTo, name },
    });
    const file = save(await render(invoice, 'de', QR_IBAN_CREDITOR));
    const [payload] = await qrCodesOfPaymentPart(file, pageCount(file));
    const printed = `Dvorák & Söhne - "Ateliers" ${'Ä'.repeat(60)}`.slice(0, 70);
    expect(swissQrFields(payload!).debtor.name).toBe(printed);
    expect(pdfText(file)).toContain('Dvorák & Söhne – „Ateliers”');
  });

  it('asks only for what is still owed on a partly paid invoice', async () => {
    const invoice = sampleInvoice('CHF', upgradeLines(), { paidMinor: 3_000 });
    const file = save(await render(invoice, 'fr', QR_IBAN_CREDITOR));
    const [payload] = await qrCodesOfPaymentPart(file, pageCount(file));
    expect(swissQrFields(payload!).amount).toBe('48.35');
    expect(pdfText(file)).toMatch(/Montant dû CHF\s+48\.35/);
  });

  it.each([1, 6, 9, 14, 28])(
    'with %i lines, the payment part is on the last page only, with nothing above its perforation',
    async (count) => {
      const lines = Array.from({ length: count }, (_, i) => renewalLines()[i % 2]!);
      const invoice = sampleInvoice('CHF', lines, { paidMinor: 1_000 });
      const file = save(await render(invoice, 'fr', QR_IBAN_CREDITOR));
      const pages = pageCount(file);
      const [payload] = await qrCodesOfPaymentPart(file, pages);
      expect(swissQrFields(payload!).amount).toBe(((invoice.totalMinor - 1_000) / 100).toFixed(2));
      for (let page = 1; page < pages; page += 1) {
        expect(pdfText(file, page)).not.toContain('Section paiement');
      }
      // Words on the last page end above the free band over the perforation, or start inside the payment part.
      const perforation = 841.89 - (PAYMENT_PART_HEIGHT_MM / 25.4) * POINTS_PER_INCH;
      const freeBand = perforation - (6 / 25.4) * POINTS_PER_INCH;
      const misplaced = words(file, pages).filter((w) => w.yMax > freeBand && w.yMin < perforation - 1);
      expect(misplaced).toEqual([]);
    },
  );

  it('gives a credit note no payment part and says that nothing is to be paid', async () => {
    const invoice = sampleInvoice('CHF', upgradeLines(), {
      kind: 'CREDIT_NOTE',
      reason: 'VOID',
      number: '2026-000130',
      relatedInvoice: { uuid: '0d7c2a8e-2f6b-4c36-8a8e-5b0f5b7f3a10', number: '2026-000123' },
    });
    const file = save(await render(invoice, 'de', QR_IBAN_CREDITOR));
    expect(pageCount(file)).toBe(1);
    expect(await qrCodesOfPaymentPart(file, 1)).toEqual([]);
    const text = pdfText(file);
    expect(text).toContain('Gutschrift 2026-000130');
    expect(text).toContain('Diese Gutschrift storniert die Rechnung 2026-000123');
    expect(text).not.toContain('Zahlteil');
  });

  it.each([
    [
      'PAID',
      { status: 'PAID', paidMinor: 7_835, paidAt: '2026-11-30T23:30:00Z' },
      'wurde am 01.12.2026 bezahlt',
    ],
    [
      'VOID',
      {
        status: 'VOID',
        relatedInvoice: { uuid: '0d7c2a8e-2f6b-4c36-8a8e-5b0f5b7f3a10', number: '2026-000130' },
      },
      'mit der Gutschrift 2026-000130 storniert',
    ],
  ] as const)('gives a %s invoice no payment part and says why', async (_, overrides, sentence) => {
    const invoice = sampleInvoice('CHF', upgradeLines(), overrides as Partial<Invoice>);
    const file = save(await render(invoice, 'de', QR_IBAN_CREDITOR));
    expect(await qrCodesOfPaymentPart(file, 1)).toEqual([]);
    expect(pdfText(file).replace(/\s+/g, ' ')).toContain(sentence);
  });
});
