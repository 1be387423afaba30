// Seed-data names shown in the user's language: permissions by identifier (menu titles, resource
// buttons), and react-admin's own lookups of a resource label by its route name.
import { describe, expect, it } from 'vitest';
import { translate as translateCatalogue, type Locale } from '../../i18n';
import { permissionLabel, permissionLabelKey, recordLabel } from '../../src/generic/recordLabels';
import { messagesFor } from '../../src/providers/i18nProvider';
import { role } from '../../resources/role';
import { permission } from '../../resources/permission';

const translator = (locale: Locale) => (key: string, options?: Record<string, unknown>) => {
  const count = typeof options?.smart_count === 'number' ? options.smart_count : undefined;
  const text = translateCatalogue(locale, key, options as Record<string, string | number> | undefined);
  if (text === key) return typeof options?._ === 'string' ? options._ : key;
  const [one, many] = text.split('||||').map((part) => part.trim());
  return count !== undefined && count !== 1 && many ? many : one;
};

describe('permission labels', () => {
  it('finds the label key of menu nodes, resource actions and extra permissions', () => {
    expect(permissionLabelKey('reports')).toEqual({ key: 'menu.reports' });
    expect(permissionLabelKey('systemSettings:user')).toEqual({ key: 'menu.user' });
    expect(permissionLabelKey('user:page')).toEqual({ key: 'generic.permissionActions.page', resource: 'user' });
    expect(permissionLabelKey('user:resetPassword')).toEqual({ key: 'resources.user.actions.resetPassword', resource: 'user' });
    expect(permissionLabelKey('handMade:thing')).toBeUndefined();
    // configured resource types (issue 9): their menu entry and buttons, labelled from the type's own labels
    expect(permissionLabelKey('custom:barcode')).toEqual({ key: 'menu.custom_barcode' });
    expect(permissionLabelKey('custom:barcode:create')).toEqual({ key: 'generic.permissionActions.create', resource: 'barcode' });
  });

  it('labels permissions in each language, falling back to the stored name', () => {
    const en = translator('en');
    const zh = translator('zh');
    expect(permissionLabel(en, { identifier: 'reports', name: 'Reports' })).toBe('Reports');
    expect(permissionLabel(zh, { identifier: 'reports', name: 'Reports' })).toBe('报表');
    expect(permissionLabel(en, { identifier: 'user:export', name: 'User: export' })).toBe('User: Export');
    expect(permissionLabel(zh, { identifier: 'user:export', name: 'User: export' })).toBe('用户：导出');
    expect(permissionLabel(zh, { identifier: 'handMade:thing', name: 'Hand made' })).toBe('Hand made');
    // a configured type whose labels the console does not hold (not active for this user) keeps its stored name
    expect(permissionLabel(zh, { identifier: 'custom:gone', name: 'Gone' })).toBe('Gone');
    expect(permissionLabel(zh, { identifier: 'custom:gone:page', name: 'Gone: list' })).toBe('Gone: list');
    expect(recordLabel(zh, permission, { id: 3, identifier: 'reports', name: 'Reports' })).toBe('报表');
    // resources without a translator keep their name
    expect(recordLabel(zh, role, { id: 1, name: 'Report viewer' })).toBe('Report viewer');
  });
});

describe('react-admin label lookups by route name', () => {
  it('aliases every declaration under its route name', () => {
    const zh = messagesFor('zh') as unknown as { resources: Record<string, { name: string }> };
    expect(zh.resources['systemSettings/role'].name).toBe(zh.resources.role.name);
    expect(zh.resources['systemSettings/user'].name).toBe('用户');
  });
});
