import {
  formatAmount,
  formatRate,
  formatReference,
  formatShortDay,
  formatShortPeriod,
  toMajorUnits,
  type Invoice,
  type InvoiceLine,
  type Language,
  type Plan,
  type PostalAddress,
  DEFAULT_BRAND_COLOR,
} from '@portal/contract';
import type { Brand, Creditor } from '../../config.ts';
import { findPlan } from '../../invoicing/plans.ts';
import { countryName, dayIn, fill, INVOICE_PDF_TEXTS, type InvoicePdfTexts } from './invoice-pdf.texts.ts';

/** An image the PDF can embed: PNG or JPEG (other types, such as SVG, are left out). */
export interface InvoiceLogo {
  bytes: Buffer;
  contentType: string;
}

export interface InvoicePdfInput {
  invoice: Invoice;
  language: Language;
  /** The provider who issues the invoice and receives the payment: the QR-bill's creditor. */
  creditor: Creditor;
  /**
   * The product's brand (BRAND_COLOR, BRAND_LOGO): the provider's name and the title in its colour, a PNG logo above
   * the provider's name (pdfkit embeds PNG and JPEG, not SVG: an SVG logo leaves the letterhead without one).
   */
  brand?: Brand;
  /** The account's company name and its logo from the company profile, which brand the document. */
  companyName: string;
  logo?: InvoiceLogo | null;
  /** The plan catalogue, for the names of the lines' plans (a code no longer in it is printed as it is). */
  plans: readonly Plan[];
  /** The time zone whose calendar day a payment instant falls on (default Europe/Zurich). */
  timeZone?: string;
}

const MM = 72 / 25.4;
const PAGE = { width: 595.28, height: 841.89 };
const LEFT = 20 * MM;
const RIGHT = PAGE.width - 20 * MM;
const WIDTH = RIGHT - LEFT;
const TOP = 15 * MM;
/** Content stops here on a page without the payment part. */
const BOTTOM = PAGE.height - 18 * MM;
/** Space kept free above the perforation line. */
const PERFORATION_GAP = 6 * MM;
/** The address sits where the window of a Swiss C5 envelope with a right window shows it. */
const ADDRESS_LEFT = 118 * MM;
const ADDRESS_TOP = 50 * MM;
const LABEL_WIDTH = 36 * MM;

const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1b1f24';
const MUTED = '#5b636e';
const RULE = '#c9ced6';
/** The brand logo's box above the provider's name. */
const BRAND_LOGO_BOX: [number, number] = [45 * MM, 12 * MM];

/** Table columns, left to right; the numbers are right-aligned. */
const COLUMNS = {
  description: { x: LEFT, width: 82 * MM },
  quantity: { x: LEFT + 82 * MM, width: 14 * MM },
  unit: { x: LEFT + 96 * MM, width: 26 * MM },
  vat: { x: LEFT + 122 * MM, width: 16 * MM },
  amount: { x: LEFT + 138 * MM, width: WIDTH - 138 * MM },
};
const CELL_GAP = 2 * MM;

/** Characters of Windows-1252 beyond Latin-1, the only ones the PDF's standard font has besides Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * `text` in the characters the standard font can show: a letter with an accent it lacks loses the accent (č becomes
 * c), line breaks become spaces, anything else becomes a question mark.
 */
export function printableText(text: string): string {
  let out = '';
  for (const char of text.replace(/\s*[\r\n]+\s*/g, ' ')) {
    const code = char.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)) {
      out += char;
      continue;
    }
    const base = char.normalize('NFD').replace(/\p{M}/gu, '');
    out += base.length === 1 && base.charCodeAt(0) < 0x7f ? base : '?';
  }
  return out;
}

/** Longest name the QR-bill takes for creditor and debtor. */
const QR_NAME_MAX = 70;
const QR_PUNCTUATION: Record<string, string> = {
  '–': '-',
  '—': '-',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
};

/**
 * `text` for the QR code: what the payment part prints (see printableText), limited to the characters the Swiss
 * payment standards allow (Latin-1 and Latin Extended-A, € ): typographic dashes and quotes become plain ones,
 * anything else a question mark.
 */
