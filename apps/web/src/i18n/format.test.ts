import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDay,
  formatDayRange,
  formatMoney,
  formatRelativeTime,
  formatShortDay,
} from './format.ts';

// The formatters themselves are the contract's and tested there (packages/contract/src/format.test.ts); these
// tests check what the web adds: the interface language as the default, and the same text as the server's.
describe('format', () => {
  it('formats dates in the given language, in Swiss time', () => {
    const date = '2026-03-05T23:30:00Z';
    expect(formatDate(date, 'de')).toBe('6. März 2026');
    expect(formatDate(date, 'fr')).toBe('6 mars 2026');
    expect(formatDate(date, 'it')).toBe('6 marzo 2026');
    expect(formatDate(date, 'en')).toBe('6 March 2026');
  });

  it('writes money the Swiss way in every language, from the API’s minor units', () => {
    expect(formatMoney(123450, 'CHF')).toBe("CHF 1'234.50");
    expect(formatMoney(-905, 'EUR')).toBe('EUR -9.05');
  });

  it('formats calendar days without a time-zone shift', () => {
    expect(formatDay('2026-03-01', 'de')).toBe('1. März 2026');
    expect(formatShortDay('2026-03-01', 'fr')).toBe('01.03.2026');
    expect(formatDayRange('2026-11-01', '2026-12-01', 'de')).toBe('1.–30. November 2026');
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
