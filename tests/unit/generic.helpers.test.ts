import { describe, expect, it } from 'vitest';
import { permission } from '../../resources/permission';
import { role } from '../../resources/role';
import { user } from '../../resources/user';
import { eventNotification } from '../../resources/eventNotification';
import { servicePersonnel } from '../../resources/servicePersonnel';
import { RESOURCES } from '../../resources';
import { displayKindFor, filterKindFor, inputKindFor } from '../../src/generic/fieldKinds';
import { formatBytes, formatDateTime, percentOf } from '../../src/generic/format';
import { formValidator } from '../../src/generic/formValidation';
import { enumChoices, fieldLabel, findDeclaration, resourceNameOf } from '../../src/providers/registry';
import { buildTree, checkState, parentIds, toggleNode, visibleRows, walkTree } from '../../src/generic/tree';
import { localToIso, toWireFilters, toWireRecord, toWireSort } from '../../src/providers/wire';
import { displayedFiltersOf, savableFilter } from '../../src/generic/SavedFiltersButton';
import { validateReset } from '../../src/resources/UserRowActions';
import { fieldsFor } from '../../resources/types';

// 1 (dir) -> 2 (menu) -> 4, 5 (buttons); 1 -> 3 (menu, leaf); 6 (root leaf)
const records = [
  { id: 1, parentId: null },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 1 },
  { id: 4, parentId: 2 },
  { id: 5, parentId: 2 },
  { id: 6, parentId: 0 },
];
const roots = buildTree(records, 'parentId');
const node = (id: number) => walkTree(roots).find((candidate) => candidate.id === id)!;

describe('tree', () => {
  it('builds the forest with depths; orphans become roots', () => {
    expect(roots.map((root) => root.id)).toEqual([1, 6]);
    expect(node(4).depth).toBe(2);
    expect(parentIds(roots)).toEqual(['1', '2']);
  });

  it('shows children of expanded nodes only', () => {
    expect(visibleRows(roots, new Set()).map((row) => row.id)).toEqual([1, 6]);
    expect(visibleRows(roots, new Set(['1'])).map((row) => row.id)).toEqual([1, 2, 3, 6]);
    expect(visibleRows(roots, new Set(['1', '2'])).map((row) => row.id)).toEqual([1, 2, 4, 5, 3, 6]);
  });

  it('derives parent state from children', () => {
    expect(checkState(node(1), new Set(['4']))).toBe('indeterminate');
    expect(checkState(node(2), new Set(['4', '5']))).toBe('checked');
    expect(checkState(node(1), new Set(['4', '5']))).toBe('indeterminate');
    expect(checkState(node(1), new Set(['4', '5', '3']))).toBe('checked');
    // a stored parent without children selected shows unchecked
    expect(checkState(node(1), new Set(['1']))).toBe('unchecked');
  });

  it('checking a parent checks its subtree; ancestors of checked nodes are kept', () => {
    expect(toggleNode(roots, node(2), [])).toEqual([1, 2, 4, 5]);
    expect(toggleNode(roots, node(4), [])).toEqual([1, 2, 4]);
    expect(toggleNode(roots, node(1), [])).toEqual([1, 2, 4, 5, 3]);
  });

  it('unchecking a checked parent clears its subtree and drops ancestors left empty', () => {
    expect(toggleNode(roots, node(1), [1, 2, 4, 5, 3])).toEqual([]);
    expect(toggleNode(roots, node(2), [1, 2, 4, 5, 3])).toEqual([1, 3]);
    // an indeterminate parent becomes fully checked
    expect(toggleNode(roots, node(2), [1, 2, 4])).toEqual([1, 2, 4, 5]);
  });
});