export function qrText(text: string, max = Infinity): string {
  const allowed = /[\u0020-\u007e\u00a0-\u017f\u0218-\u021b\u20ac]/u;
  const cleaned = [...printableText(text)].map((char) =>
    allowed.test(char) ? char : (QR_PUNCTUATION[char] ?? '?'),
  );
  return cleaned.slice(0, max).join('').trim();
}

function streetLine(address: PostalAddress): string {
  return address.buildingNumber ? `${address.street} ${address.buildingNumber}` : address.street;
}

/** What the document says about paying it; `payable` when it carries the payment part. */
function paymentNote(input: InvoicePdfInput, t: InvoicePdfTexts): { payable: boolean; note: string } {
  const { invoice, language } = input;
  const related = invoice.relatedInvoice?.number ?? '';
  if (invoice.kind === 'CREDIT_NOTE')
    return { payable: false, note: fill(t.creditNoteNoPayment, { number: related }) };
  if (invoice.status === 'VOID') {
    return { payable: false, note: related ? fill(t.voidedBy, { number: related }) : t.voided };
  }
  if (invoice.status === 'PAID') {
    if (!invoice.paidAt) return { payable: false, note: t.paid };
    const day = dayIn(invoice.paidAt, input.timeZone ?? 'Europe/Zurich');
    return { payable: false, note: fill(t.paidOn, { date: formatShortDay(day, language) }) };
  }
  if (outstandingMinor(invoice) <= 0) return { payable: false, note: t.nothingToPay };
  const values = {
    date: formatShortDay(invoice.dueOn, language),
    reference: formatReference(invoice.reference),
  };
  return {
    payable: true,
    note: fill(invoice.status === 'OVERDUE' ? t.paymentTermsOverdue : t.paymentTerms, values),
  };
}

/** What is still to be paid: the total less what was booked against the invoice. */
function outstandingMinor(invoice: Invoice): number {
  return invoice.totalMinor - invoice.paidMinor;
}

function lineDescription(line: InvoiceLine, input: InvoicePdfInput, t: InvoicePdfTexts): string {
  const plan = findPlan(input.plans, line.planCode)?.name ?? line.planCode;
  const period = line.billingPeriod === 'YEARLY' ? t.yearly : t.monthly;
  const template = {
    PLAN: t.linePlan,
    SEATS: t.lineSeats,
    PLAN_CREDIT: t.linePlanCredit,
    SEATS_CREDIT: t.lineSeatsCredit,
  }[line.kind];
  return fill(template, { plan, period });
}

/**
 * Renders an invoice or credit note as an A4 PDF: the provider's letterhead, the account's logo, the address for a
 * window envelope, the lines with VAT per rate and the payable total, and for an invoice still to be paid the
 * Swiss QR-bill payment part at the bottom of the last page (on a page of its own when the lines leave no room).
 */
export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  return renderWith(await loadPdfLibraries(), input);
}

/** pdfkit and swissqrbill load with the first document rendered, not at the server's start (decision 253). */
async function loadPdfLibraries() {
  const [pdfkit, qrBill] = await Promise.all([import('pdfkit'), import('swissqrbill/pdf')]);
  return { PDFDocument: pdfkit.default, SwissQRBill: qrBill.SwissQRBill };
}

type PdfLibraries = Awaited<ReturnType<typeof loadPdfLibraries>>;

