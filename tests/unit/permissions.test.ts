// docs/product-rules.md#permission-model: identifier matching with wildcards and menu visibility (the rules canAccess answers menu entries by).
import { describe, expect, it } from 'vitest';
import { hasPermission, identifierCovers, identifierMatches } from '../../resources/permissions';
import { MENU, type MenuNode } from '../../resources/menu';
import { RESOURCES } from '../../resources';
import { canAccessAs } from '../../src/permissions/canAccess';
import { visibleMenu } from '../../src/permissions/menuVisibility';

/** canAccess's route guard of a menu entry (may the holder open its screen?). */
const mayOpen = (who: Parameters<typeof canAccessAs>[0], node: MenuNode) => canAccessAs(who)({ resource: `menu.${node.key}`, action: 'list' });

const holder = (...identifiers: Array<string | [number, string]>) => ({
  superAdmin: false,
  permissions: identifiers.map((entry) => (Array.isArray(entry) ? { id: entry[0], identifier: entry[1] } : { id: 99_999, identifier: entry })),
});

const keys = (nodes: MenuNode[]): string[] => nodes.map((node) => node.key);
const find = (nodes: MenuNode[], key: string): MenuNode | undefined =>
  nodes.find((node) => node.key === key) ?? nodes.flatMap((node) => node.children).find((node) => node.key === key);

describe('identifier matching', () => {
  it('matches exactly and with * on either side', () => {
    expect(identifierMatches('user:add', 'user:add')).toBe(true);
    expect(identifierMatches('user:*', 'user:add')).toBe(true);
    expect(identifierMatches('user:add', 'user:*')).toBe(true);
    expect(identifierMatches('*', 'anything:at:all')).toBe(true);
    expect(identifierMatches('user:*', 'role:add')).toBe(false);
    expect(identifierMatches('user.add', 'userXadd')).toBe(false); // dots are literal
  });

  it('identifierCovers is one-way: a target with * needs a granted pattern at least as wide', () => {
    expect(identifierCovers('user:add', 'user:add')).toBe(true);
    expect(identifierCovers('user:*', 'user:add')).toBe(true);
    expect(identifierCovers('user:*', 'user:*')).toBe(true);
    expect(identifierCovers('*', 'user:*')).toBe(true);
    expect(identifierCovers('*', '*')).toBe(true);
    expect(identifierCovers('user:add', 'user:*')).toBe(false);
    expect(identifierCovers('user:page', '*')).toBe(false);
    expect(identifierCovers('user:*', '*')).toBe(false);
    expect(identifierCovers('user:*', 'role:add')).toBe(false);
    expect(identifierCovers('user:*', 'user*')).toBe(false);
    expect(identifierCovers('user.add', 'userXadd')).toBe(false); // dots are literal
  });

  it('hasPermission: superAdmin, any of the required, null holder, empty list refused', () => {
    expect(hasPermission({ superAdmin: true, permissions: [] }, ['x:y'])).toBe(true);
    expect(hasPermission(holder('role:*'), ['user:add', 'role:edit'])).toBe(true);
    expect(hasPermission(holder('role:*'), ['user:add'])).toBe(false);
    expect(hasPermission(null, ['user:add'])).toBe(false);
    expect(() => hasPermission(holder('a'), [])).toThrow();
  });
});

