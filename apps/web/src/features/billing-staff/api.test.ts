import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors.ts';
import { errorKey } from './api.ts';

describe('billing staff errors', () => {
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
