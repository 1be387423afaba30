// resources/configuredTypes.ts and configuredTypeIssues.ts in detail: every definitionIssues check (its path, code and edge), the
// declaration toDeclaration builds per field kind, and the texts configuredText resolves.
import { describe, expect, it } from 'vitest';
import {
  configuredRoute,
  configuredText,
  configuredTexts,
  customMenuIdentifier,
  filterName,
  ruleMessageKey,
  toDeclaration,
  type ConfiguredField,
  type ConfiguredType,
} from '../../resources/configuredTypes';
import { definitionIssues } from '../../resources/configuredTypeIssues';

const labels = (en: string, zh = en) => ({ en, zh });
const field = (type: ConfiguredField['type'], extra: Partial<ConfiguredField> = {}): ConfiguredField => ({ type, labels: labels(type), ...extra });

/** A type with one field of each kind that matters below; no issues (first test). */
const TYPE: ConfiguredType = {
  name: 'ticket',
  labels: labels('Tickets', '工单'),
  menuParent: 'service',
  fields: {
    count: field('number', { min: 0, max: 10, scale: 0 }),
    title: field('text', { required: true, minLength: 2, unique: true, patterns: [{ regex: '^[A-Z]', messages: labels('Capital first', '大写开头') }] }),
    note: field('textarea'),
    level: field('enum', {
      options: [
        { value: 'low', labels: labels('Low', '低') },
        { value: 'high', labels: labels('High', '高') },
      ],
      default: 'low',
    }),
    owner: field('reference', { reference: 'user', default: 3 }),
    open: field('boolean', { default: false }),
    due: field('date'),
    price: field('number', { scale: 2 }),
  },
  rules: [{ kind: 'notGreaterThan', field: 'count', other: 'price', messages: labels('Count not above price', '数量不大于价格') }],
  list: {
    columns: ['title', 'level'],
    filters: [
      { field: 'level', operator: 'in', alwaysOn: true },
      { field: 'due', operator: 'lte' },
    ],
  },
  actions: ['page', 'edit'],
};
const RESOURCES = new Set(['user', 'ticket']);

const issuesOf = (changes: Partial<ConfiguredType>) => definitionIssues({ ...TYPE, ...changes }, RESOURCES);
const withField = (name: string, value: ConfiguredField) => issuesOf({ fields: { ...TYPE.fields, [name]: value } });

describe('filterName', () => {
  it("names each operator's filter key", () => {
    expect(['eq', 'like', 'in', 'gte', 'lte', 'range'].map((operator) => filterName({ field: 'due', operator: operator as never }))).toEqual([
      'due',
      'dueLike',
      'dueIn',
      'dueFrom',
      'dueTo',
      'dueRange',
    ]);
    expect(customMenuIdentifier('ticket')).toBe('custom:ticket');
    expect(ruleMessageKey('ticket', 2)).toBe('resources.ticket.rules.2');
  });
});

