// The menu-visibility rules (src/permissions/menuVisibility.ts, docs/product-rules.md#permission-model) one by one on a small
// menu and registry of its own, so each rule is pinned by a case where only it decides (issue 13: the
// mutation run found whole-area grants, resource-permission grants and the id alias untested).
import { describe, expect, it } from 'vitest';
import type { MenuNode } from '../../resources/menu';
import type { ResourceDeclaration } from '../../resources/types';
import { resourceIdentifiersByMenuId, resourceScreens, visibleMenu } from '../../src/permissions/menuVisibility';

const node = (id: number, identifier: string, children: MenuNode[] = [], extra: Partial<MenuNode> = {}): MenuNode => ({
  id,
  key: identifier,
  identifier,
  type: 'menu',
  inMenu: true,
  children,
  ...extra,
});

/** Only what menu visibility reads of a declaration. */
const declared = (menuId: number, route: string, permissions: Record<string, string | undefined>, extraPermissions?: Record<string, unknown>) =>
  ({ name: route, menuId, route, permissions, extraPermissions }) as unknown as ResourceDeclaration;

const REGISTRY = [
  declared(14, '/a/res', { page: 'res:page' }),
  declared(16, '/a/res3', { page: 'res3:page' }),
  // a resource without a list screen of its own, living under the menu entry d:one
  declared(41, '/d/x', { page: undefined, export: 'dx:export' }, { 'dx:run': {} }),
  declared(51, '/e/x', { edit: 'ex:edit' }),
];

const MENU_UNDER_TEST: MenuNode[] = [
  node(0, 'home', [node(1, 'home:welcome', [], { open: true }), node(2, 'home:quarantine')], { route: '/' }),
  node(10, 'a', [
    node(11, 'a:one', [], { route: '/a/one' }),
    node(12, 'a:two', [node(13, 'a:two:tab', [], { inMenu: false })], { route: '/a/two' }),
    node(14, 'a:res', [node(17, 'a:res:add', [], { inMenu: false })], { route: '/a/res' }),
    // a directory whose only screen is a resource list
    node(15, 'a:three', [node(16, 'a:three:res', [], { route: '/a/res3' })]),
  ]),
  node(30, 'c'),
  node(40, 'd', [node(41, 'd:one', [node(42, 'd:one:a', [], { route: '/d/one/a' })], { route: '/d/one' })]),
  node(50, 'e', [node(51, 'e:one', [], { route: '/e/one' })]),
  node(60, 'sa', [], { route: '/systemSettings/resourceTypes' }),
];

const holder = (...permissions: Array<string | [number, string]>) => ({
  superAdmin: false,
  permissions: permissions.map((entry) => (Array.isArray(entry) ? { id: entry[0], identifier: entry[1] } : { id: 99_999, identifier: entry })),
});

/** Visible keys as an indented outline (children under their parent). */
const outline = (nodes: MenuNode[], depth = 0): string[] => nodes.flatMap((entry) => [`${'  '.repeat(depth)}${entry.key}`, ...outline(entry.children, depth + 1)]);

const visible = (who: Parameters<typeof visibleMenu>[0], includeHidden = true) => outline(visibleMenu(who, { includeHidden, registry: REGISTRY }, MENU_UNDER_TEST));

describe('the declared resources behind menu entries', () => {
  it('lists every permission and extra permission of the resources under each menu id', () => {
    const byMenu = resourceIdentifiersByMenuId([...REGISTRY, declared(41, '/d/y', { page: 'dy:page' })]);
    expect([...byMenu.entries()]).toEqual([
      [14, ['res:page']],
      [16, ['res3:page']],
      [41, ['dx:export', 'dx:run', 'dy:page']],
      [51, ['ex:edit']],
    ]);
  });

  it('maps the list route of each resource with a page permission to that permission', () => {
    expect([...resourceScreens(REGISTRY).entries()]).toEqual([
      ['/a/res', 'res:page'],
      ['/a/res3', 'res3:page'],
    ]);
  });
});

describe('visibleMenu rule by rule', () => {
  it('shows nothing but Home to a signed-out user, and no superAdmin-only screen even at the top', () => {
    expect(visible(null)).toEqual(['home', '  home:welcome']);
  });

  it('treats a holder without a permission list as holding nothing', () => {
    expect(visible({ superAdmin: false })).toEqual(['home', '  home:welcome']);
  });

  it('opens a granted area whole: its screens, their tabs, but not resource lists it does not hold, nor directories left empty', () => {
    expect(visible(holder('a'))).toEqual(['home', '  home:welcome', 'a', '  a:one', '  a:two', '    a:two:tab']);
  });

  it('a resource list held opens its own buttons and tabs', () => {
    expect(visible(holder('res:page'))).toEqual(['home', '  home:welcome', 'a', '  a:res', '    a:res:add']);
  });

  it('shows a granted area without children (a leaf entry)', () => {
    expect(visible(holder('c'))).toEqual(['home', '  home:welcome', 'c']);
  });

  it('shows an entry to a holder of a permission of a resource declared under it, without opening its screens', () => {
    expect(visible(holder('dx:run'))).toEqual(['home', '  home:welcome', 'd', '  d:one']);
  });

  it('a granted leaf stays visible when a resource permission under it is held too', () => {
    expect(visible(holder('e:one', 'ex:edit'))).toEqual(['home', '  home:welcome', 'e', '  e:one']);
  });

  it('a permission id aliases a menu entry at the top level only', () => {
    expect(visible(holder([30, 'unrelated:identifier']))).toEqual(['home', '  home:welcome', 'c']);
    // 11 is a:one's id: below the top, only identifiers count
    expect(visible(holder([11, 'unrelated:identifier']))).toEqual(['home', '  home:welcome']);
  });
});
