// The framework-neutral half of configured types (resources/configuredTypes.ts) and the server's
// regular-expression guard: what the console and the server both rely on.
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { CONFIGURED_TYPE_SCHEMA, configuredText, filterName, toDeclaration, type ConfiguredType } from '../../resources/configuredTypes';
import { definitionIssues } from '../../resources/configuredTypeIssues';
import { validateRecord } from '../../resources/validation';
import { patternProblem } from '../../resources/pattern';
import { BARCODE } from '../server/configuredTypesFixture';

const barcode = BARCODE as unknown as ConfiguredType;

describe('configured types', () => {
  it('become a declaration the generic views and validation use', () => {
    const declaration = toDeclaration(barcode);
    expect(declaration).toMatchObject({ name: 'barcode', apiPath: '/custom/barcode', route: '/systemSettings/barcode', menuId: 21, nameField: 'code', scope: 'custom' });
    expect(Object.keys(declaration.fields)).toEqual(['id', 'code', 'itemType', 'refund', 'active', 'createdTime', 'updatedTime']);
    expect(declaration.fields.refund).toMatchObject({ type: 'number', scale: 2, min: 0, max: 100 });
    expect(declaration.fields.active.defaultValue).toBe(true);
    expect(declaration.permissions).toEqual({
      page: 'custom:barcode:page',
      show: 'custom:barcode:show',
      create: 'custom:barcode:create',
      edit: 'custom:barcode:edit',
      delete: 'custom:barcode:delete',
      export: 'custom:barcode:export',
    });
    expect(declaration.list.filters.map((filter) => filter.name)).toEqual(['codeLike', 'itemType', 'refundRange']);
    expect(filterName({ field: 'made', operator: 'gte' })).toBe('madeFrom');
    const issues = validateRecord(declaration, { code: '12a', itemType: 'pet', refund: 0.125 }, 'create');
    expect(issues.map((issue) => [issue.field, issue.message])).toEqual([
      ['code', 'resources.barcode.patterns.code.0'],
      ['refund', 'validation.scale'],
    ]);
    expect(configuredText(barcode, 'zh', 'resources.barcode.patterns.code.0')).toBe('只能是数字');
    expect(configuredText(barcode, 'en', 'resources.barcode.enums.itemType.pet')).toBe('PET bottle');
    expect(configuredText(barcode, 'en', 'resources.fleet.name')).toBeUndefined();
  });

  it('take singular labels beside the plural ones: the definition schema accepts them and the texts say both forms', () => {
    const valid = new Ajv({ strict: false }).compile(CONFIGURED_TYPE_SCHEMA);
    const named = { ...barcode, singularLabels: { en: 'Barcode', zh: '条码' } };
    expect(valid(named), JSON.stringify(valid.errors)).toBe(true);
    expect(valid({ ...barcode, singularLabels: { en: 'Barcode' } })).toBe(false);
    // its place in the menu: after a screen of its menu parent, or another configured entry
    expect(definitionIssues({ ...barcode, menuParent: 'service', menuAfter: 'events' }, new Set(['barcode']))).toEqual([]);
    expect(definitionIssues({ ...barcode, menuParent: 'service', menuAfter: 'custom_other' }, new Set(['barcode']))).toEqual([]);
    expect(definitionIssues({ ...barcode, menuParent: 'service', menuAfter: 'user' }, new Set(['barcode']))).toEqual([
      { field: 'menuAfter', message: 'errors.9417', values: { entry: 'user' } },
    ]);
    expect(configuredText(named, 'en', 'resources.barcode.name')).toBe('Barcode |||| Barcodes');
    expect(configuredText(barcode, 'en', 'resources.barcode.name')).toBe('Barcodes');
  });

  it('name what does not hold together', () => {
    expect(definitionIssues(barcode, new Set(['barcode']))).toEqual([]);
    const broken = {
      ...barcode,
      nameField: 'nope',
      list: { columns: ['code', 'gone'], defaultSort: { field: 'active', order: 'ASC' as const } },
      fields: { ...barcode.fields, other: { type: 'reference' as const, reference: 'unknown', labels: { en: 'o', zh: 'o' } } },
    };
    expect(definitionIssues(broken, new Set(['barcode'])).map((issue) => [issue.field, issue.message])).toEqual([
      ['fields.other.reference', 'errors.9412'],
      ['nameField', 'errors.9408'],
      ['list.columns.1', 'errors.9408'],
    ]);
  });

  it('refuse regular expressions that are too long, invalid, or that RE2 cannot run', () => {
    // Nested and alternating repetitions are fine on a linear-time engine: they used to be refused.
    for (const safe of ['^[0-9]+$', '^\\d{3}-\\d{4}$', '^[A-Z]{2}[0-9]{6,10}$', '^(jpg|png)$', '^\\p{L}+$', '^(\\+|-)?\\d+$', '(a+)+$', '(a|aa)*$', '^(a{1,30}){1,30}$']) {
      expect(patternProblem(safe), safe).toBeNull();
    }
    for (const unsupported of ['(x)\\1', '(?=a)b', 'a(?!b)', '(?<=a)b', '^(a{1,100}){1,100}$']) expect(patternProblem(unsupported), unsupported).toBe('errors.9406');
    expect(patternProblem('(')).toBe('errors.9407');
    expect(patternProblem('a'.repeat(200))).toBeNull();
    expect(patternProblem('a'.repeat(201))).toBe('errors.9405');
  });
});
