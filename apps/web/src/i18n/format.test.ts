import { describe, expect, it } from 'vitest';
import { formatCurrency, formatDate, formatNumber } from './format.ts';

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
