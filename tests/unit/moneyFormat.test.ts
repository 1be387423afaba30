// Refund values on the machine page, the session details and the search (src/kit/format.ts):
// in the license account's currency (the LoginAnswer's `currency`), in the console's language.
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/kit/format';

describe('formatMoney', () => {
  it("shows the account's currency with its own decimals, in English and Chinese", () => {
    expect(formatMoney(0.8, 'en', 'HKD')).toBe('HK$0.80');
    expect(formatMoney(1234.5, 'en', 'HKD')).toBe('HK$1,234.50');
    expect(formatMoney(1234.5, 'zh', 'HKD')).toBe('HK$1,234.50');
    expect(formatMoney(12.5, 'en', 'CNY')).toBe('CN¥12.50');
    expect(formatMoney(12.5, 'zh', 'CNY')).toBe('¥12.50');
    expect(formatMoney(0.8, 'en', 'MOP')).toBe('MOP\u00a00.80');
    expect(formatMoney(0, 'en', 'EUR')).toBe('€0.00');
  });

  it('shows a plain two-decimal number without a currency or with a code Intl refuses, and nothing without a value', () => {
    expect(formatMoney(1234.5, 'en')).toBe('1,234.50');
    expect(formatMoney(1234.5, 'en', null)).toBe('1,234.50');
    expect(formatMoney(0.8, 'en', 'dollars')).toBe('0.80');
    expect(formatMoney(null, 'en', 'HKD')).toBe('');
    expect(formatMoney(undefined, 'zh', 'HKD')).toBe('');
  });
});
