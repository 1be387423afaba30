// The console's side of `scale`: the number input steps by the declared decimals and the form's
// validation (resources/validation.ts, the server's rules) refuses more decimals, never rounds.
import { describe, expect, it } from 'vitest';
import { numberStep } from '../../src/generic/FieldInput';
import { hasAtMostDecimals, validateField } from '../../resources/validation';

describe('scale', () => {
  it('steps the number input by 10^-scale', () => {
    expect(numberStep({ type: 'number', scale: 2 })).toBe(0.01);
    expect(numberStep({ type: 'number', scale: 3 })).toBe(0.001);
    expect(numberStep({ type: 'number', scale: 0 })).toBe(1);
    expect(numberStep({ type: 'number', integer: true })).toBe(1);
    expect(numberStep({ type: 'number' })).toBe('any');
  });

  it('refuses more decimals than declared with 1004', () => {
    expect(hasAtMostDecimals(0.13, 2)).toBe(true);
    expect(hasAtMostDecimals(12, 2)).toBe(true);
    expect(hasAtMostDecimals(0.125, 2)).toBe(false);
    expect(validateField('refund', { type: 'number', scale: 2 }, 0.125, 'create')).toEqual({
      field: 'refund',
      message: 'validation.scale',
      values: { scale: 2 },
      code: '1004',
    });
    expect(validateField('refund', { type: 'number', scale: 2 }, 99.99, 'create')).toBeNull();
  });
});
