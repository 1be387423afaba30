// canAccess, the console's one permission guard (src/permissions/canAccess.ts, docs/product-rules.md#permission-model):
// what it answers for declared resources, menu entries and plain permission identifiers, and that its kept
// menu answers follow the user and the scope.
import { describe, expect, it } from 'vitest';
import { MENU, type MenuNode } from '../../resources/menu';
import { RESOURCES } from '../../resources';
import { canAccessAs, createAccessRule, declaredIdentifier, identifierRequest, listedMenu, menuResource, type AccessScope } from '../../src/permissions/canAccess';
import { visibleMenu } from '../../src/permissions/menuVisibility';
import { user } from '../../resources/user';
import { permission } from '../../resources/permission';
import { gadget, gizmo } from '../fixtures/gadget';

const holder = (...identifiers: string[]) => ({ superAdmin: false, permissions: identifiers.map((identifier, index) => ({ id: 500_000 + index, identifier })) });
const SUPER = { superAdmin: true, permissions: [] };

describe('canAccess on a declared resource (react-admin name)', () => {
  it("maps react-admin's actions onto the declaration's permissions", () => {
    const may = canAccessAs(holder('user:page', 'user:add'));
    expect(may({ resource: 'systemSettings/user', action: 'list' })).toBe(true); // list is 'page'
    expect(may({ resource: 'systemSettings/user', action: 'page' })).toBe(true);
    expect(may({ resource: 'systemSettings/user', action: 'show' })).toBe(true); // show asks user:page
    expect(may({ resource: 'systemSettings/user', action: 'create' })).toBe(true);
    expect(may({ resource: 'systemSettings/user', action: 'clone' })).toBe(true); // clone is create
    expect(may({ resource: 'systemSettings/user', action: 'edit' })).toBe(false);
    expect(may({ resource: 'systemSettings/user', action: 'delete' })).toBe(false);
    expect(may({ resource: 'systemSettings/user', action: 'export' })).toBe(false);
    expect(may({ resource: 'systemSettings/role', action: 'list' })).toBe(false);
  });

  it('matches wildcards and lets a superAdmin do every action the declaration has, and none it lacks', () => {
    expect(canAccessAs(holder('user:*'))({ resource: 'systemSettings/user', action: 'delete' })).toBe(true);
    expect(canAccessAs(holder('*:export'))({ resource: 'systemSettings/role', action: 'export' })).toBe(true);
    expect(canAccessAs(SUPER)({ resource: 'systemSettings/user', action: 'export' })).toBe(true);
    // the permission declaration has no export: no one may, not even a superAdmin
    expect(declaredIdentifier(permission, 'export')).toBeUndefined();
    expect(canAccessAs(SUPER)({ resource: 'systemSettings/permission', action: 'export' })).toBe(false);
    expect(canAccessAs(SUPER)({ resource: 'systemSettings/user', action: 'fly' })).toBe(false);
    expect(canAccessAs(SUPER)({ resource: 'systemSettings/user', action: 'constructor' })).toBe(false);
  });

  it("answers an extra permission by its last part ('resetPassword' for 'user:resetPassword')", () => {
    expect(declaredIdentifier(user, 'resetPassword')).toBe('user:resetPassword');
    const may = canAccessAs(holder('user:resetPassword'));
    expect(may({ resource: 'systemSettings/user', action: 'resetPassword' })).toBe(true);
    expect(may({ resource: 'systemSettings/user', action: 'disable' })).toBe(false);
    expect(canAccessAs(holder('csThridApp:secret'))({ resource: 'apis/csThridApp', action: 'secret' })).toBe(true);
    expect(canAccessAs(holder('csThridApp:secret'))({ resource: 'apis/ciThridApp', action: 'secret' })).toBe(false);
    expect(canAccessAs(holder('csApiTransaction:resend'))({ resource: 'apis/csApiTransaction', action: 'resend' })).toBe(true);
  });

  it('refuses everything to nobody', () => {
    for (const request of [
      { resource: 'systemSettings/user', action: 'list' },
      { resource: 'deployment', action: 'add' },
      { resource: 'menu.search', action: 'list' },
    ])
      expect(canAccessAs(null)(request)).toBe(false);
  });

  it('reads the scope it is given (a declaration the console never saw, under the Service menu)', () => {
    const scope: AccessScope = { registry: [gadget, gizmo], menu: MENU };
    const may = canAccessAs(holder('gadget:edit'), scope);
    expect(may({ resource: 'service/gadget', action: 'edit' })).toBe(true);
    expect(may({ resource: 'service/gadget', action: 'delete' })).toBe(false); // gadget declares no delete
    expect(canAccessAs(SUPER, scope)({ resource: 'service/gadget', action: 'delete' })).toBe(false);
    // not in the default scope: the name is then read as an identifier, service/gadget:edit, which no one holds
    expect(canAccessAs(holder('gadget:edit'))({ resource: 'service/gadget', action: 'edit' })).toBe(false);
  });
});