function renderWith({ PDFDocument, SwissQRBill }: PdfLibraries, input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, language, creditor } = input;
  const t = INVOICE_PDF_TEXTS[language];
  const { currency } = invoice.totals;
  const money = (minor: number) => formatAmount(minor);
  const credit = invoice.kind === 'CREDIT_NOTE';
  const title = fill(credit ? t.creditNoteTitle : t.invoiceTitle, { number: invoice.number });
  const { payable, note } = paymentNote(input, t);

  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    bufferPages: true,
    lang: { de: 'de-CH', en: 'en-GB', fr: 'fr-CH', it: 'it-CH' }[language],
    info: {
      Title: printableText(`${title} – ${input.companyName}`),
      Author: printableText(creditor.name),
      Subject: title,
      // The invoice's own date, not the moment of rendering: the same state renders the same bytes (PDFKit derives
      // the file's ID from it too), so a settled invoice rendered again for the account's export is byte for byte
      // the one the download gives (decision 240).
      CreationDate: new Date(`${invoice.issuedOn}T00:00:00Z`),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const text = (value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) => {
    doc.text(printableText(value), x, y, { lineBreak: options.width !== undefined, ...options });
    return doc.y;
  };
  const style = (font: string, size: number, color = INK) => doc.font(font).fontSize(size).fillColor(color);
  const rule = (y: number, color = RULE, width = 0.6, from = LEFT) =>
    doc.moveTo(from, y).lineTo(RIGHT, y).lineWidth(width).strokeColor(color).stroke();

  // Letterhead: the brand's logo and the provider on the left, the account's logo on the right.
  const brandLogo = drawBrandLogo(doc, input.brand);
  style(BOLD, 13, accentOf(input));
  let y =
    text(creditor.name, LEFT, brandLogo ? TOP + BRAND_LOGO_BOX[1] + 3 * MM : TOP, { width: 95 * MM }) + 2;
  style(REGULAR, 8.5, MUTED);
  const providerLines = [
    streetLine(creditor.address),
    `${creditor.address.postcode} ${creditor.address.city}`,
    creditor.address.country === 'CH' ? null : countryName(creditor.address.country, language),
    creditor.vatNumber ? `${t.providerVatNumber} ${creditor.vatNumber}` : null,
    [creditor.email, creditor.website].filter(Boolean).join(' · '),
  ];
  for (const line of providerLines) if (line) y = text(line, LEFT, y, { width: 95 * MM });
  drawLogo(doc, input.logo);

  // Address block, for a window envelope, and the document's facts beside it.
  const billedTo = invoice.billedTo;
  style(BOLD, 10);
  let addressY = text(billedTo.name, ADDRESS_LEFT, ADDRESS_TOP, { width: RIGHT - ADDRESS_LEFT });
  style(REGULAR, 10);
  const address = billedTo.address;
  const addressLines = address
    ? [
        streetLine(address),
        `${address.postcode} ${address.city}`,
        address.country === creditor.address.country ? null : countryName(address.country, language),
      ]
    : [];
  for (const line of addressLines) {
    if (line) addressY = text(line, ADDRESS_LEFT, addressY, { width: RIGHT - ADDRESS_LEFT });
  }

  const facts: [string, string][] = [[t.issuedOn, formatShortDay(invoice.issuedOn, language)]];
  if (!credit) facts.push([t.dueOn, formatShortDay(invoice.dueOn, language)]);
  facts.push([t.servicePeriod, formatShortPeriod(invoice.periodStart, invoice.periodEnd, language)]);
  if (payable) facts.push([t.reference, formatReference(invoice.reference)]);
  if (billedTo.vatNumber) facts.push([t.customerVatNumber, billedTo.vatNumber]);
  if (billedTo.purchaseOrder) facts.push([t.purchaseOrder, billedTo.purchaseOrder]);
  if (invoice.relatedInvoice)
    facts.push([credit ? t.creditNoteFor : t.creditedBy, invoice.relatedInvoice.number]);
  // Below the letterhead (a brand logo makes it longer), beside the address.
  let factsY = Math.max(ADDRESS_TOP, y + 4 * MM);
  const factsWidth = ADDRESS_LEFT - LEFT - LABEL_WIDTH - 6 * MM;
  for (const [label, value] of facts) {
    style(REGULAR, 8.5, MUTED);
    text(label, LEFT, factsY, { width: LABEL_WIDTH });
    style(REGULAR, 8.5);
    factsY = text(value, LEFT + LABEL_WIDTH, factsY, { width: factsWidth }) + 2;
  }

  y = Math.max(addressY, factsY) + 10 * MM;
  style(BOLD, 15, accentOf(input));
  y = text(title, LEFT, y, { width: WIDTH }) + 4 * MM;

  // The lines.
  const header = (top: number) => {
    style(BOLD, 8, MUTED);
    text(t.columnDescription, COLUMNS.description.x, top, { width: COLUMNS.description.width });
    text(t.columnQuantity, COLUMNS.quantity.x, top, { width: COLUMNS.quantity.width, align: 'right' });
    text(t.columnUnitPrice, COLUMNS.unit.x, top, { width: COLUMNS.unit.width, align: 'right' });
    text(t.columnVat, COLUMNS.vat.x, top, { width: COLUMNS.vat.width, align: 'right' });
    text(fill(t.columnAmount, { currency }), COLUMNS.amount.x, top, {
      width: COLUMNS.amount.width,
      align: 'right',
    });
    const below = top + 11;
    rule(below, INK, 0.8);
    return below + 5;
  };
  const newPage = () => {
    doc.addPage({ size: 'A4', margin: 0 });
    return TOP;
  };
  y = header(y);
  for (const line of invoice.lines) {
    const description = lineDescription(line, input, t);
    // Credits are for the unused rest of a period; charges say when they cover only part of one.
    const isCredit = line.kind === 'PLAN_CREDIT' || line.kind === 'SEATS_CREDIT';
    const qualifier = isCredit ? t.unusedTime : line.prorated ? t.prorated : null;
    const detail = [formatShortPeriod(line.periodStart, line.periodEnd, language), qualifier]
      .filter(Boolean)
      .join(' · ');
    const descriptionWidth = COLUMNS.description.width - CELL_GAP;
    style(REGULAR, 9);
    const height =
      doc.heightOfString(printableText(description), { width: descriptionWidth }) +
      style(REGULAR, 8).heightOfString(printableText(detail), { width: descriptionWidth }) +
      7;
    if (y + height > BOTTOM) y = header(newPage());
    style(REGULAR, 9);
    const detailY = text(description, COLUMNS.description.x, y, { width: descriptionWidth }) + 1;
    const numbers: [keyof typeof COLUMNS, string][] = [
      ['quantity', String(line.quantity)],
      ['unit', money(line.unitMinor)],
      ['vat', formatRate(line.vatRateBp, language)],
      ['amount', money(line.netMinor)],
    ];
    for (const [column, value] of numbers) {
      text(value, COLUMNS[column].x, y, { width: COLUMNS[column].width, align: 'right' });
    }
    style(REGULAR, 8, MUTED);
    const bottom = text(detail, COLUMNS.description.x, detailY, { width: descriptionWidth });
    y = bottom + 3;
    rule(y);
    y += 4;
  }

  // Totals: net, VAT per rate, rounding, payable total.
  const totals = invoice.totals;
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: t.netTotal, value: money(totals.netMinor) },
  ];
  for (const vat of totals.vat) {
    const label = fill(t.vatOn, { rate: formatRate(vat.rateBp, language), amount: money(vat.netMinor) });
    rows.push({ label, value: money(vat.vatMinor) });
  }
  if (totals.vat.length > 1) rows.push({ label: t.vatTotal, value: money(totals.vatMinor) });
  if (totals.roundingMinor !== 0) rows.push({ label: t.rounding, value: money(totals.roundingMinor) });
  rows.push({
    label: fill(credit ? t.creditTotal : t.total, { currency }),
    value: money(totals.totalMinor),
    strong: true,
  });
  const partlyPaid = payable && invoice.paidMinor > 0;
  if (partlyPaid) {
    rows.push({ label: t.alreadyPaid, value: money(-invoice.paidMinor) });
    rows.push({
      label: fill(t.outstanding, { currency }),
      value: money(outstandingMinor(invoice)),
      strong: true,
    });
  }
  const labelX = COLUMNS.quantity.x;
  const labelWidth = COLUMNS.amount.x - labelX - CELL_GAP;
  const totalsHeight = rows.length * 15 + 10;
  if (y + totalsHeight > BOTTOM) y = newPage();
  y += 2;
  for (const row of rows) {
    if (row.strong) {
      rule(y - 3, INK, 0.8, labelX);
      y += 2;
    }
    style(row.strong ? BOLD : REGULAR, row.strong ? 10 : 9);
    text(row.label, labelX, y, { width: labelWidth });
    const after = text(row.value, COLUMNS.amount.x, y, { width: COLUMNS.amount.width, align: 'right' });
    y = after + (row.strong ? 7 : 4);
  }

  // What to do with it, and thanks.
  style(REGULAR, 9);
  const noteHeight = doc.heightOfString(printableText(note), { width: WIDTH }) + 24;
  if (y + 5 * MM + noteHeight > BOTTOM) y = newPage() - 5 * MM;
  y = text(note, LEFT, y + 5 * MM, { width: WIDTH }) + 4;
  text(t.thanks, LEFT, y, { width: WIDTH });

  if (payable) attachPaymentPart(SwissQRBill, doc, input, t);

  const pages = doc.bufferedPageRange().count;
  if (pages > 1) {
    for (let page = 0; page < pages; page += 1) {
      doc.switchToPage(page);
      style(REGULAR, 7.5, MUTED);
      text(fill(t.page, { page: String(page + 1), pages: String(pages) }), LEFT, 8 * MM, {
        width: WIDTH,
        align: 'right',
      });
    }
  }
  doc.end();
  return done;
}

