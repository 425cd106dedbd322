import {
  calculateQRReferenceChecksum,
  calculateSCORReferenceChecksum,
  isIBANValid,
  isQRIBAN,
} from 'swissqrbill/utils';

// Payment references and IBANs of the Swiss QR-bill. The check digits come from swissqrbill, the library that
// also renders the payment part, so what is issued and what is printed follow the same rules.

/**
 * The payment reference of an invoice, derived from its number so it is unique and a bank credit finds the invoice
 * again: with a QR-IBAN a 27-digit QR reference (26 digits + mod-10 check digit), with a normal IBAN an ISO 11649
 * creditor reference (RF + two check digits + the number's digits).
 */
export function paymentReference(iban: string, year: number, sequence: number): string {
  const digits = `${year}${String(sequence).padStart(6, '0')}`;
  return isQRIBAN(iban) ? qrReferenceFor(digits) : creditorReferenceFor(digits);
}

/** A QR reference has 27 digits: 26 of content and a check digit (recursive modulo 10). */
const QR_REFERENCE_CONTENT_DIGITS = 26;
/** A creditor reference (ISO 11649) is "RF", two check digits and at most 21 letters or digits. */
const CREDITOR_REFERENCE_BASE_MAX = 21;

const compact = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/**
 * The QR reference for `digits` (up to 26 digits, padded with leading zeros): the content followed by its
 * modulo 10 check digit, 27 digits in all, as a QR-IBAN requires.
 */
export function qrReferenceFor(digits: string): string {
  const content = compact(digits);
  if (!/^\d+$/.test(content) || content.length > QR_REFERENCE_CONTENT_DIGITS) {
    throw new RangeError(`A QR reference holds 1 to ${QR_REFERENCE_CONTENT_DIGITS} digits, got "${digits}"`);
  }
  const padded = content.padStart(QR_REFERENCE_CONTENT_DIGITS, '0');
  return padded + calculateQRReferenceChecksum(padded);
}

/**
 * The ISO 11649 creditor reference ("RF" + two check digits + `base`) for `base`, 1 to 21 letters and digits, as
 * a normal IBAN takes it.
 */
export function creditorReferenceFor(base: string): string {
  const content = compact(base);
  if (!/^[A-Z0-9]+$/.test(content) || content.length > CREDITOR_REFERENCE_BASE_MAX) {
    throw new RangeError(
      `A creditor reference holds 1 to ${CREDITOR_REFERENCE_BASE_MAX} letters or digits, got "${base}"`,
    );
  }
  return `RF${calculateSCORReferenceChecksum(content)}${content}`;
}

/**
 * Whether `iban` is an IBAN the QR-bill accepts: Swiss or Liechtenstein (only those may be a QR-bill's account),
 * 21 characters, with valid modulo 97 check digits. Spaces are ignored.
 */
export function isValidIban(iban: string): boolean {
  const value = compact(iban);
  return /^(CH|LI)\d{7}[A-Z0-9]{12}$/.test(value) && isIBANValid(value);
}

/** Whether `iban` is a valid QR-IBAN (its institution id is 30000–31999): payments to it need a QR reference. */
export function isQrIban(iban: string): boolean {
  return isValidIban(iban) && isQRIBAN(compact(iban));
}

/** The reference type a QR-bill to `iban` carries: a QR reference for a QR-IBAN, a creditor reference otherwise. */
export function referenceTypeFor(iban: string): 'QRR' | 'SCOR' {
  return isQrIban(iban) ? 'QRR' : 'SCOR';
}