describe('canAccess on a permission identifier', () => {
  it('splits an identifier at its last colon, and refuses what is none', () => {
    expect(identifierRequest('installation:rvmpage:RemoteControl')).toEqual({ resource: 'installation:rvmpage', action: 'RemoteControl' });
    expect(identifierRequest('deployment:add')).toEqual({ resource: 'deployment', action: 'add' });
    for (const bad of ['deployment', ':add', 'deployment:']) expect(() => identifierRequest(bad)).toThrow(/not a permission identifier/);
  });

  it('asks for exactly that identifier, wildcards on either side', () => {
    expect(canAccessAs(holder('deployment:*'))(identifierRequest('deployment:approve'))).toBe(true);
    expect(canAccessAs(holder('deployment:add'))(identifierRequest('deployment:approve'))).toBe(false);
    expect(canAccessAs(holder('installation:rvmpage:RemoteControl'))(identifierRequest('installation:rvmpage:RemoteControl'))).toBe(true);
    // a grant of the page is not the tab's identifier (the server checks the identifier itself)
    expect(canAccessAs(holder('installation:rvmpage'))(identifierRequest('installation:rvmpage:RemoteControl'))).toBe(false);
    expect(canAccessAs(SUPER)(identifierRequest('softwareUpgrade:page'))).toBe(true);
    expect(canAccessAs(SUPER)({ resource: '', action: 'page' })).toBe(false);
  });

  it('a declaration name is not its react-admin name: `user` + `add` is the identifier user:add', () => {
    expect(canAccessAs(holder('user:add'))({ resource: 'user', action: 'add' })).toBe(true);
    expect(canAccessAs(holder('user:add'))({ resource: 'user', action: 'create' })).toBe(false);
  });
});

describe('canAccess on menu entries', () => {
  it("'list' opens a screen, 'menu' lists it in the sidebar: a hidden tab's grant opens its page only", () => {
    const may = canAccessAs(holder('installation:rvmpage:RemoteControl'));
    expect(may({ resource: 'menu.rvmpage', action: 'list' })).toBe(true);
    expect(may({ resource: 'menu.RemoteControl', action: 'list' })).toBe(true);
    expect(may({ resource: 'menu.Overview', action: 'list' })).toBe(false);
    expect(may({ resource: 'menu.installation', action: 'menu' })).toBe(false);
    expect(may({ resource: 'menu.rvmpage', action: 'menu' })).toBe(false);
    expect(may({ resource: 'menu.fleetManagement', action: 'list' })).toBe(false);
  });

  it('a resource screen in the menu needs its page permission; the resource type editor a superAdmin', () => {
    const admin = canAccessAs(holder('systemSettings:*'));
    expect(admin({ resource: 'menu.user', action: 'list' })).toBe(false);
    expect(admin({ resource: 'menu.resourceTypes', action: 'list' })).toBe(false);
    expect(canAccessAs(holder('user:page'))({ resource: 'menu.user', action: 'menu' })).toBe(true);
    expect(canAccessAs(SUPER)({ resource: 'menu.resourceTypes', action: 'list' })).toBe(true);
  });

  it('refuses unknown entries and actions', () => {
    expect(canAccessAs(SUPER)({ resource: 'menu.nowhere', action: 'list' })).toBe(false);
    expect(canAccessAs(SUPER)({ resource: 'menu.search', action: 'delete' })).toBe(false);
  });

  it("lists exactly the sidebar's tree (visibleMenu) from the 'menu' answers", () => {
    for (const who of [SUPER, holder('service:performance', 'user:page'), holder('installation:rvmpage:RemoteControl'), null]) {
      const may = canAccessAs(who);
      const answers = Object.fromEntries(walk(MENU).map((node) => [menuResource(node), may({ resource: menuResource(node), action: 'menu' })]));
      expect(listedMenu(MENU, answers)).toEqual(visibleMenu(who));
    }
    expect(listedMenu(MENU, undefined)).toEqual([]); // while the answers load
  });
});

describe('createAccessRule (authProvider.canAccess)', () => {
  it('keeps the menu answers for one user and scope only', () => {
    const rule = createAccessRule();
    const request = { resource: 'menu.performance', action: 'list' };
    expect(rule(holder('service:performance'), request)).toBe(true);
    expect(rule(holder('search'), request)).toBe(false);
    expect(rule(holder('service:performance'), request)).toBe(true);
    expect(rule(null, request)).toBe(false);
  });

  it('reads the scope at each call (configured types come and go)', () => {
    let scope: AccessScope = { registry: RESOURCES, menu: MENU };
    const rule = createAccessRule(() => scope);
    const trainingTask = { resource: 'menu.trainingTask', action: 'list' };
    const area = { resource: 'menu.service', action: 'menu' };
    const who = holder('gizmo:page');
    expect(rule(who, { resource: 'service/gizmo', action: 'list' })).toBe(false);
    expect(rule(who, trainingTask)).toBe(false);
    expect(rule(who, area)).toBe(false);
    scope = { registry: [...RESOURCES, gizmo], menu: MENU };
    expect(rule(who, { resource: 'service/gizmo', action: 'list' })).toBe(true);
    // gizmo lives under Service › trainingTask: its permission shows that entry and its area
    expect(rule(who, trainingTask)).toBe(true);
    expect(rule(who, area)).toBe(true);
  });
});

const walk = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((node) => [node, ...walk(node.children)]);