describe('definitionIssues', () => {
  it('finds nothing wrong with a coherent type', () => {
    expect(definitionIssues(TYPE, RESOURCES)).toEqual([]);
  });

  it('refuses reserved field names (9409)', () => {
    expect(withField('licenseAccountId', field('text'))).toEqual([{ field: 'fields.licenseAccountId', message: 'errors.9409', values: { field: 'licenseAccountId' } }]);
    expect(withField('createdTime', field('text'))).toEqual([{ field: 'fields.createdTime', message: 'errors.9409', values: { field: 'createdTime' } }]);
  });

  it('refuses a minimum above the maximum, accepts them equal (9410)', () => {
    expect(withField('code', field('text', { minLength: 6, maxLength: 5 }))).toEqual([{ field: 'fields.code.minLength', message: 'errors.9410' }]);
    expect(withField('code', field('text', { minLength: 5, maxLength: 5 }))).toEqual([]);
    expect(withField('size', field('number', { min: 3, max: 2 }))).toEqual([{ field: 'fields.size.min', message: 'errors.9410' }]);
    expect(withField('size', field('number', { min: 3, max: 3 }))).toEqual([]);
  });

  it('needs distinct options on an enum (9411)', () => {
    const option = (value: string) => ({ value, labels: labels(value) });
    expect(withField('kind', field('enum'))).toEqual([{ field: 'fields.kind.options', message: 'errors.9411' }]);
    expect(withField('kind', field('enum', { options: [] }))).toEqual([{ field: 'fields.kind.options', message: 'errors.9411' }]);
    expect(withField('kind', field('enum', { options: [option('a'), option('a')] }))).toEqual([{ field: 'fields.kind.options', message: 'errors.9411' }]);
    expect(withField('kind', field('enum', { options: [option('a')] }))).toEqual([]);
  });

  it('needs a reference to a known resource (9412)', () => {
    expect(withField('link', field('reference'))).toEqual([{ field: 'fields.link.reference', message: 'errors.9412', values: { resource: '' } }]);
    expect(withField('link', field('reference', { reference: 'nowhere' }))).toEqual([{ field: 'fields.link.reference', message: 'errors.9412', values: { resource: 'nowhere' } }]);
    expect(withField('link', field('reference', { reference: 'ticket' }))).toEqual([]);
  });

  it('allows unique, filters and the sort only on sortable kinds (9413)', () => {
    expect(withField('note', field('textarea', { unique: true }))).toEqual([{ field: 'fields.note.unique', message: 'errors.9413' }]);
    expect(withField('photo', field('image', { unique: true }))).toEqual([{ field: 'fields.photo.unique', message: 'errors.9413' }]);
    expect(issuesOf({ list: { ...TYPE.list, filters: [{ field: 'note', operator: 'like' }] } })).toEqual([{ field: 'list.filters.0.field', message: 'errors.9413' }]);
    expect(issuesOf({ list: { ...TYPE.list, defaultSort: { field: 'note', order: 'ASC' } } })).toEqual([{ field: 'list.defaultSort.field', message: 'errors.9413' }]);
    expect(issuesOf({ list: { ...TYPE.list, defaultSort: { field: 'due', order: 'ASC' } } })).toEqual([]);
  });

  it('refuses two filters sent under the same key (9411)', () => {
    const filters = [
      { field: 'level', operator: 'eq' as const },
      { field: 'title', operator: 'like' as const },
      { field: 'level', operator: 'eq' as const },
    ];
    expect(issuesOf({ list: { ...TYPE.list, filters } })).toEqual([{ field: 'list.filters', message: 'errors.9411' }]);
    expect(issuesOf({ list: { columns: ['title'] } })).toEqual([]);
  });

  it('names unknown fields wherever a field is referred to (9408), system fields included as known', () => {
    const unknown = (path: string, name: string) => ({ field: path, message: 'errors.9408', values: { field: name } });
    expect(issuesOf({ nameField: 'nope' })).toEqual([unknown('nameField', 'nope')]);
    expect(issuesOf({ nameField: 'createdTime', list: { columns: ['id', 'updatedTime', 'gone'] } })).toEqual([unknown('list.columns.2', 'gone')]);
    expect(issuesOf({ list: { ...TYPE.list, filters: [{ field: 'gone', operator: 'eq' }] } })).toEqual([unknown('list.filters.0.field', 'gone')]);
    expect(issuesOf({ list: { ...TYPE.list, defaultSort: { field: 'gone', order: 'DESC' } } })).toEqual([unknown('list.defaultSort.field', 'gone')]);
    expect(issuesOf({ rules: [{ kind: 'after', field: 'start', other: 'end', messages: labels('x') }] })).toEqual([
      unknown('rules.0.field', 'start'),
      unknown('rules.0.other', 'end'),
    ]);
  });

  it('keeps a required reference from being emptied by a delete (9415), and passes the delete behaviours on', () => {
    expect(withField('owner', field('reference', { reference: 'user', required: true, onDelete: 'setNull' }))).toEqual([
      { field: 'fields.owner.onDelete', message: 'errors.9415' },
    ]);
    expect(withField('owner', field('reference', { reference: 'user', onDelete: 'setNull' }))).toEqual([]);
    expect(withField('owner', field('reference', { reference: 'user', required: true, onDelete: 'cascade' }))).toEqual([]);
    const declared = (onDelete?: 'restrict' | 'setNull' | 'cascade') =>
      toDeclaration({ ...TYPE, fields: { owner: field('reference', { reference: 'user', onDelete }) } }).fields.owner.onDelete;
    expect([declared(), declared('setNull'), declared('cascade')]).toEqual([undefined, 'setNull', 'cascade']);
  });

  it("places the screens under the menu parent's area, never on a screen of the menu (9416)", () => {
    expect(configuredRoute({ name: 'payouts', menuParent: 'service' })).toBe('/service/payouts');
    expect(configuredRoute({ name: 'extra', menuParent: 'search' })).toBe('/search/extra');
    expect(configuredRoute({ name: 'keys', menuParent: 'systemSettings' })).toBe('/systemSettings/keys');
    expect(issuesOf({ name: 'payout' })).toEqual([{ field: 'name', message: 'errors.9416', values: { route: '/service/payout' } }]);
    expect(issuesOf({ name: 'payout', menuParent: 'reports' })).toEqual([]);
  });

  it("needs a default of the field's kind (9414)", () => {
    const bad = (name: string, value: ConfiguredField) => expect(withField(name, value), name).toEqual([{ field: `fields.${name}.default`, message: 'errors.9414' }]);
    const good = (name: string, value: ConfiguredField) => expect(withField(name, value), name).toEqual([]);
    bad('n', field('number', { default: '5' }));
    good('n', field('number', { default: 5.5 }));
    bad('b', field('boolean', { default: 'true' }));
    good('b', field('boolean', { default: true }));
    bad('r', field('reference', { reference: 'user', default: 1.5 }));
    bad('r', field('reference', { reference: 'user', default: '3' }));
    good('r', field('reference', { reference: 'user', default: 3 }));
    bad(
      'e',
      field('enum', {
        options: [
          { value: 'a', labels: labels('a') },
          { value: 'b', labels: labels('b') },
        ],
        default: 'c',
      }),
    );
    good(
      'e',
      field('enum', {
        options: [
          { value: 'a', labels: labels('a') },
          { value: 'b', labels: labels('b') },
        ],
        default: 'b',
      }),
    );
    bad('t', field('text', { default: 5 }));
    good('t', field('text', { default: 'five' }));
    bad('d', field('date', { default: true }));
    good('d', field('date', { default: '2026-01-01' }));
    // a file belongs to one license account: no default fits every record
    bad('f', field('file', { default: 3 }));
  });
});