describe('field kinds', () => {
  it('maps field types to display components', () => {
    expect(displayKindFor(user.fields.roles)).toBe('referenceChips');
    expect(displayKindFor(permission.fields.parentId)).toBe('reference');
    expect(displayKindFor(user.fields.createTime)).toBe('datetime');
    expect(displayKindFor(permission.fields.type)).toBe('enum');
    expect(displayKindFor(role.fields.description)).toBe('text');
  });

  it('maps field types to inputs', () => {
    expect(inputKindFor(permission.fields.type, 'edit')).toBe('select');
    expect(inputKindFor(permission.fields.parentId, 'edit')).toBe('reference');
    expect(inputKindFor(role.fields.permissions, 'edit')).toBe('treeChecklist');
    expect(inputKindFor(user.fields.roles, 'create')).toBe('referenceArray');
    expect(inputKindFor(user.fields.password, 'create')).toBe('password');
    expect(inputKindFor(user.fields.password, 'edit')).toBe('readOnly');
    // a service person's password is declared for the edit form too: an optional input there
    expect(inputKindFor(servicePersonnel.fields.password, 'edit')).toBe('password');
    expect(inputKindFor(user.fields.createTime, 'edit')).toBe('readOnly');
    expect(inputKindFor(role.fields.description, 'create')).toBe('textarea');
    expect(inputKindFor(user.fields.enabled, 'edit')).toBe('boolean');
    expect(inputKindFor(eventNotification.fields.alarmCodes, 'edit')).toBe('optionList');
    expect(inputKindFor({ type: 'text', display: 'optionList' }, 'edit')).toBe('text'); // no options: plain text
    expect(inputKindFor({ type: 'image' }, 'create')).toBe('upload');
    expect(inputKindFor({ type: 'file' }, 'edit')).toBe('upload');
  });

  it('maps filters to inputs', () => {
    const filter = (name: string) => user.list.filters.find((candidate) => candidate.name === name)!;
    expect(filterKindFor(filter('nameLike'), user.fields.name)).toBe('text');
    expect(filterKindFor(filter('enabled'), user.fields.enabled)).toBe('boolean');
    expect(filterKindFor(filter('createTimeFrom'), user.fields.createTime)).toBe('dateTime');
    expect(filterKindFor(permission.list.filters[2], permission.fields.type)).toBe('select');
    expect(filterKindFor({ name: 'types', field: 'type', operator: 'in' }, permission.fields.type)).toBe('selectMany');
  });

  it('create and edit views follow the declaration', () => {
    expect(fieldsFor(user, 'create')).toContain('password');
    expect(fieldsFor(user, 'edit')).not.toContain('password');
    expect(fieldsFor(user, 'edit')).not.toContain('createTime');
  });
});

describe('wire helpers', () => {
  it('widens datetime filter bounds to the whole local day', () => {
    const wire = toWireFilters(user, { createTimeFrom: '2024-05-01', createTimeTo: '2024-05-02', nameLike: '  ', enabled: false });
    expect(wire).toEqual({ createTimeFrom: new Date(2024, 4, 1).toISOString(), createTimeTo: new Date(2024, 4, 2, 23, 59, 59, 999).toISOString(), enabled: false });
    expect(localToIso('2024-05-01 10:20:30')).toBe(new Date(2024, 4, 1, 10, 20, 30).toISOString());
  });

  it('sorts only by sortable fields', () => {
    expect(toWireSort(user, { field: 'phone', order: 'ASC' })).toEqual({});
    expect(toWireSort(user, { field: 'email', order: 'DESC' })).toEqual({ sort: 'email', order: 'DESC' });
  });

  it('writes declared writable fields only, numbers as numbers', () => {
    expect(toWireRecord(permission, { name: 'x', sort: '3', id: 1, extra: 1 }, 'create', fieldsFor(permission, 'create'))).toEqual({ name: 'x', sort: 3 });
    // on edit an emptied field is sent as null (cleared), but a blank write-only password is left out (the stored one stays)
    const edited = toWireRecord(servicePersonnel, { realName: 'Ann', company: '', password: '' }, 'edit', fieldsFor(servicePersonnel, 'edit'));
    expect(edited).toEqual({ realName: 'Ann', company: null });
    expect(toWireRecord(servicePersonnel, { password: 'new-pin' }, 'edit', fieldsFor(servicePersonnel, 'edit'))).toEqual({ password: 'new-pin' });
  });
});

