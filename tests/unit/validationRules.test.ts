// resources/validation.ts, rule by rule: each field kind's message and catalogue code, the bounds at
// their exact edges, empty against missing, and how cross-field rules compare values.
import { describe, expect, it } from 'vitest';
import { checkPassword, ruleIssues, validateField, validateRecord } from '../../resources/validation';
import type { CrossFieldRule, FieldDeclaration } from '../../resources/types';

const check = (field: FieldDeclaration, value: unknown) => validateField('f', field, value, 'create');
const rule = (kind: CrossFieldRule['kind']): { rules: CrossFieldRule[] } => ({ rules: [{ kind, field: 'a', other: 'b', message: 'm.rule' }] });
const RULE_ISSUE = { field: 'a', message: 'm.rule', code: '1004' };

describe('password length edges (6 to 20)', () => {
  it('accepts exactly 6 and exactly 20 characters, refuses 5 and 21', () => {
    expect(checkPassword('a1!aaa')).toBeNull();
    expect(checkPassword('a1!aa')).toBe('validation.passwordLength');
    expect(checkPassword(`a1!${'a'.repeat(17)}`)).toBeNull();
    expect(checkPassword(`a1!${'a'.repeat(18)}`)).toBe('validation.passwordLength');
    expect(checkPassword(undefined)).toBe('validation.required');
  });

  it('a password field answers 1002 for its length and 1004 for its content', () => {
    expect(check({ type: 'password' }, 'a1!')).toEqual({ field: 'f', message: 'validation.passwordLength', code: '1002' });
    expect(check({ type: 'password' }, 'abcdef!')).toEqual({ field: 'f', message: 'validation.digit', code: '1004' });
    expect(check({ type: 'password' }, 'Admin@123')).toBeNull();
  });
});

describe('empty values', () => {
  it('null, blank text and an empty list count as missing', () => {
    for (const value of [undefined, null, '', '   ', []]) {
      expect(check({ type: 'multiReference', required: true }, value), JSON.stringify(value)).toEqual({ field: 'f', message: 'validation.required', code: '1001' });
    }
    expect(check({ type: 'text', required: true }, null)).toEqual({ field: 'f', message: 'validation.required', code: '1001' });
    expect(check({ type: 'text' }, null)).toBeNull();
  });

  it('false, 0 and a non-empty list are values', () => {
    expect(check({ type: 'boolean', required: true }, false)).toBeNull();
    expect(check({ type: 'number', required: true }, 0)).toBeNull();
    expect(check({ type: 'multiReference', required: true }, [3])).toBeNull();
  });
});

describe('numbers', () => {
  it('refuses text and NaN, then non-integers where integers are declared', () => {
    expect(check({ type: 'number' }, '3')).toEqual({ field: 'f', message: 'validation.number', code: '1003' });
    expect(check({ type: 'number' }, Number.NaN)).toEqual({ field: 'f', message: 'validation.number', code: '1003' });
    expect(check({ type: 'number', integer: true }, 2.5)).toEqual({ field: 'f', message: 'validation.integer', code: '1003' });
    expect(check({ type: 'number' }, 2.5)).toBeNull();
  });

  it('checks decimals only when a scale is declared', () => {
    expect(check({ type: 'number', scale: 2 }, 0.125)).toEqual({ field: 'f', message: 'validation.scale', values: { scale: 2 }, code: '1004' });
    expect(check({ type: 'number', scale: 2 }, 0.12)).toBeNull();
    expect(check({ type: 'number' }, 0.125)).toBeNull();
  });

  it('accepts min and max themselves, refuses one beyond', () => {
    const field = { type: 'number', min: 11, max: 149 } as const;
    expect(check(field, 11)).toBeNull();
    expect(check(field, 149)).toBeNull();
    expect(check(field, 10)).toEqual({ field: 'f', message: 'validation.min', values: { min: 11 }, code: '1004' });
    expect(check(field, 150)).toEqual({ field: 'f', message: 'validation.max', values: { max: 149 }, code: '1004' });
    expect(check({ type: 'number' }, -1e9)).toBeNull();
    expect(check({ type: 'number' }, 1e9)).toBeNull();
  });
});