/** The colour of the provider's name and the title: the brand's. */
const accentOf = (input: InvoicePdfInput) => input.brand?.color ?? DEFAULT_BRAND_COLOR;

/** The brand's PNG logo at the top left; false without one (or for an SVG, which the PDF library cannot embed). */
function drawBrandLogo(doc: PDFKit.PDFDocument, brand: Brand | undefined): boolean {
  if (brand?.logo?.contentType !== 'image/png') return false;
  try {
    doc.image(brand.logo.bytes, LEFT, TOP, { fit: BRAND_LOGO_BOX, valign: 'center' });
    return true;
  } catch {
    return false;
  }
}

function drawLogo(doc: PDFKit.PDFDocument, logo: InvoiceLogo | null | undefined): void {
  if (!logo || !['image/png', 'image/jpeg'].includes(logo.contentType)) return;
  const box: [number, number] = [55 * MM, 22 * MM];
  try {
    doc.image(logo.bytes, RIGHT - box[0], TOP, { fit: box, align: 'right' });
  } catch {
    // An image the PDF library cannot read leaves the letterhead without a logo rather than failing the invoice.
  }
}

/**
 * The QR-bill payment part: the provider as creditor, the billed-to company as debtor, the amount still owed, the
 * payment reference (QR reference with a QR-IBAN, creditor reference with an IBAN) and the invoice number as
 * message. It goes to the bottom of the last page, or to a new A4 page when the content reaches its perforation.
 */
