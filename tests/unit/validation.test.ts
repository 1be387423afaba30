import { describe, expect, it } from 'vitest';
import { checkPassword, ruleIssues, validateField, validateRecord } from '../../resources/validation';
import { defineResource } from '../../resources/types';
import { user } from '../../resources/user';

describe('password rule', () => {
  it.each([
    ['', 'validation.required'],
    ['a1!', 'validation.passwordLength'],
    ['a1!aaaaaaaaaaaaaaaaaaaa', 'validation.passwordLength'],
    ['abcdef!', 'validation.digit'],
    ['123456!', 'validation.letter'],
    ['abc1234', 'validation.symbol'],
    ['abc12!密码', 'validation.noChinese'],
  ])('%j fails with %s', (value, message) => {
    expect(checkPassword(value)).toBe(message);
  });

  it('accepts a password with a digit, a letter and a symbol', () => {
    expect(checkPassword('Admin@123')).toBeNull();
  });
});

describe('validateField', () => {
  it('answers catalogue codes by kind of failure', () => {
    expect(validateField('name', { type: 'text', required: true }, '  ', 'create')?.code).toBe('1001');
    expect(validateField('name', { type: 'text', maxLength: 8 }, 'ninechars', 'create')).toMatchObject({
      code: '1002',
      message: 'validation.lengthBetween',
      values: { min: 0, max: 8 },
    });
    expect(validateField('sort', { type: 'number' }, '3', 'create')?.code).toBe('1003');
    expect(validateField('sort', { type: 'number', integer: true }, 2.5, 'create')?.code).toBe('1003');
    expect(validateField('height', { type: 'number', min: 11 }, 10, 'create')).toMatchObject({ code: '1004', values: { min: 11 } });
    expect(validateField('type', { type: 'enum', options: ['menu'] }, 'other', 'create')?.code).toBe('1004');
    expect(validateField('email', { type: 'email' }, 'not-an-email', 'create')?.message).toBe('validation.email');
  });

  it('applies requiredOnCreate only when creating', () => {
    const field = { type: 'password', requiredOnCreate: true } as const;
    expect(validateField('password', field, undefined, 'create')?.code).toBe('1001');
    expect(validateField('password', field, undefined, 'edit')).toBeNull();
  });

  it('supports negated patterns (no Chinese characters in a user name)', () => {
    expect(validateField('name', user.fields.name, '张三', 'create')?.message).toBe('validation.noChinese');
    expect(validateField('name', user.fields.name, 'zhang', 'create')).toBeNull();
  });
});

describe('validateRecord', () => {
  it('checks the user declaration: required fields, password rule, confirmation', () => {
    const issues = validateRecord(user, { realname: 'Ann', name: 'ann', password: 'Secret@1', confirmPassword: 'Secret@2' }, 'create');
    expect(issues).toEqual([{ field: 'confirmPassword', message: 'validation.passwordMismatch', code: '1004' }]);
    expect(validateRecord(user, { realname: 'Ann', name: 'ann', password: 'Secret@1', confirmPassword: 'Secret@1' }, 'create')).toEqual([]);
    expect(validateRecord(user, { name: 'ann' }, 'create').map((issue) => issue.field)).toEqual(['realname', 'password', 'confirmPassword']);
  });

  it('on edit checks only the fields sent and ignores read-only ones', () => {
    expect(validateRecord(user, { id: 3, email: 'x@y.z', createTime: 'whatever' }, 'edit')).toEqual([]);
  });

  it('checks cross-field rules: after, greaterThan, notGreaterThan', () => {
    const profile = defineResource({
      name: 'profile',
      apiPath: '/profile',
      route: '/p',
      menuId: 2,
      table: 'profile',
      nameField: 'id',
      scope: 'global',
      fields: {
        onTime: { type: 'datetime' },
        offTime: { type: 'datetime' },
        emptyHeight: { type: 'number' },
        fullHeight: { type: 'number' },
        almostFull: { type: 'number' },
        alreadyFull: { type: 'number' },
      },
      list: { columns: [], defaultSort: { field: 'onTime', order: 'ASC' }, filters: [] },
      permissions: {},
      rules: [
        { kind: 'after', field: 'offTime', other: 'onTime', message: 'validation.endAfterStart' },
        { kind: 'greaterThan', field: 'emptyHeight', other: 'fullHeight', message: 'm.empty' },
        { kind: 'notGreaterThan', field: 'almostFull', other: 'alreadyFull', message: 'm.almost' },
      ],
    });
    const bad = validateRecord(
      profile,
      {
        onTime: '2026-01-01T10:00:00Z',
        offTime: '2026-01-01T09:00:00Z',
        emptyHeight: 20,
        fullHeight: 20,
        almostFull: 90,
        alreadyFull: 80,
      },
      'create',
    );
    expect(bad.map((issue) => issue.message)).toEqual(['validation.endAfterStart', 'm.empty', 'm.almost']);
    const good = validateRecord(
      profile,
      {
        onTime: '2026-01-01T08:00:00Z',
        offTime: '2026-01-01T22:00:00Z',
        emptyHeight: 120,
        fullHeight: 20,
        almostFull: 80,
        alreadyFull: 80,
      },
      'create',
    );
    expect(good).toEqual([]);
  });

  it('checks rules on a stored record merged with an edit (Date values from the database)', () => {
    const window = defineResource({
      name: 'window',
      apiPath: '/w',
      route: '/w',
      menuId: 2,
      table: 'w',
      nameField: 'startTime',
      scope: 'global',
      fields: { startTime: { type: 'datetime' }, endTime: { type: 'datetime' } },
      list: { columns: [], defaultSort: { field: 'startTime', order: 'ASC' }, filters: [] },
      permissions: {},
      rules: [{ kind: 'after', field: 'endTime', other: 'startTime', message: 'validation.endAfterStart' }],
    });
    const stored = { startTime: new Date('2026-01-01T10:00:00Z'), endTime: new Date('2026-01-01T12:00:00Z') };
    expect(ruleIssues(window, { ...stored, endTime: '2026-01-01T09:00:00Z' })).toHaveLength(1);
    expect(ruleIssues(window, { ...stored, endTime: '2026-01-01T13:00:00Z' })).toEqual([]);
    // A field that already failed is not reported twice.
    expect(ruleIssues(window, { ...stored, endTime: '2026-01-01T09:00:00Z' }, new Set(['endTime']))).toEqual([]);
  });

  it('compares times of day for the after rule', () => {
    const schedule = defineResource({
      name: 'schedule',
      apiPath: '/s',
      route: '/s',
      menuId: 2,
      table: 's',
      nameField: 'onTime',
      scope: 'global',
      fields: { onTime: { type: 'text' }, offTime: { type: 'text' } },
      list: { columns: [], defaultSort: { field: 'onTime', order: 'ASC' }, filters: [] },
      permissions: {},
      rules: [{ kind: 'after', field: 'offTime', other: 'onTime', message: 'validation.endAfterStart' }],
    });
    expect(validateRecord(schedule, { onTime: '09:30', offTime: '08:00' }, 'create')).toHaveLength(1);
    expect(validateRecord(schedule, { onTime: '09:30', offTime: '21:00' }, 'create')).toEqual([]);
  });
});
