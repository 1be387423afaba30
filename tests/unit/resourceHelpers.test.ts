// The small shared helpers of resources/: which fields a view shows, menu and registry look-ups, the
// MCBE figure, and the edges of permission matching (docs/product-rules.md#permission-model).
import { describe, expect, it } from 'vitest';
import { RESOURCES, findResource } from '../../resources';
import { findMenuById, findMenuByKey } from '../../resources/menu';
import { mcbeOf } from '../../resources/performance';
import { hasPermission, identifierMatches } from '../../resources/permissions';
import { defineResource, fieldsFor } from '../../resources/types';
import { user } from '../../resources/user';

const sample = defineResource({
  name: 'sample',
  apiPath: '/sample',
  route: '/sample',
  menuId: 21,
  table: 'sample',
  nameField: 'name',
  scope: 'global',
  fields: {
    name: { type: 'text' },
    stamp: { type: 'datetime', readOnly: true },
    secret: { type: 'password', writeOnly: true },
    pinned: { type: 'text', readOnly: true, views: ['edit'] },
  },
  list: { columns: ['name'], defaultSort: { field: 'name', order: 'ASC' }, filters: [] },
  permissions: {},
});

describe('fieldsFor', () => {
  it('hides read-only fields from forms and write-only fields from list and show; views override both', () => {
    expect(fieldsFor(sample, 'list')).toEqual(['name', 'stamp']);
    expect(fieldsFor(sample, 'show')).toEqual(['name', 'stamp']);
    expect(fieldsFor(sample, 'create')).toEqual(['name', 'secret']);
    expect(fieldsFor(sample, 'edit')).toEqual(['name', 'secret', 'pinned']);
  });
});

describe('look-ups', () => {
  it('finds menu entries by key and by id', () => {
    expect(findMenuByKey('systemSettings')?.id).toBe(21);
    expect(findMenuByKey('quarantineOverview')?.key).toBe('quarantineOverview');
    expect(findMenuByKey('nowhere')).toBeUndefined();
    expect(findMenuById(2)?.key).toBe('installation');
    expect(findMenuById(-1)).toBeUndefined();
  });

  it('finds a resource declaration by name, in the registry or a given one', () => {
    expect(findResource('user')).toBe(user);
    expect(findResource('machine')?.name).toBe('machine');
    expect(findResource('nothing')).toBeUndefined();
    expect(findResource('sample', [...RESOURCES, sample])).toBe(sample);
    expect(findResource('user', [sample])).toBeUndefined();
  });
});

describe('mcbeOf', () => {
  it('is items per error event, none without errors', () => {
    expect(mcbeOf(100, 4)).toBe(25);
    expect(mcbeOf(100, 1)).toBe(100);
    expect(mcbeOf(100, 0)).toBeNull();
    expect(mcbeOf(0, 3)).toBe(0);
  });
});

describe('permission matching edges', () => {
  it('reads everything but * literally in a wildcard pattern', () => {
    expect(identifierMatches('report.*', 'report.view')).toBe(true);
    expect(identifierMatches('report.*', 'reportXview')).toBe(false);
    expect(identifierMatches('a+b:*', 'a+b:x')).toBe(true);
    expect(identifierMatches('a+b:*', 'aab:x')).toBe(false);
    expect(identifierMatches('x:view', 'report.*')).toBe(false);
  });

  it('hasPermission: one matching grant among several is enough; a holder without a list holds nothing', () => {
    const holder = { permissions: [{ identifier: 'role:page' }, { identifier: 'user:*' }] };
    expect(hasPermission(holder, ['user:edit'])).toBe(true);
    expect(hasPermission(holder, ['fleet:page'])).toBe(false);
    expect(hasPermission({ superAdmin: false }, ['user:edit'])).toBe(false);
    expect(hasPermission(undefined, ['user:edit'])).toBe(false);
    expect(() => hasPermission(holder, [])).toThrow('hasPermission needs at least one identifier');
  });
});