function attachPaymentPart(
  SwissQRBill: PdfLibraries['SwissQRBill'],
  doc: PDFKit.PDFDocument,
  input: InvoicePdfInput,
  t: InvoicePdfTexts,
) {
  /** The payment part takes the bottom 105 mm of an A4 page, below its perforation line. */
  const paymentPartTop = PAGE.height - SwissQRBill.height;
  const { invoice, creditor } = input;
  const party = (name: string, address: PostalAddress) => ({
    name: qrText(name, QR_NAME_MAX),
    address: qrText(address.street),
    ...(address.buildingNumber ? { buildingNumber: qrText(address.buildingNumber) } : {}),
    zip: qrText(address.postcode),
    city: qrText(address.city),
    country: address.country,
  });
  const bill = new SwissQRBill(
    {
      currency: invoice.totals.currency,
      amount: toMajorUnits(outstandingMinor(invoice)),
      creditor: { ...party(creditor.name, creditor.address), account: creditor.iban.replace(/\s+/g, '') },
      // Without a known address the payer fills in the debtor box by hand.
      ...(invoice.billedTo.address ? { debtor: party(invoice.billedTo.name, invoice.billedTo.address) } : {}),
      reference: invoice.reference.replace(/\s+/g, ''),
      message: invoice.number,
    },
    { language: input.language.toUpperCase() as 'DE' | 'EN' | 'FR' | 'IT' },
  );
  if (doc.y > paymentPartTop - PERFORATION_GAP) {
    doc.addPage({ size: 'A4', margin: 0 });
    doc.font(BOLD).fontSize(13).fillColor(accentOf(input));
    doc.text(printableText(creditor.name), LEFT, TOP, { width: WIDTH });
    doc.font(REGULAR).fontSize(10).fillColor(INK);
    doc.text(printableText(fill(t.paymentPartFor, { number: invoice.number })), LEFT, doc.y + 4, {
      width: WIDTH,
    });
  }
  doc.y = paymentPartTop - PERFORATION_GAP;
  bill.attachTo(doc, 0, paymentPartTop);
}
