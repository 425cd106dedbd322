import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors.ts';
import { errorKey } from './api.ts';
import { formatMinor, formatReference } from './format.ts';

describe('billing staff formats', () => {
  it('shows minor units as money of the currency', () => {
    expect(formatMinor(123450, 'CHF')).toMatch(/^CHF\s1[’']234\.50$/);
    expect(formatMinor(5, 'CHF')).toMatch(/^CHF\s0\.05$/);
  });

  it('prints references in their groups', () => {
    expect(formatReference('210000000003139471430009017')).toBe('21 00000 00003 13947 14300 09017');
    expect(formatReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
  });

  it('names a refused change by its field problem, else by its code', () => {
    expect(errorKey(new ApiError(422, 'x', 'VALIDATION_FAILED', { file: 'camtDoctype' }))).toBe(
      'camtDoctype',
    );
    expect(errorKey(new ApiError(409, 'x', 'ALREADY_IMPORTED', { file: 'camtAlreadyImported' }))).toBe(
      'camtAlreadyImported',
    );
    expect(errorKey(new ApiError(409, 'x', 'INVOICE_HAS_PAYMENTS'))).toBe('INVOICE_HAS_PAYMENTS');
    expect(errorKey(new ApiError(422, 'x', 'VALIDATION_FAILED'))).toBeNull();
    expect(errorKey(new Error('network'))).toBeNull();
  });
});
