// @vitest-environment jsdom
// The <Permission> directive and useHasPermission, rendered inside ra-core with a fake auth provider
// (issue 13's mutation run: the pending state, the fallback and the hook were not observed by any test).
import { cleanup, render, screen } from '@testing-library/react';
import { CoreAdminContext, type AuthProvider } from 'ra-core';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Permission, useHasPermission } from '../../src/permissions/Permission';
import type { UserInfo } from '../../src/providers/session';

afterEach(cleanup);

const userWith = (...identifiers: string[]) =>
  ({ superAdmin: false, permissions: identifiers.map((identifier, index) => ({ id: 9000 + index, identifier })) }) as unknown as UserInfo;

const authWith = (permissions: Promise<UserInfo | null>): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: () => permissions,
});

const inAdmin = (permissions: Promise<UserInfo | null>, children: ReactNode) => <CoreAdminContext authProvider={authWith(permissions)}>{children}</CoreAdminContext>;

const CanProbe = ({ identifiers }: { identifiers: string[] }) => {
  const can = useHasPermission();
  return <span data-testid="can">{String(can(identifiers))}</span>;
};

describe('<Permission>', () => {
  it('shows its children to a holder of one of the identifiers (wildcards included)', async () => {
    render(inAdmin(Promise.resolve(userWith('role:*')), <Permission identifiers={['user:add', 'role:edit']}>granted</Permission>));
    expect(await screen.findByText('granted')).toBeTruthy();
  });

  it('shows the fallback, not the children, to a user without them', async () => {
    render(
      inAdmin(
        Promise.resolve(userWith('role:*')),
        <Permission identifiers={['user:add']} fallback={<span>refused</span>}>
          granted
        </Permission>,
      ),
    );
    expect(await screen.findByText('refused')).toBeTruthy();
    expect(screen.queryByText('granted')).toBeNull();
  });

  it('shows nothing by default to a user without them', async () => {
    const { container } = render(
      inAdmin(
        Promise.resolve(userWith('role:*')),
        <>
          <Permission identifiers={['user:add']}>granted</Permission>
          <Permission identifiers={['role:page']}>
            <span>loaded</span>
          </Permission>
        </>,
      ),
    );
    // the second directive proves the permissions arrived; the first then rendered nothing at all
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(container.textContent).toBe('loaded');
  });

  it('shows neither children nor fallback while the permissions are still loading', async () => {
    const never = new Promise<UserInfo | null>(() => undefined);
    const { container } = render(
      inAdmin(
        never,
        <Permission identifiers={['user:add']} fallback={<span>refused</span>}>
          granted
        </Permission>,
      ),
    );
    // give ra-core's query a few turns to settle, were it not pending
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(container.textContent).toBe('');
  });

  it('treats a superAdmin as holding everything', async () => {
    const superAdmin = { superAdmin: true, permissions: [] } as unknown as UserInfo;
    render(inAdmin(Promise.resolve(superAdmin), <Permission identifiers={['anything:at:all']}>granted</Permission>));
    expect(await screen.findByText('granted')).toBeTruthy();
  });
});

describe('useHasPermission', () => {
  it('answers for the signed-in user: true for a held identifier, false otherwise', async () => {
    render(
      inAdmin(
        Promise.resolve(userWith('user:*')),
        <>
          <CanProbe identifiers={['user:add']} />
          <CanProbe identifiers={['role:add']} />
        </>,
      ),
    );
    await screen.findAllByText('true');
    expect(screen.getAllByTestId('can').map((probe) => probe.textContent)).toEqual(['true', 'false']);
  });
});
