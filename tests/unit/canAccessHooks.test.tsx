// @vitest-environment jsdom
// canAccess through react-admin's own hooks and components, as the console wires it (the real authProvider
// with the console's access rule, src/permissions/canAccess.ts): <CanAccess>, useCanAccess, react-admin's
// buttons and the sidebar's listed menu all answer from the signed-in user's permission identifiers.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { CanAccess, CoreAdminContext, ResourceContextProvider, useCanAccess } from 'ra-core';
import { CreateButton } from 'react-admin';
import { createTheme, ThemeProvider } from '@mui/material';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useListedMenu } from '../../src/app/useListedMenu';
import { createAccessRule, identifierRequest } from '../../src/permissions/canAccess';
import { createAuthProvider } from '../../src/providers/authProvider';
import type { HttpClient } from '../../src/providers/httpTypes';
import type { Session, UserInfo } from '../../src/providers/session';
import type { MenuNode } from '../../resources/menu';

afterEach(cleanup);

const userWith = (...identifiers: string[]) =>
  ({ superAdmin: false, permissions: identifiers.map((identifier, index) => ({ id: 9000 + index, identifier })) }) as unknown as UserInfo;

const inAdmin = (user: UserInfo | null, children: ReactNode) => {
  const session = { getUserInfo: () => user, isSignedIn: () => user !== null } as unknown as Session;
  const authProvider = createAuthProvider({} as HttpClient, session, { access: createAccessRule() });
  return (
    <ThemeProvider theme={createTheme()}>
      <CoreAdminContext authProvider={authProvider}>{children}</CoreAdminContext>
    </ThemeProvider>
  );
};

const Probe = ({ label, request }: { label: string; request: { resource: string; action: string } }) => {
  const { canAccess, isPending } = useCanAccess(request);
  return <span data-testid={label}>{isPending ? 'pending' : String(canAccess)}</span>;
};

const MenuProbe = () => {
  const keys = (nodes: MenuNode[]): string[] => nodes.flatMap((node) => [node.key, ...keys(node.children)]);
  return <span data-testid="menu">{keys(useListedMenu()).join(',')}</span>;
};

describe('<CanAccess> with the console authProvider', () => {
  it("shows its children to a holder of the declaration's permission (wildcards included), the denial to others", async () => {
    const guarded = (
      <CanAccess resource="systemSettings/user" action="delete" accessDenied={<span>refused</span>}>
        granted
      </CanAccess>
    );
    render(inAdmin(userWith('user:*'), guarded));
    expect(await screen.findByText('granted')).toBeTruthy();
    cleanup();
    render(inAdmin(userWith('user:page', 'role:*'), guarded));
    expect(await screen.findByText('refused')).toBeTruthy();
    expect(screen.queryByText('granted')).toBeNull();
  });

  it('treats a superAdmin as holding every identifier, a signed-out visitor as holding none', async () => {
    const guarded = (
      <CanAccess {...identifierRequest('anything:at:all')} accessDenied={<span>refused</span>}>
        granted
      </CanAccess>
    );
    render(inAdmin({ superAdmin: true, permissions: [] } as unknown as UserInfo, guarded));
    expect(await screen.findByText('granted')).toBeTruthy();
    cleanup();
    render(inAdmin(null, guarded));
    expect(await screen.findByText('refused')).toBeTruthy();
  });
});

describe('useCanAccess with the console authProvider', () => {
  it('answers declared actions, extra permissions, identifiers and menu entries', async () => {
    render(
      inAdmin(
        userWith('user:resetPassword', 'deployment:approve', 'service:performance'),
        <>
          <Probe label="reset" request={{ resource: 'systemSettings/user', action: 'resetPassword' }} />
          <Probe label="disable" request={{ resource: 'systemSettings/user', action: 'disable' }} />
          <Probe label="approve" request={identifierRequest('deployment:approve')} />
          <Probe label="control" request={identifierRequest('deployment:control')} />
          <Probe label="performance" request={{ resource: 'menu.performance', action: 'list' }} />
          <Probe label="events" request={{ resource: 'menu.events', action: 'list' }} />
        </>,
      ),
    );
    await waitFor(() => expect(screen.queryByText('pending')).toBeNull());
    const answers = ['reset', 'disable', 'approve', 'control', 'performance', 'events'].map((label) => screen.getByTestId(label).textContent);
    expect(answers).toEqual(['true', 'false', 'true', 'false', 'true', 'false']);
  });
});

describe("react-admin's own buttons ask the same canAccess", () => {
  it('CreateButton shows only with the create permission', async () => {
    const button = (
      <ResourceContextProvider value="systemSettings/role">
        <CreateButton />
        <Probe label="settled" request={{ resource: 'systemSettings/role', action: 'create' }} />
      </ResourceContextProvider>
    );
    render(inAdmin(userWith('role:add'), button));
    await waitFor(() => expect(screen.getByTestId('settled').textContent).toBe('true'));
    expect(await screen.findByRole('link', { name: /create/i })).toBeTruthy();
    cleanup();
    render(inAdmin(userWith('role:page'), button));
    await waitFor(() => expect(screen.getByTestId('settled').textContent).toBe('false'));
    expect(screen.queryByRole('link', { name: /create/i })).toBeNull();
  });
});

describe('the listed menu (sidebar, area pages)', () => {
  it("keeps the entries canAccess lists ('menu' action), parents with them", async () => {
    render(inAdmin(userWith('service:performance', 'user:page'), <MenuProbe />));
    await waitFor(() => expect(screen.getByTestId('menu').textContent).not.toBe(''));
    expect(screen.getByTestId('menu').textContent).toBe('home,index,service,performance,systemSettings,user');
  });
});