// built inside each test, not once for the describe block: a mutant must reach the code a test checks
describe('toDeclaration', () => {
  it('places the type under its menu entry with the configured record table and system fields', () => {
    const declaration = toDeclaration(TYPE);
    expect(declaration).toMatchObject({
      name: 'ticket',
      apiPath: '/custom/ticket',
      route: '/service/ticket',
      menuId: 6,
      table: 'configured_record',
      scope: 'custom',
      nameField: 'title',
    });
    expect(Object.keys(declaration.fields)).toEqual(['id', ...Object.keys(TYPE.fields), 'createdTime', 'updatedTime']);
    expect(declaration.fields.id).toStrictEqual({ type: 'number', readOnly: true, views: ['list', 'show'], sortable: true });
    expect(declaration.fields.createdTime).toStrictEqual({ type: 'datetime', readOnly: true, views: ['list', 'show'], sortable: true });
    expect(declaration.fields.updatedTime).toStrictEqual({ type: 'datetime', readOnly: true, views: ['list', 'show'], sortable: true });
    expect(declaration.permissions).toStrictEqual({ page: 'custom:ticket:page', edit: 'custom:ticket:edit' });
    expect(toDeclaration({ ...TYPE, menuParent: 'gone' }).menuId).toBe(0);
  });

  it('turns each field kind into its declaration', () => {
    const declaration = toDeclaration(TYPE);
    expect(declaration.fields.count).toStrictEqual({ type: 'number', min: 0, max: 10, integer: true, sortable: true });
    expect(declaration.fields.price).toStrictEqual({ type: 'number', min: undefined, max: undefined, scale: 2, sortable: true });
    expect(toDeclaration({ ...TYPE, fields: { size: field('number') } }).fields.size).toStrictEqual({ type: 'number', min: undefined, max: undefined, sortable: true });
    expect(declaration.fields.title).toStrictEqual({
      type: 'text',
      required: true,
      minLength: 2,
      maxLength: 255,
      unique: true,
      patterns: [{ regex: '^[A-Z]', negate: undefined, message: 'resources.ticket.patterns.title.0' }],
      sortable: true,
    });
    expect(declaration.fields.note).toStrictEqual({ type: 'textarea', minLength: undefined, maxLength: 4000 });
    expect(toDeclaration({ ...TYPE, fields: { note: field('textarea', { maxLength: 50 }) } }).fields.note.maxLength).toBe(50);
    expect(toDeclaration({ ...TYPE, fields: { mail: field('email') } }).fields.mail).toStrictEqual({ type: 'email', minLength: undefined, maxLength: 255, sortable: true });
    expect(declaration.fields.level).toStrictEqual({ type: 'enum', options: ['low', 'high'], sortable: true, defaultValue: 'low' });
    expect(toDeclaration({ ...TYPE, fields: { kind: field('enum') } }).fields.kind).toStrictEqual({ type: 'enum', options: [], sortable: true });
    expect(declaration.fields.owner).toStrictEqual({ type: 'reference', reference: 'user', sortable: true, defaultValue: 3 });
    expect(declaration.fields.open).toStrictEqual({ type: 'boolean', sortable: true, defaultValue: false });
    expect(declaration.fields.due).toStrictEqual({ type: 'date', sortable: true });
    // an uploaded file's id (docs/files.md): no lengths, nothing to sort by
    expect(toDeclaration({ ...TYPE, fields: { photo: field('image') } }).fields.photo).toStrictEqual({ type: 'image' });
  });

  it('names records by the declared field, else the first text field, else the id', () => {
    expect(toDeclaration({ ...TYPE, nameField: 'due' }).nameField).toBe('due');
    expect(toDeclaration({ ...TYPE, fields: { count: TYPE.fields.count, note: TYPE.fields.note } }).nameField).toBe('id');
  });

  it("builds the list: filters with their keys, the default sort, and the rules' message keys", () => {
    const declaration = toDeclaration(TYPE);
    expect(declaration.list).toStrictEqual({
      columns: ['title', 'level'],
      defaultSort: { field: 'id', order: 'DESC' },
      filters: [
        { name: 'levelIn', field: 'level', operator: 'in', alwaysOn: true },
        { name: 'dueTo', field: 'due', operator: 'lte' },
      ],
    });
    expect(toDeclaration({ ...TYPE, list: { columns: ['due'], defaultSort: { field: 'due', order: 'ASC' } } }).list).toStrictEqual({
      columns: ['due'],
      defaultSort: { field: 'due', order: 'ASC' },
      filters: [],
    });
    expect(declaration.rules).toStrictEqual([{ kind: 'notGreaterThan', field: 'count', other: 'price', message: 'resources.ticket.rules.0' }]);
    expect(toDeclaration({ ...TYPE, rules: undefined }).rules).toStrictEqual([]);
  });
});

