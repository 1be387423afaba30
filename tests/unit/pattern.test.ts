// Field patterns run on RE2 (resources/pattern.ts): the same answers as JavaScript's RegExp for what
// both accept, in time that grows with the text only, and a pattern RE2 cannot run refuses values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { patternMatches } from '../../resources/pattern';
import { validateField } from '../../resources/validation';

// Each would backtrack for seconds to hours in JavaScript on the texts below (issue 29 measured 16-86 s).
const CATASTROPHIC = ['^[A-Z0-9]+[A-Z0-9-]*[A-Z0-9]+$', '^(a?a?)+$', '^(a{1,30}){1,30}$', '^(a+)+$', '^(a|aa)*$', '^(\\w+\\s?)*$'];

describe('field patterns on RE2', () => {
  it('answer catastrophic patterns on long hostile texts (a backtracking engine would not return)', () => {
    for (const source of CATASTROPHIC) {
      for (const text of ['A'.repeat(3000) + '!', 'a'.repeat(3000) + '!']) expect(patternMatches(source, text), source).toBe(false);
    }
    expect(patternMatches('^(a?a?)+$', 'a'.repeat(3000))).toBe(true);
  });

  it('answer as RegExp (flag u) does for the patterns both engines run', () => {
    const patterns = [
      '^[0-9]+$',
      '^\\d{3}-\\d{4}$',
      '^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$',
      '^\\p{L}+$',
      '[\\u3400-\\u9fff]',
      '^[\\u{4e00}-\\u{9fff}]+$',
      '\\\\u0041',
      '^\\S+$',
      '\\s',
      '^[^\\s@,]+$',
      'ab|cd',
      '^.{2,4}$',
      '^[.]+$',
      '^(\\+|-)?\\d+(\\.\\d+)?$',
      ...RESOURCES.flatMap((resource) => Object.values(resource.fields).flatMap((field) => (field.patterns ?? []).map((pattern) => pattern.regex))),
    ];
    for (const source of patterns) expect(patternMatches(source, ''), source).not.toBeNull();
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.string({
          unit: fc.constantFrom('a', 'b', 'c', 'd', '1', '2', '-', ':', 'F', 'A', ' ', '\u3000', '\u00a0', '\r', '\n', '\t', '\u2028', '\\', '@', ',', '中', '.', '+', '😀'),
          maxLength: 24,
        }),
        (source, text) => {
          expect(patternMatches(source, text)).toBe(new RegExp(source, 'u').test(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("refuse every value with the pattern's message when the stored pattern cannot run (fail closed)", () => {
    const field = (negate: boolean) => ({ type: 'text' as const, patterns: [{ regex: '^(?!x)', negate, message: 'custom.message' }] });
    expect(patternMatches('^(?!x)', 'abc')).toBeNull();
    for (const negate of [false, true]) expect(validateField('code', field(negate), 'abc', 'create')).toMatchObject({ field: 'code', message: 'custom.message', code: '1004' });
    expect(validateField('code', { type: 'text', patterns: [{ regex: '^[a-c]+$', message: 'm' }] }, 'abc', 'create')).toBeNull();
  });
});
