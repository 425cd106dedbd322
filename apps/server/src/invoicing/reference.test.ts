import { describe, expect, it } from 'vitest';
import {
  creditorReferenceFor,
  isQrIban,
  isValidIban,
  paymentReference,
  qrReferenceFor,
  referenceTypeFor,
} from './reference.ts';

describe('QR-bill IBANs', () => {
  it.each([
    ['CH93 0076 2011 6238 5295 7', true, false],
    ['CH9300762011623852957', true, false],
    ['ch93 0076 2011 6238 5295 7', true, false],
    ['CH44 3199 9123 0008 8901 2', true, true],
    ['LI21 0881 0000 2324 013A A', true, false],
    // A digit changed: the check digits no longer match.
    ['CH93 0076 2011 6238 5295 8', false, false],
    ['CH44 3199 9123 0008 8901 3', false, false],
    // Valid IBANs of other countries: a QR-bill's account must be Swiss or from Liechtenstein.
    ['DE89 3704 0044 0532 0130 00', false, false],
    ['CH93 0076 2011 6238 5295', false, false],
    ['', false, false],
    ['not an iban', false, false],
  ])('%s: valid %s, QR-IBAN %s', (iban, valid, qr) => {
    expect(isValidIban(iban)).toBe(valid);
    expect(isQrIban(iban)).toBe(qr);
  });

  it('asks a QR reference for a QR-IBAN and a creditor reference for a normal IBAN', () => {
    expect(referenceTypeFor('CH44 3199 9123 0008 8901 2')).toBe('QRR');
    expect(referenceTypeFor('CH93 0076 2011 6238 5295 7')).toBe('SCOR');
  });
});

describe('payment references', () => {
  it.each([
    // The payment standards' sample reference, and short contents padded to 26 digits.
    ['21000000000313947143000901', '210000000003139471430009017'],
    ['21 00000 00003 13947 14300 0901', '210000000003139471430009017'],
    ['1', '000000000000000000000000011'],
    ['2026000123', '000000000000000020260001237'],
    ['0', '000000000000000000000000000'],
  ])('QR reference of %s is %s', (digits, reference) => {
    expect(qrReferenceFor(digits)).toBe(reference);
  });

  it.each(['', '12a', '1'.repeat(27)])('refuses "%s" as QR reference content', (digits) => {
    expect(() => qrReferenceFor(digits)).toThrow(RangeError);
  });

  it.each([
    // ISO 11649's sample, and check digits below 10 keep their leading zero.
    ['539007547034', 'RF18539007547034'],
    ['5390 0754 7034', 'RF18539007547034'],
    ['2026000123', 'RF462026000123'],
    ['INV2026000123', 'RF98INV2026000123'],
    ['2026000006', 'RF042026000006'],
  ])('creditor reference of %s is %s', (base, reference) => {
    expect(creditorReferenceFor(base)).toBe(reference);
  });

  it.each(['', 'RF-1', 'A'.repeat(22)])('refuses "%s" as creditor reference content', (base) => {
    expect(() => creditorReferenceFor(base)).toThrow(RangeError);
  });
});

describe('invoice payment references', () => {
  it.each([
    ['CH44 3199 9123 0008 8901 2', 2026, 123, '000000000000000020260001237'],
    ['CH4431999123000889012', 2027, 1, '000000000000000020270000015'],
    ['CH93 0076 2011 6238 5295 7', 2026, 123, 'RF462026000123'],
    ['CH9300762011623852957', 2026, 6, 'RF042026000006'],
  ])('with %s, invoice %i-%i has reference %s', (iban, year, sequence, reference) => {
    expect(paymentReference(iban, year, sequence)).toBe(reference);
  });
});