describe('menu visibility', () => {
  it('superAdmin sees every entry shown in the menu (and no hidden tab)', () => {
    const menu = visibleMenu({ superAdmin: true, permissions: [] });
    expect(keys(menu)).toEqual(['home', 'search', 'installation', 'reports', 'service', 'promotion', 'apis', 'systemSettings']);
    expect(keys(find(menu, 'installation')!.children)).toEqual(['fleetManagement']); // rvmpage is inMenu: false
    expect(keys(find(menu, 'reports')!.children)).toEqual(['report', 'notifications']);
    expect(find(menu, 'service')!.children).toHaveLength(23);
  });

  it('Home is always visible, even with no permission or no user', () => {
    expect(keys(visibleMenu(holder()))).toEqual(['home']);
    expect(keys(visibleMenu(null))).toEqual(['home']);
    expect(keys(find(visibleMenu(null), 'home')!.children)).toEqual(['index']);
  });

  it('shows the quarantine overview under Home only with home:quarantineOverview (or superAdmin)', () => {
    expect(keys(find(visibleMenu(holder('search')), 'home')!.children)).toEqual(['index']);
    expect(keys(find(visibleMenu(holder('home:quarantineOverview')), 'home')!.children)).toEqual(['index', 'quarantineOverview']);
    expect(keys(find(visibleMenu({ superAdmin: true }), 'home')!.children)).toEqual(['index', 'quarantineOverview']);
    const node = find(MENU, 'home')!.children.find((child) => child.key === 'quarantineOverview')!;
    expect(mayOpen(holder('search'), node)).toBe(false);
    expect(mayOpen(holder('home:quarantineOverview'), node)).toBe(true);
  });

  it.each([
    [1, 'search'],
    [2, 'installation'],
    [3, 'reports'],
    [6, 'service'],
    [113, 'promotion'],
  ])('menu id %i opens the %s area with all its children', (id, key) => {
    const menu = visibleMenu(holder([id, 'unrelated:thing']));
    expect(keys(menu)).toEqual(['home', key]);
    const area = MENU.find((node) => node.key === key)!;
    // a declared resource's list (service/events) still needs its page permission, as below
    const screens = new Set(RESOURCES.map((declaration) => declaration.route));
    expect(find(menu, key)!.children.length).toBe(area.children.filter((child) => child.inMenu && !screens.has(child.route ?? '')).length);
  });

  it('a child id does not alias a top-level area', () => {
    expect(keys(visibleMenu(holder([2101, 'x'])))).toEqual(['home']);
  });

  it('a child identifier shows its parent with that child only', () => {
    const menu = visibleMenu(holder('service:performance'));
    expect(keys(menu)).toEqual(['home', 'service']);
    expect(keys(find(menu, 'service')!.children)).toEqual(['performance']);
  });

  it('wildcards match nodes and children', () => {
    // every APIs screen is a declared resource's list: its page permission is needed too (docs/api-hookups.md)
    expect(keys(visibleMenu(holder('apis:cs*')))).toEqual(['home']);
    const menu = visibleMenu(holder('apis:cs*', 'cs*:page'));
    expect(keys(find(menu, 'apis')!.children)).toEqual(['csApi', 'csApiTransaction', 'csThridApp']);
    expect(keys(visibleMenu(holder('service:*')))).toEqual(['home', 'service']);
  });

  it('a resource screen needs the permission its route guard asks for, even inside a granted area', () => {
    // /systemSettings/user is the user list, guarded by 'user:page': without it the entry would lead to /401
    expect(keys(visibleMenu(holder([21, 'systemSettings'])))).toEqual(['home']);
    expect(keys(visibleMenu(holder('systemSettings:*')))).toEqual(['home']);
    expect(keys(visibleMenu(holder('systemSettings:user', 'user:export')))).toEqual(['home']);
    const menu = visibleMenu(holder([21, 'systemSettings'], 'role:page'));
    expect(keys(find(menu, 'systemSettings')!.children)).toEqual(['role']);
  });

  it('a half-checked directory (stored with its checked descendants) opens only those', () => {
    // the role editor's selection for "Reports" plus the one button "User: export"
    const reportsAndButton = holder([3, 'reports'], 'reports:showreport', 'reports:report', 'reports:notifications', [21, 'systemSettings'], 'systemSettings:user', 'user:export');
    expect(keys(visibleMenu(reportsAndButton))).toEqual(['home', 'reports']);
    // notifications is the report-notification list, guarded by its resource's 'reportNotification:page'
    expect(keys(find(visibleMenu(reportsAndButton), 'reports')!.children)).toEqual(['report']);
    const withSubscriptions = holder([3, 'reports'], 'reports:report', 'reports:notifications', 'reportNotification:page');
    expect(keys(find(visibleMenu(withSubscriptions), 'reports')!.children)).toEqual(['report', 'notifications']);
    const performanceOnly = visibleMenu(holder([6, 'service'], 'service:performance'));
    expect(keys(find(performanceOnly, 'service')!.children)).toEqual(['performance']);
  });

  it("a resource permission shows the menu entry the resource lives under ('user:page' -> Users)", () => {
    const menu = visibleMenu(holder('user:page'));
    expect(keys(menu)).toEqual(['home', 'systemSettings']);
    expect(keys(find(menu, 'systemSettings')!.children)).toEqual(['user']);
  });

  it('a hidden tab permission makes its parent screen openable but shows nothing new in the sidebar', () => {
    const user = holder('installation:rvmpage:RemoteControl');
    expect(keys(find(visibleMenu(user), 'installation')?.children ?? [])).toEqual([]);
    const rvmpage = MENU.find((node) => node.key === 'installation')!.children.find((node) => node.key === 'rvmpage')!;
    expect(mayOpen(user, rvmpage)).toBe(true);
    expect(mayOpen(holder('search'), rvmpage)).toBe(false);
    // the sidebar's question: the Installation area is openable but lists nothing for this user
    expect(canAccessAs(user)({ resource: 'menu.installation', action: 'list' })).toBe(true);
    expect(canAccessAs(user)({ resource: 'menu.installation', action: 'menu' })).toBe(false);
  });

  it('does not mutate the shared menu tree', () => {
    const before = JSON.stringify(MENU);
    visibleMenu(holder('service:performance'));
    expect(JSON.stringify(MENU)).toBe(before);
  });
});
