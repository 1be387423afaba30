// The type editor's model (pure): form values <-> definition (only what a kind has reaches the wire),
// server issue paths -> form inputs, and the editor's own checks of rules across fields.
import { describe, expect, it } from 'vitest';
import type { ConfiguredType } from '../../resources/configuredTypes';
import { defaultOperatorFor, formOf, identifierFromLabel, issuePath, typeOf } from '../../src/resourceTypes/editorModel';
import { validateTypeForm } from '../../src/resourceTypes/editorValidation';

const TYPE: ConfiguredType = {
  name: 'session',
  labels: { en: 'Sessions', zh: '会话' },
  menuParent: 'reports',
  fields: {
    code: { type: 'text', labels: { en: 'Code', zh: '编号' }, required: true, maxLength: 20, patterns: [{ regex: '^[A-Z]+$', messages: { en: 'Capitals', zh: '大写' } }] },
    kind: { type: 'enum', labels: { en: 'Kind', zh: '类型' }, options: [{ value: 'a', labels: { en: 'A', zh: '甲' } }], default: 'a' },
    start: { type: 'datetime', labels: { en: 'Start', zh: '开始' } },
    end: { type: 'datetime', labels: { en: 'End', zh: '结束' } },
    paid: { type: 'number', labels: { en: 'Paid', zh: '已付' }, scale: 2, min: 0 },
    open: { type: 'boolean', labels: { en: 'Open', zh: '开放' }, default: true },
  },
  rules: [{ kind: 'after', field: 'end', other: 'start', messages: { en: 'End after start', zh: '结束须晚于开始' } }],
  list: { columns: ['code', 'kind'], filters: [{ field: 'code', operator: 'like', alwaysOn: true }], defaultSort: { field: 'code', order: 'DESC' } },
  actions: ['page', 'create'],
  status: 'active',
  version: 4,
};