describe('form validation from the declaration', () => {
  it('answers react-admin errors with i18n keys and values', () => {
    const validate = formValidator(user, 'create', fieldsFor(user, 'create'));
    const errors = validate({ realname: 'Ann', name: 'a', password: 'abc', confirmPassword: 'abd' });
    expect(errors.name).toEqual({ message: 'validation.lengthBetween', args: { min: 2, max: 8 } });
    expect(errors.password.message).toBe('validation.passwordLength');
    expect(validate({ realname: 'Ann', name: 'ann', password: 'Abc@123', confirmPassword: 'Abc@124' }).confirmPassword.message).toBe('validation.passwordMismatch');
    expect(validate({ realname: 'Ann', name: 'ann', password: 'Abc@123', confirmPassword: 'Abc@123' })).toEqual({});
  });

  it('requires missing required fields on create, ignores stored non-editable values on edit', () => {
    expect(formValidator(role, 'create', fieldsFor(role, 'create'))({}).name.message).toBe('validation.required');
    expect(formValidator(user, 'edit', fieldsFor(user, 'edit'))({ realname: 'Ann', name: 'ann', sysUserId: 'bad', createTime: 'x' })).toEqual({});
  });

  it('reset password dialog: password rule and confirmation', () => {
    expect(validateReset({})).toEqual({ password: 'validation.required', confirmPassword: 'validation.required' });
    expect(validateReset({ password: 'abcdefg1', confirmPassword: 'x' }).password).toBe('validation.symbol');
    expect(validateReset({ password: 'Abc@1234', confirmPassword: 'Abc@1235' })).toEqual({ confirmPassword: 'validation.passwordMismatch' });
    expect(validateReset({ password: 'Abc@1234', confirmPassword: 'Abc@1234' })).toEqual({});
  });
});

describe('registry, labels, permissions, formats', () => {
  it('resource names are the menu routes and map back to declarations', () => {
    expect(RESOURCES.map(resourceNameOf)).toEqual([
      'systemSettings/account',
      'systemSettings/user',
      'systemSettings/role',
      'systemSettings/permission',
      'installation/fleet',
      'installation/rvm',
      'service/events',
      'service/eventNotifications',
      'reports/notifications',
      'systemSettings/auditLog',
      'systemSettings/mailOutbox',
      'service/setup',
      'service/setup/deployments',
      'service/assortment',
      'service/mainConfig',
      'service/refund',
      'service/sorting',
      'service/group',
      'service/payout',
      'service/langConfig',
      'service/h30config',
      'service/generateConfigFile',
      'service/generateConfigFile/contents',
      'service/personnalSetting',
      'service/personnalSetting/levels',
      'service/banManagement',
      'promotion/promotionResource',
      'promotion/createPromotionOption',
      'promotion/createPromotionOption/items',
      'promotion/defaultPromotion',
      'apis/csApi',
      'apis/csApiTransaction',
      'apis/csThridApp',
      'apis/ciApi',
      'apis/ciApiTransaction',
      'apis/ciThridApp',
      'apis/statusApi',
      'apis/statusApiTransaction',
      'apis/statusThridApp',
      'apis/tcRvmList',
      'apis/tcTransactionList',
      'apis/notificationList',
    ]);
    expect(findDeclaration(RESOURCES, 'systemSettings/role')).toBe(role);
    expect(findDeclaration(RESOURCES, 'role')).toBe(role);
    expect(fieldLabel(user, 'email')).toBe('resources.user.fields.email');
    expect(enumChoices(permission, 'type')[0]).toEqual({ id: 'directory', name: 'resources.permission.enums.type.directory' });
  });

  it('formats date-times, sizes and percentages', () => {
    expect(formatDateTime('2024-05-01 10:20:30')).toBe('2024-05-01 10:20:30');
    expect(formatDateTime(new Date(2024, 0, 2, 3, 4, 5).toISOString())).toBe('2024-01-02 03:04:05');
    expect(formatDateTime(null)).toBe('');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(percentOf(5, 10)).toBe(50);
    expect(percentOf(5)).toBeNull();
  });

  it('saved filters keep non-empty values and display every applied key', () => {
    expect(savableFilter({ nameLike: 'a', emailLike: '', enabled: false })).toEqual({ nameLike: 'a', enabled: false });
    expect(displayedFiltersOf({ nameLike: 'a', enabled: false })).toEqual({ nameLike: true, enabled: true });
  });
});
