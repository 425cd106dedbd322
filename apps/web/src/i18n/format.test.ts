import { describe, expect, it } from 'vitest';
import {
  formatCurrency,
  formatDate,
  formatDay,
  formatDayRange,
  formatMoney,
  formatNumber,
  formatRelativeTime,
} from './format.ts';

describe('format', () => {
  it('formats dates per locale', () => {
    const date = '2026-03-05T10:00:00Z';
    expect(formatDate(date, 'de')).toBe('5. März 2026');
    expect(formatDate(date, 'fr')).toBe('5 mars 2026');
    expect(formatDate(date, 'it')).toBe('5 marzo 2026');
    expect(formatDate(date, 'en')).toBe('5 March 2026');
  });

  it('formats numbers and currency per locale', () => {
    expect(formatNumber(1234.5, 'de')).toMatch(/^1[’']234\.5$/);
    expect(formatCurrency(1234.5, 'CHF', 'fr')).toMatch(/^1\s?234[.,]50\sCHF$/);
    expect(formatCurrency(10, 'EUR', 'en')).toBe('€10.00');
  });
});

describe('money and days', () => {
  it('formats minor units in the conventions of the account’s country', () => {
    expect(formatMoney(123450, 'CHF', { locale: 'de', country: 'CH' })).toMatch(/^CHF\s1[’']234\.50$/);
    expect(formatMoney(123450, 'CHF', { locale: 'en', country: 'CH' })).toMatch(/^CHF\s1[’']234\.50$/);
    expect(formatMoney(123450, 'EUR', { locale: 'de', country: 'DE' })).toBe('1.234,50\u00a0€');
    expect(formatMoney(-905, 'CHF', { locale: 'fr', country: 'CH' })).toMatch(/^-9[.,]05\sCHF$/);
    expect(formatMoney(5, 'EUR', { locale: 'en' })).toBe('€0.05');
  });

  it('formats calendar days without a time-zone shift', () => {
    expect(formatDay('2026-03-01', 'de')).toBe('1. März 2026');
    expect(formatDayRange('2026-11-01', '2026-12-01', 'de')).toBe('1.–30. November 2026');
    expect(formatDayRange('2026-11-15', '2027-11-15', 'en')).toMatch(
      /^15 November 2026\s–\s14 November 2027$/,
    );
  });
});

describe('relative time', () => {
  const now = Date.parse('2026-03-05T10:00:00Z');
  it('names the largest fitting unit, and "now" under a minute', () => {
    expect(formatRelativeTime(now - 20_000, 'de', now)).toBe('jetzt');
    expect(formatRelativeTime(now - 5 * 60_000, 'de', now)).toBe('vor 5 Minuten');
    expect(formatRelativeTime(now - 3 * 3600_000, 'en', now)).toBe('3 hours ago');
    expect(formatRelativeTime(now - 26 * 3600_000, 'de', now)).toBe('gestern');
    expect(formatRelativeTime(now - 10 * 86400_000, 'fr', now)).toBe('la semaine dernière');
  });
});
