// Pure rules of the shell: route guard, menu highlight, sidebar state, screen registry.
import { describe, expect, it } from 'vitest';
import { afterSignInPath, guardRedirect, guardTarget, loginPathFor, safeNextPath } from '../../src/providers/routeGuard';
import { highlightPath, isActiveRoute } from '../../src/layout/menuHighlight';
import { contentWidth, readSidebarState, SIDEBAR_STORAGE_KEY, sidebarStateFor, toggleSidebar } from '../../src/layout/sidebarState';
import { menuScreenEntries } from '../../src/app/menuScreens';
import { walkMenu } from '../../resources/menu';

describe('route guard', () => {
  it('sends a signed-in user from /, /login and /index to /index/index', () => {
    expect(guardRedirect('/', true)).toBe('/index/index');
    expect(guardRedirect('/login', true)).toBe('/index/index');
    expect(guardRedirect('/login/', true)).toBe('/index/index');
    expect(guardRedirect('/index', true)).toBe('/index/index');
    expect(guardRedirect('/index/index', true)).toBeNull();
    expect(guardRedirect('/service/performance', true)).toBeNull();
    expect(guardRedirect('/nowhere', true)).toBeNull(); // the catch-all then shows /404
  });

  it('lets a signed-out user open only /login, /forgotPassword and /resetPassword', () => {
    expect(guardRedirect('/login', false)).toBeNull();
    expect(guardRedirect('/forgotPassword', false)).toBeNull();
    expect(guardRedirect('/resetPassword', false)).toBeNull();
    for (const path of ['/', '/index/index', '/404', '/401', '/systemSettings/user', '/loginx']) {
      expect(guardRedirect(path, false), path).toBe('/login');
    }
  });
});

describe('deep links opened signed out (issue 9)', () => {
  it('keeps the path and query in the login URL, except for the root and home', () => {
    expect(loginPathFor('/installation/rvmpage', '?id=3')).toBe('/login?next=%2Finstallation%2Frvmpage%3Fid%3D3');
    expect(guardTarget('/installation/rvmpage', '?id=3', false)).toBe('/login?next=%2Finstallation%2Frvmpage%3Fid%3D3');
    for (const path of ['/', '/index', '/index/index', '/login']) expect(loginPathFor(path), path).toBe('/login');
    expect(guardTarget('/login', '?next=%2Fx', false)).toBeNull(); // already there
  });

  it('returns to the kept path after sign-in; only same-origin relative paths, never a signed-out page', () => {
    expect(afterSignInPath('?next=%2Finstallation%2Frvmpage%3Fid%3D3')).toBe('/installation/rvmpage?id=3');
    expect(guardTarget('/login', '?next=%2FsystemSettings%2Fuser', true)).toBe('/systemSettings/user');
    expect(afterSignInPath('')).toBe('/index/index');
    for (const next of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'index/index',
      '/login',
      '/resetPassword?token=a',
      '/',
      '/x\u0000y',
    ]) {
      expect(safeNextPath(`?${new URLSearchParams({ next })}`), next).toBeNull();
      expect(afterSignInPath(`?${new URLSearchParams({ next })}`), next).toBe('/index/index');
    }
  });
});

describe('menu highlight', () => {
  it('uses the path without its last segment beyond three segments', () => {
    expect(highlightPath('/service/performance')).toBe('/service/performance');
    expect(highlightPath('/installation/rvmpage/123')).toBe('/installation/rvmpage');
    expect(highlightPath('/systemSettings/user/5/show')).toBe('/systemSettings/user/5');
    expect(isActiveRoute('/systemSettings/user', '/systemSettings/user/5/show')).toBe(true);
    expect(isActiveRoute('/systemSettings/user', '/systemSettings/userGroups')).toBe(false);
    expect(isActiveRoute(undefined, '/x')).toBe(false);
  });
});

describe('sidebar state', () => {
  it('toggles between 240 and 40 with opened and collapse flags', () => {
    const open = sidebarStateFor(true);
    expect(open).toEqual({ opened: true, width: 240, collapse: false });
    expect(toggleSidebar(open)).toEqual({ opened: false, width: 40, collapse: true });
    expect(toggleSidebar(toggleSidebar(open))).toEqual(open);
  });

  it('content width is window minus sidebar minus 20 px', () => {
    expect(contentWidth(1280, sidebarStateFor(true))).toBe(1020);
    expect(contentWidth(1280, sidebarStateFor(false))).toBe(1220);
  });

  it('reads the persisted state, defaulting to expanded', () => {
    const storage = (value: string | null) => ({ getItem: (key: string) => (key === SIDEBAR_STORAGE_KEY ? value : null) });
    expect(readSidebarState(storage(null)).opened).toBe(true);
    expect(readSidebarState(storage('{"opened":false}'))).toEqual({ opened: false, width: 40, collapse: true });
    expect(readSidebarState(storage('not json')).opened).toBe(true);
  });
});

describe('screen registry', () => {
  const entries = menuScreenEntries(new Set(['/index/index']));
  const byRoute = new Map(entries.map((entry) => [entry.route, entry]));

  it('gives every menu route exactly one page', () => {
    const routes = new Set(walkMenu().flatMap((node) => (node.route ? [node.route] : [])));
    expect(new Set(byRoute.keys())).toEqual(routes);
  });

  it('registered routes are screens, area routes list their screens, the rest are "not available yet"', () => {
    expect(byRoute.get('/index/index')?.kind).toBe('screen');
    expect(byRoute.get('/service/serviceManager')?.kind).toBe('area');
    expect(byRoute.get('/service/performance')?.kind).toBe('notAvailable');
    expect(byRoute.get('/search/search')?.kind).toBe('notAvailable');
  });

  it('a route shared by a parent and its child belongs to the child', () => {
    expect(byRoute.get('/installation/fleetManagement')?.node.key).toBe('fleetManagement');
    expect(byRoute.get('/reports/showreport')?.node.key).toBe('showreport');
  });

  it('leaves out routes served by react-admin resources', () => {
    const routes = menuScreenEntries(new Set(), ['/systemSettings/user']).map((entry) => entry.route);
    expect(routes).not.toContain('/systemSettings/user');
    expect(routes).toContain('/systemSettings/role');
  });
});