describe('configured texts', () => {
  it("gives the type's labels, the system fields' in each language, enums, patterns and rules", () => {
    const texts = configuredTexts(TYPE, 'zh');
    expect(texts.name).toBe('工单');
    expect(texts.fields).toMatchObject({ id: 'ID', createdTime: '创建时间', updatedTime: '更新时间', count: 'number' });
    expect(configuredTexts(TYPE, 'en').fields).toMatchObject({ id: 'ID', createdTime: 'Created', updatedTime: 'Updated' });
    expect(texts.enums).toStrictEqual({ level: { low: '低', high: '高' } });
    expect(texts.patterns).toStrictEqual({ title: { 0: '大写开头' } });
    expect(texts.rules).toStrictEqual({ 0: '数量不大于价格' });
    // a draft enum without options still has texts (definitionIssues refuses it on save)
    expect(configuredTexts({ ...TYPE, fields: { kind: field('enum') }, rules: undefined }, 'en')).toMatchObject({ enums: { kind: {} }, patterns: {}, rules: {} });
  });

  it('configuredText resolves keys under resources.<name>. only, and only to texts', () => {
    expect(configuredText(TYPE, 'en', 'resources.ticket.name')).toBe('Tickets');
    expect(configuredText(TYPE, 'en', 'resources.ticket.fields.updatedTime')).toBe('Updated');
    expect(configuredText(TYPE, 'en', 'resources.ticket.rules.0')).toBe('Count not above price');
    // another type's key of the same length, a text's character, a section, a missing branch
    expect(configuredText(TYPE, 'en', 'resources.ticker.name')).toBeUndefined();
    expect(configuredText(TYPE, 'en', 'resources.ticket.name.0')).toBeUndefined();
    expect(configuredText(TYPE, 'en', 'resources.ticket.fields')).toBeUndefined();
    expect(configuredText(TYPE, 'en', 'resources.ticket.nothing.here')).toBeUndefined();
  });
});