describe('type editor model', () => {
  it("starts a filter with its kind's usual operator: contains for texts", () => {
    expect(['text', 'email', 'phone', 'number', 'boolean', 'enum', 'date'].map((kind) => defaultOperatorFor(kind as never))).toEqual([
      'like',
      'like',
      'like',
      'eq',
      'eq',
      'eq',
      'gte',
    ]);
  });

  it('makes a type identifier from an English label, or none when the label gives no valid one', () => {
    expect(identifierFromLabel('Donation institute')).toBe('donationInstitute');
    expect(identifierFromLabel('  Café  PET-bottles 2 ')).toBe('cafePetBottles2');
    expect(identifierFromLabel('3D printers')).toBe('dPrinters');
    expect(identifierFromLabel('捐赠机构')).toBe('');
    expect(identifierFromLabel('A')).toBe('');
    expect(identifierFromLabel('x'.repeat(50))).toHaveLength(40);
  });

  it('keeps singular labels, a language left empty taking its plural, and none when both are empty', () => {
    const form = { ...formOf(TYPE), singularEn: 'Session', singularZh: '' };
    expect(typeOf(form).singularLabels).toEqual({ en: 'Session', zh: '会话' });
    expect(formOf(typeOf(form))).toMatchObject({ singularEn: 'Session', singularZh: '会话' });
    expect(typeOf({ ...form, singularEn: ' ' }).singularLabels).toBeUndefined();
    expect(issuePath('singularLabels.zh', form)).toBe('singularZh');
    // the menu place: a chosen sibling is sent, "after every other entry" sends nothing
    expect(typeOf({ ...form, menuAfter: 'events' }).menuAfter).toBe('events');
    expect('menuAfter' in typeOf({ ...form, menuAfter: '' })).toBe(false);
    expect(issuePath('menuAfter', form)).toBe('menuAfter');
  });

  it('round-trips a definition through the form (without status and version)', () => {
    const { status: _status, version: _version, ...definition } = TYPE;
    expect(typeOf(formOf(TYPE))).toEqual(definition);
  });

  it('sends only what a kind has, and drops columns, filters and the sort of removed fields', () => {
    const form = formOf(TYPE);
    form.fields[0] = { ...form.fields[0], type: 'number', min: 1, scale: null, options: [{ value: 'x', labelEn: 'X', labelZh: 'X' }] };
    form.fields = form.fields.filter((field) => field.name !== 'kind');
    form.sortField = 'kind';
    const sent = typeOf(form);
    expect(sent.fields.code).toEqual({ type: 'number', labels: { en: 'Code', zh: '编号' }, required: true, min: 1 });
    expect(sent.list.columns).toEqual(['code']);
    expect(sent.list.defaultSort).toBeUndefined();
  });

  it("keeps a reference's delete behaviour: restrict (the default) is not sent, the others are", () => {
    const withFleet = (onDelete?: 'restrict' | 'setNull' | 'cascade'): ConfiguredType => ({
      ...TYPE,
      fields: { ...TYPE.fields, fleet: { type: 'reference', reference: 'fleet', labels: { en: 'Fleet', zh: '机群' }, ...(onDelete ? { onDelete } : {}) } },
    });
    expect(formOf(withFleet()).fields[6].onDelete).toBe('restrict');
    expect(typeOf(formOf(withFleet())).fields.fleet).toEqual({ type: 'reference', reference: 'fleet', labels: { en: 'Fleet', zh: '机群' } });
    expect(typeOf(formOf(withFleet('cascade'))).fields.fleet.onDelete).toBe('cascade');
    expect(issuePath('fields.fleet.onDelete', formOf(withFleet('setNull')))).toBe('fields.6.onDelete');
  });

  it('maps server issue paths to the inputs of the form', () => {
    const form = formOf(TYPE);
    expect(issuePath('labels.zh', form)).toBe('labelZh');
    expect(issuePath('fields.paid.scale', form)).toBe('fields.4.scale');
    expect(issuePath('fields.code.patterns.0.regex', form)).toBe('fields.0.patterns.0.regex');
    expect(issuePath('fields.kind.options.0.labels.zh', form)).toBe('fields.1.options.0.labelZh');
    expect(issuePath('fields.open.default', form)).toBe('fields.5.defaultTrue');
    expect(issuePath('rules.0.messages.en', form)).toBe('rules.0.messageEn');
    expect(issuePath('rules.0.other', form)).toBe('rules.0.other');
    expect(issuePath('list.filters.0.operator', form)).toBe('filters.0.operator');
    expect(issuePath('list.defaultSort.field', form)).toBe('sortField');
    expect(issuePath('somethingElse', form)).toBeNull();
  });

  it('checks rules across fields: both fields known and different, messages in both languages', () => {
    const form = formOf(TYPE);
    expect(validateTypeForm(form, [], false)).toEqual({});
    form.rules = [
      { kind: 'after', field: 'end', other: 'end', messageEn: 'x', messageZh: '' },
      { kind: 'equals', field: 'gone', other: 'start', messageEn: 'y', messageZh: 'y' },
    ];
    expect(validateTypeForm(form, [], false)).toEqual({
      rules: {
        0: { other: 'resourceTypes.validation.ruleSameField', messageZh: 'validation.required' },
        1: { field: 'resourceTypes.validation.unknownField' },
      },
    });
  });

  it('refuses a code-declared name, a reserved field name and a bad regex', () => {
    const form = { ...formOf(TYPE), name: 'user' };
    form.fields[2] = { ...form.fields[2], name: 'createdTime' };
    form.fields[0] = { ...form.fields[0], patterns: [{ regex: '([a-z', messageEn: 'a', messageZh: 'b' }] };
    const errors = validateTypeForm(form, ['user'], true) as { name: string; fields: Record<number, Record<string, unknown>> };
    expect(errors.name).toBe('resourceTypes.validation.nameTaken');
    expect(errors.fields[2].name).toBe('resourceTypes.validation.fieldNameReserved');
    expect(errors.fields[0].patterns).toEqual({ 0: { regex: 'resourceTypes.validation.regexInvalid' } });
  });
});
