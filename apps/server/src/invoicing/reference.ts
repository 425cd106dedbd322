import { calculateQRReferenceChecksum, calculateSCORReferenceChecksum, isQRIBAN } from 'swissqrbill/utils';

/**
 * The payment reference of an invoice, derived from its number so it is unique and a bank credit finds the invoice
 * again: with a QR-IBAN a 27-digit QR reference (26 digits + mod-10 check digit), with a normal IBAN an ISO 11649
 * creditor reference (RF + two check digits + the number's digits).
 */
export function paymentReference(iban: string, year: number, sequence: number): string {
  const digits = `${year}${String(sequence).padStart(6, '0')}`;
  if (isQRIBAN(iban)) {
    const base = digits.padStart(26, '0');
    return `${base}${calculateQRReferenceChecksum(base)}`;
  }
  return `RF${calculateSCORReferenceChecksum(digits)}${digits}`;
}
