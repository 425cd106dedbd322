import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './common.ts';
import { formatUid, isPhoneNumber, isPostcode, isVatNumber, isWebAddress, uidProblem } from './company.ts';

describe('Swiss UID', () => {
  // Real UIDs from the commercial register (Nestlé, Migros-Genossenschafts-Bund, Swisscom, UBS).
  it.each(['CHE-105.909.036', 'CHE-105.829.940', 'CHE-101.654.423', 'CHE-101.329.561', 'CHE-116.281.710'])(
    'accepts the real UID %s',
    (uid) => expect(uidProblem(uid)).toBeNull(),
  );

  it.each(['CHE105909036', 'che-105 909 036', ' CHE-101.654.423 '])(
    'accepts %s written differently',
    (uid) => {
      expect(uidProblem(uid)).toBeNull();
      expect(formatUid(uid)).toMatch(/^CHE-\d{3}\.\d{3}\.\d{3}$/);
    },
  );

  it.each(['CHE-105.909.037', 'CHE-101.654.424', 'CHE-123.456.789'])('refuses %s: wrong check digit', (uid) =>
    expect(uidProblem(uid)).toBe('uidCheckDigit'),
  );

  it('refuses a UID whose check digit would be 10 (never issued)', () => {
    // 0000000 3: weighted sum 4·3 = 12, 12 mod 11 = 1, 11 − 1 = 10: no last digit makes it valid.
    for (let last = 0; last <= 9; last += 1)
      expect(uidProblem(`CHE-000.000.03${last}`)).toBe('uidCheckDigit');
  });

  it.each(['105.909.036', 'CHE-105.909.03', 'CHF-105.909.036', 'CHE-105.909.036 MWST', 'DE123456789', ''])(
    'refuses %j: not the UID format',
    (uid) => expect(uidProblem(uid)).toBe('uid'),
  );
});

describe('VAT numbers of other countries', () => {
  it('accepts EU numbers with the state prefix (Greece: EL) and spaces', () => {
    expect(isVatNumber('DE 123 456 789', 'DE')).toBe(true);
    expect(isVatNumber('ATU12345678', 'AT')).toBe(true);
    expect(isVatNumber('EL123456789', 'GR')).toBe(true);
    expect(isVatNumber('FR12345678901', 'FR')).toBe(true);
  });

  it('refuses an EU number without or with another prefix', () => {
    expect(isVatNumber('123456789', 'DE')).toBe(false);
    expect(isVatNumber('FR123456789', 'DE')).toBe(false);
    expect(isVatNumber('DE1', 'DE')).toBe(false);
  });

  it('accepts 4 to 20 letters or digits elsewhere', () => {
    expect(isVatNumber('12-3456789', 'US')).toBe(true);
    expect(isVatNumber('GB123456789', 'GB')).toBe(true);
    expect(isVatNumber('12', 'US')).toBe(false);
    expect(isVatNumber('<script>', 'US')).toBe(false);
  });
});

describe('address and contact', () => {
  it('checks postcodes by country', () => {
    expect(isPostcode('8001', 'CH')).toBe(true);
    expect(isPostcode('0800', 'CH')).toBe(false);
    expect(isPostcode('80331', 'DE')).toBe(true);
    expect(isPostcode('8033', 'DE')).toBe(false);
    expect(isPostcode('9490', 'LI')).toBe(true);
    expect(isPostcode('SW1A 1AA', 'GB')).toBe(true);
    expect(isPostcode('!', 'GB')).toBe(false);
  });

  it('checks phone numbers, e-mail and web addresses', () => {
    expect(isPhoneNumber('+41 44 123 45 67')).toBe(true);
    expect(isPhoneNumber('044 123 45 67')).toBe(true);
    expect(isPhoneNumber('12345')).toBe(false);
    expect(isPhoneNumber('+41 44 abc')).toBe(false);
    expect(isEmailAddress('rechnungen@muster.ch')).toBe(true);
    expect(isEmailAddress('rechnungen@muster')).toBe(false);
    expect(isWebAddress('https://www.muster.ch')).toBe(true);
    expect(isWebAddress('www.muster.ch')).toBe(false);
    expect(isWebAddress('javascript:alert(1)')).toBe(false);
  });
});
