import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './common.ts';
import {
  formatAmount,
  formatDate,
  formatDateTime,
  formatDateTimeLong,
  formatDay,
  formatMoney,
  formatPeriod,
  formatRate,
  formatReference,
  formatShortDay,
  formatShortPeriod,
  instantOfSwissWallTime,
  swissWallTime,
  toMajorUnits,
} from './format.ts';

describe('money', () => {
  it('writes minor units the Swiss way: an apostrophe between groups, a point before the decimals', () => {
    expect(formatAmount(123450)).toBe("1'234.50");
    expect(formatAmount(123456789)).toBe("1'234'567.89");
    expect(formatAmount(100_000_000)).toBe("1'000'000.00");
    expect(formatAmount(99999)).toBe('999.99');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(0)).toBe('0.00');
  });

  it('puts a hyphen-minus after the currency code of a negative amount, never between code and figure', () => {
    expect(formatMoney(-32507, 'CHF')).toBe('CHF -325.07');
    expect(formatMoney(-123450, 'EUR')).toBe("EUR -1'234.50");
    expect(formatMoney(-0, 'CHF')).toBe('CHF 0.00');
  });

  it('gives the major units the QR-bill takes', () => {
    expect(toMajorUnits(123450)).toBe(1234.5);
    expect(toMajorUnits(5)).toBe(0.05);
  });

  it('writes CHF and EUR alike, whatever the language (no ICU separators: Italian groups four digits too)', () => {
    expect(formatMoney(123450, 'CHF')).toBe("CHF 1'234.50");
    expect(formatMoney(4500, 'EUR')).toBe('EUR 45.00');
  });

  it('writes a VAT rate with a no-break space before the percent sign, a comma in French', () => {
    expect(formatRate(810, 'de')).toBe('8.1\u00a0%');
    expect(formatRate(810, 'fr')).toBe('8,1\u00a0%');
    expect(formatRate(770, 'it')).toBe('7.7\u00a0%');
    expect(formatRate(0, 'en')).toBe('0\u00a0%');
    expect(formatRate(1900, 'de')).toBe('19\u00a0%');
  });
});

describe('dates', () => {
  it('writes an instant in Swiss time, whatever the machine’s time zone', () => {
    // 23:30 UTC on 31 October is already 1 November in Zurich (UTC+1 in winter).
    expect(formatDate('2027-10-31T23:30:00Z', 'de')).toBe('1. November 2027');
    expect(formatDate('2027-10-31T23:30:00Z', 'fr')).toBe('1er novembre 2027');
    expect(formatDate('2027-11-02T12:00:00Z', 'fr')).toBe('2 novembre 2027');
    expect(formatDate('2027-10-31T23:30:00Z', 'it')).toBe('1 novembre 2027');
    expect(formatDate('2027-10-31T23:30:00Z', 'en')).toBe('1 November 2027');
    expect(formatDateTime('2027-11-01T10:05:00Z', 'de')).toBe('01.11.2027, 11:05');
    expect(formatDateTimeLong('2027-07-01T10:05:00Z', 'de')).toBe('1. Juli 2027 um 12:05');
    expect(formatDateTimeLong('2027-07-01T10:05:00Z', 'fr')).toBe('1er juillet 2027 à 12:05');
    expect(formatDateTimeLong('2027-03-09T23:05:00Z', 'it')).toBe('10 marzo 2027 alle 00:05');
  });

  // One date form per language on a page (issue 23 item 7): tables write the day in figures, with or without the
  // time; running text writes it long, the day without a leading zero ("1 novembre", never "01 novembre").
  it("writes a table's time in the figures of its days, in every language", () => {
    expect(formatDateTime('2027-11-01T10:05:00Z', 'fr')).toBe('01.11.2027, 11:05');
    expect(formatDateTime('2027-11-01T10:05:00Z', 'it')).toBe('01.11.2027, 11:05');
    expect(formatDateTime('2027-11-01T10:05:00Z', 'en')).toBe('01/11/2027, 11:05');
    for (const language of LANGUAGES) {
      expect(
        formatDateTime('2027-11-01T10:05:00Z', language).startsWith(formatShortDay('2027-11-01', language)),
      ).toBe(true);
      expect(formatDay('2027-11-05', language)).not.toMatch(/\b0\d/);
    }
  });

  it('writes a calendar day as the day it names, long or in figures', () => {
    expect(formatDay('2027-11-01', 'de')).toBe('1. November 2027');
    expect(formatDay('2027-11-01', 'it')).toBe('1 novembre 2027');
    for (const language of LANGUAGES.filter((language) => language !== 'en')) {
      expect(formatShortDay('2027-11-01', language)).toBe('01.11.2027');
    }
    expect(formatShortDay('2027-11-01', 'en')).toBe('01/11/2027');
    expect(formatShortDay('2028-02-29', 'fr')).toBe('29.02.2028');
  });

  it('writes a period (its end not included) as its first and last day', () => {
    expect(formatPeriod('2026-11-01', '2026-12-01', 'de')).toBe('1.–30. November 2026');
    expect(formatPeriod('2026-11-01', '2026-12-01', 'fr')).toBe('1er–30 novembre 2026');
    expect(formatPeriod('2026-11-01', '2026-12-01', 'it')).toBe('1–30 novembre 2026');
    expect(formatPeriod('2026-11-15', '2027-11-15', 'en')).toBe('15 November 2026 – 14 November 2027');
    expect(formatPeriod('2026-11-15', '2026-11-16', 'de')).toBe('15. November 2026');
    expect(formatShortPeriod('2026-11-01', '2026-12-01', 'it')).toBe('01.11.2026 – 30.11.2026');
    expect(formatShortPeriod('2026-11-01', '2026-12-01', 'en')).toBe('01/11/2026 – 30/11/2026');
  });
});

describe('payment references', () => {
  it('groups a QR reference as 2 + 5 × 5 digits and a creditor reference in fours', () => {
    expect(formatReference('210000000003139471430009017')).toBe('21 00000 00003 13947 14300 09017');
    expect(formatReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
    expect(formatReference('RF4820260000123')).toBe('RF48 2026 0000 123');
    expect(formatReference('RF18 5390 0754 7034')).toBe('RF18 5390 0754 7034');
  });
});

describe('Swiss wall-clock times', () => {
  it('reads and writes a time in Swiss time, winter and summer, whatever the machine’s zone', () => {
    expect(swissWallTime('2026-12-05T21:00:00.000Z')).toBe('2026-12-05T22:00');
    expect(swissWallTime('2026-07-01T20:30:00.000Z')).toBe('2026-07-01T22:30');
    expect(instantOfSwissWallTime('2026-12-05T22:00')).toBe('2026-12-05T21:00:00.000Z');
    expect(instantOfSwissWallTime('2026-07-01T22:30')).toBe('2026-07-01T20:30:00.000Z');
    // The hour that repeats on 25 October 2026: the earlier one; the hour skipped on 29 March: an hour later.
    expect(instantOfSwissWallTime('2026-10-25T02:30')).toBe('2026-10-25T00:30:00.000Z');
    expect(instantOfSwissWallTime('2026-03-29T02:30')).toBe('2026-03-29T01:30:00.000Z');
  });
});