describe('other kinds', () => {
  it('boolean, list, enum and references', () => {
    expect(check({ type: 'boolean' }, 'true')).toEqual({ field: 'f', message: 'validation.boolean', code: '1003' });
    expect(check({ type: 'boolean' }, true)).toBeNull();
    expect(check({ type: 'multiReference' }, 3)).toEqual({ field: 'f', message: 'validation.list', code: '1003' });
    expect(check({ type: 'enum', options: ['a', 2] }, 2)).toBeNull();
    expect(check({ type: 'enum', options: ['a'] }, 'b')).toEqual({ field: 'f', message: 'validation.enum', code: '1004' });
    expect(check({ type: 'enum' }, 'a')).toEqual({ field: 'f', message: 'validation.enum', code: '1004' });
    for (const type of ['reference', 'treeParent'] as const) {
      expect(check({ type }, 5), type).toBeNull();
      expect(check({ type }, '5'), type).toBeNull();
      expect(check({ type }, true), type).toEqual({ field: 'f', message: 'validation.reference', code: '1003' });
      expect(check({ type }, { id: 5 }), type).toEqual({ field: 'f', message: 'validation.reference', code: '1003' });
    }
  });

  it('text kinds need a string', () => {
    expect(check({ type: 'text' }, 5)).toEqual({ field: 'f', message: 'validation.text', code: '1003' });
    expect(check({ type: 'textarea' }, true)).toEqual({ field: 'f', message: 'validation.text', code: '1003' });
    expect(check({ type: 'text' }, 'ok')).toBeNull();
  });

  it('lengths: maxLength itself is allowed; a minimum alone has its own message', () => {
    expect(check({ type: 'text', maxLength: 8 }, 'eightchr')).toBeNull();
    expect(check({ type: 'text', minLength: 3, maxLength: 8 }, 'ab')).toEqual({ field: 'f', message: 'validation.lengthBetween', values: { min: 3, max: 8 }, code: '1002' });
    expect(check({ type: 'text', minLength: 3 }, 'ab')).toEqual({ field: 'f', message: 'validation.minLength', values: { min: 3 }, code: '1002' });
    expect(check({ type: 'text', minLength: 3 }, 'abc')).toBeNull();
  });

  it('email, phone and dates', () => {
    expect(check({ type: 'email' }, 'ann@example.com')).toBeNull();
    expect(check({ type: 'email' }, 'ann@example')).toEqual({ field: 'f', message: 'validation.email', code: '1004' });
    expect(check({ type: 'phone' }, '+852 1234-5678')).toBeNull();
    expect(check({ type: 'phone' }, 'call me')).toEqual({ field: 'f', message: 'validation.phone', code: '1004' });
    expect(check({ type: 'text' }, 'call me')).toBeNull();
    for (const type of ['date', 'datetime'] as const) {
      expect(check({ type }, '2026-02-03'), type).toBeNull();
      expect(check({ type }, 'someday'), type).toEqual({ field: 'f', message: 'validation.date', code: '1003' });
    }
    expect(check({ type: 'text' }, 'someday')).toBeNull();
  });

  it('patterns are Unicode regular expressions, each with its own message (1004)', () => {
    const field = {
      type: 'text',
      patterns: [
        { regex: '^\\p{Lu}', message: 'm.capital' },
        { regex: '\\d', negate: true, message: 'm.noDigit' },
      ],
    } as const;
    expect(check(field, 'Ann')).toBeNull();
    expect(check(field, 'ann')).toEqual({ field: 'f', message: 'm.capital', code: '1004' });
    expect(check(field, 'Ann2')).toEqual({ field: 'f', message: 'm.noDigit', code: '1004' });
  });
});

describe('cross-field rules', () => {
  it('equals compares the values as they are', () => {
    expect(ruleIssues(rule('equals'), { a: 'x', b: 'y' })).toEqual([RULE_ISSUE]);
    expect(ruleIssues(rule('equals'), { a: 'x', b: 'x' })).toEqual([]);
    expect(ruleIssues(rule('equals'), { a: 1, b: '1' })).toEqual([RULE_ISSUE]);
  });

  it('is not checked while either side is empty', () => {
    for (const record of [{ a: 'x' }, { b: 'x' }, { a: 'x', b: '' }, { a: null, b: 'x' }]) {
      expect(ruleIssues(rule('equals'), record), JSON.stringify(record)).toEqual([]);
      expect(ruleIssues(rule('greaterThan'), record), JSON.stringify(record)).toEqual([]);
    }
    expect(ruleIssues({}, { a: 1, b: 2 })).toEqual([]);
  });

  it('greaterThan / after are strict, notGreaterThan allows equality', () => {
    expect(ruleIssues(rule('greaterThan'), { a: 5, b: 5 })).toEqual([RULE_ISSUE]);
    expect(ruleIssues(rule('greaterThan'), { a: 6, b: 5 })).toEqual([]);
    expect(ruleIssues(rule('after'), { a: '2026-01-01T00:00:00Z', b: '2026-01-01T00:00:00Z' })).toEqual([RULE_ISSUE]);
    expect(ruleIssues(rule('notGreaterThan'), { a: 5, b: 5 })).toEqual([]);
    expect(ruleIssues(rule('notGreaterThan'), { a: 6, b: 5 })).toEqual([RULE_ISSUE]);
  });

  it('compares H:mm times of day as minutes, only when the whole text is one', () => {
    expect(ruleIssues(rule('after'), { a: '09:10', b: '9:50' })).toEqual([RULE_ISSUE]);
    expect(ruleIssues(rule('after'), { a: '09:50', b: '09:10' })).toEqual([]);
    // not a time of day, not a date, not a number: nothing to compare
    expect(ruleIssues(rule('after'), { a: 'x9:30', b: '10:00' })).toEqual([]);
    expect(ruleIssues(rule('after'), { a: '09:30x', b: '10:00' })).toEqual([]);
  });

  it('falls back to numbers written as text, and skips values that compare as nothing', () => {
    expect(ruleIssues(rule('greaterThan'), { a: '1e3', b: '0x10' })).toEqual([]);
    expect(ruleIssues(rule('greaterThan'), { a: '0x10', b: '1e3' })).toEqual([RULE_ISSUE]);
    expect(ruleIssues(rule('greaterThan'), { a: 'abc', b: 5 })).toEqual([]);
    expect(ruleIssues(rule('greaterThan'), { a: -5, b: 'abc' })).toEqual([]);
    expect(ruleIssues(rule('greaterThan'), { a: false, b: 5 })).toEqual([]);
  });

  it('validateRecord does not report a rule of a field that already failed', () => {
    const declaration = {
      fields: { a: { type: 'number', max: 10 }, b: { type: 'number' } } as Record<string, FieldDeclaration>,
      rules: [{ kind: 'notGreaterThan', field: 'a', other: 'b', message: 'm.rule' }] as CrossFieldRule[],
    };
    expect(validateRecord(declaration, { a: 50, b: 5 }, 'create')).toEqual([{ field: 'a', message: 'validation.max', values: { max: 10 }, code: '1004' }]);
    expect(validateRecord(declaration, { a: 8, b: 5 }, 'create')).toEqual([RULE_ISSUE]);
  });
});
