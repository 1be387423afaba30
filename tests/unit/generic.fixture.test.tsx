// @vitest-environment jsdom
// The principle on the console side: a declaration the console has never seen (tests/fixtures/gadget.ts),
// passed as the registry, yields a routed resource and working data calls with no other code. The
// last block renders it in jsdom, against a fake data provider, and looks at what a user sees.
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { AdminContext, AdminUI, CanAccess, memoryStore, type AuthProvider, type TranslationMessages } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleServicesProvider } from '../../src/layout/ConsoleServices';
import { messagesFor } from '../../src/providers/i18nProvider';
import { RESOURCES } from '../../resources';
import { MENU } from '../../resources/menu';
import { canAccessAs } from '../../src/permissions/canAccess';
import { buildResources, GENERIC_VIEWS, viewComponentFor } from '../../src/app/resourceViews';
import { createDataProvider } from '../../src/providers/dataProvider';
import { GenericList } from '../../src/generic/GenericList';
import { UserList } from '../../src/resources/UserList';
import { fakeHttp } from '../fixtures/fakeHttp';
import { gadget, gizmo } from '../fixtures/gadget';
import { en } from '../../i18n/en';

type Props = Record<string, unknown>;
const propsOf = (element: unknown) => (element as ReactElement<Props>).props;

/** The view component inside DeclarationProvider > CanAccess (react-admin's, asking authProvider.canAccess) > view. */
const viewOf = (element: unknown) => {
  const provider = propsOf(element);
  const guard = provider.children as ReactElement<Props>;
  expect(guard.type).toBe(CanAccess);
  return { declaration: provider.declaration, resource: guard.props.resource, action: guard.props.action, component: (guard.props.children as ReactElement).type };
};

describe('buildResources with a fixture registry', () => {
  const registry = [gadget, gizmo];
  const [gadgetResource, gizmoResource] = buildResources(registry);

  it('gives one <Resource> per declaration, named by its route', () => {
    expect(isValidElement(gadgetResource)).toBe(true);
    expect(propsOf(gadgetResource).name).toBe('service/gadget');
    expect(propsOf(gizmoResource).name).toBe('service/gizmo');
    expect(propsOf(gadgetResource).options).toEqual({ label: 'resources.gadget.name', declaration: 'gadget' });
    expect(propsOf(gadgetResource).recordRepresentation).toBe('label');
  });

  it('derives the views from the declared actions, each behind its permission', () => {
    const props = propsOf(gadgetResource);
    // the generic views are lazy (their own chunk, issue 8)
    const resource = 'service/gadget';
    expect(viewOf(props.list)).toEqual({ declaration: gadget, resource, action: 'list', component: GENERIC_VIEWS.list });
    expect(viewOf(props.show)).toEqual({ declaration: gadget, resource, action: 'show', component: GENERIC_VIEWS.show });
    expect(viewOf(props.create)).toEqual({ declaration: gadget, resource, action: 'create', component: GENERIC_VIEWS.create });
    expect(viewOf(props.edit)).toEqual({ declaration: gadget, resource, action: 'edit', component: GENERIC_VIEWS.edit });
    // gizmo declares only 'page': no show/create/edit routes
    expect(propsOf(gizmoResource).show).toBeUndefined();
    expect(propsOf(gizmoResource).create).toBeUndefined();
    expect(propsOf(gizmoResource).edit).toBeUndefined();
  });

  it('makes the whole registry reachable from every view (references resolve against it)', () => {
    expect(propsOf(propsOf(gadgetResource).list).registry).toBe(registry);
  });

  it('customViews picks a hand-written view; an unknown key fails loudly', () => {
    expect(
      viewComponentFor(
        RESOURCES.find((declaration) => declaration.name === 'user')!,
        'list',
      ),
    ).toBe(UserList);
    expect(viewComponentFor({ ...gadget, customViews: { show: 'special' } }, 'show', { special: GenericList })).toBe(GenericList);
    expect(() => viewComponentFor({ ...gadget, customViews: { show: 'missing' } }, 'show', {})).toThrow(/missing/);
  });

  it('the default registry yields every declared resource at its menu route', () => {
    expect(buildResources().map((element) => propsOf(element).name)).toEqual([
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
  });
});

describe('createDataProvider with a fixture registry', () => {
  it('serves the fixture resource over the generic contract', async () => {
    const { http, download, calls } = fakeHttp({
      'POST /gadget/page': { list: [{ id: 1, label: 'a', owner: 2 }], total: 1, pageNum: 1, pageSize: 20 },
      'GET /gizmo/list': [{ id: 2, name: 'Gizmo two' }],
      'POST /gadget': (call: { body?: object }) => ({ id: 3, ...call.body }),
    });
    const provider = createDataProvider(http, download, [gadget, gizmo]);
    await provider.getList('service/gadget', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'colour', order: 'ASC' }, // not sortable: left out
      filter: { labelLike: 'a', boughtTo: '2024-02-29' },
    });
    const owners = await provider.getMany('service/gizmo', { ids: [2], meta: { labels: true } });
    await provider.create('service/gadget', { data: { label: 'b', weight: '7', colour: 'red', createTime: 'x' } });
    expect(calls[0].body).toEqual({ pageNum: 1, pageSize: 20, labelLike: 'a', boughtTo: new Date(2024, 1, 29, 23, 59, 59, 999).toISOString() });
    expect(owners.data).toEqual([{ id: 2, name: 'Gizmo two', title: 'Gizmo two' }]);
    expect(calls[2]).toMatchObject({ method: 'POST', path: '/gadget', body: { label: 'b', weight: 7, colour: 'red' } });
  });

  it('does not know resources outside its registry', async () => {
    const { http, download } = fakeHttp();
    await expect(createDataProvider(http, download, [gadget]).getOne('systemSettings/user', { id: 1 })).rejects.toThrow(/Unknown resource/);
  });
});

// Rendering react-admin and MUI in jsdom takes seconds on a busy 2-core machine.
describe('the fixture rendered: what a user sees', { timeout: 60_000 }, () => {
  afterEach(() => cleanup());

  /** The fixture's labels, as a catalogue would give them (the real catalogues do not know gadget). */
  const gadgetLabels = {
    name: 'Gadget |||| Gadgets',
    fields: { id: 'ID', label: 'Label', weight: 'Weight (g)', colour: 'Colour', owner: 'Owner', boughtAt: 'Bought at', createTime: 'Created' },
    filters: { labelLike: 'Label contains', colour: 'Colour is', boughtFrom: 'Bought from', boughtTo: 'Bought until' },
    enums: { colour: { red: 'Red', green: 'Green' } },
  };
  const english = messagesFor('en') as unknown as { resources: Record<string, unknown> };
  const i18nProvider = polyglotI18nProvider(
    () =>
      ({
        ...english,
        resources: { ...english.resources, gadget: gadgetLabels, 'service/gadget': gadgetLabels, gizmo: { name: 'Gizmo |||| Gizmos', fields: { title: 'Title' } } },
      }) as unknown as TranslationMessages,
    'en',
    [{ locale: 'en', name: 'English' }],
    { allowMissing: true },
  );
  /** A signed-in superAdmin (the views and buttons ask canAccess, here the console's own rule). */
  const superAdminMay = canAccessAs({ superAdmin: true, permissions: [] }, { registry: [gadget, gizmo], menu: MENU });
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async ({ action, resource }) => superAdminMay({ action, resource }),
  };
  const Layout = ({ children }: { children: ReactNode }) => <main>{children}</main>;

  /** The fixture's createTime as the list must show it in the unit projects' zones (24-hour local time). */
  const CREATED_SHOWN = process.env.TZ === 'America/New_York' ? '2024-03-05 02:08:09' : '2024-03-05 15:08:09';

  const renderAt = (path: string) => {
    const created = '2024-03-05T07:08:09.000Z'; // shown as local time: see CREATED_SHOWN
    const { http, download, calls } = fakeHttp({
      'POST /gadget/page': { list: [{ id: 1, label: 'Sprocket', weight: 120, colour: 'green', owner: 2, createTime: created }], total: 1, pageNum: 1, pageSize: 20 },
      'GET /gadget/1': { id: 1, label: 'Sprocket', weight: 120, colour: 'green', owner: 2, createTime: created },
      'GET /gizmo/list': [{ id: 2, name: 'Gizmo two' }],
      'GET /saved-filter': [],
    });
    const dataProvider = createDataProvider(http, download, [gadget, gizmo]);
    const services = { session: {} as never, http, download, locale: 'en' as const, reload: vi.fn() };
    render(
      <MemoryRouter initialEntries={[path]}>
        <ConsoleServicesProvider services={services}>
          <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()}>
            <AdminUI layout={Layout} disableTelemetry>
              {buildResources([gadget, gizmo])}
            </AdminUI>
          </AdminContext>
        </ConsoleServicesProvider>
      </MemoryRouter>,
    );
    return { calls };
  };

  it('the list shows the declared columns with their labels, the record, its reference by name, and the always-on filter', async () => {
    const { calls } = renderAt('/service/gadget');
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.trim())
      .filter(Boolean);
    expect(headers).toEqual(['Label', 'Weight (g)', 'Colour', 'Owner', 'Created']);
    const row = (await within(table).findByText('Sprocket')).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Gizmo two')).toBeTruthy()); // the reference, by its name
    expect(within(row).getByText('Green')).toBeTruthy(); // the enum, by its label
    expect(within(row).getByText('120')).toBeTruthy();
    expect(within(row).getByText(CREATED_SHOWN)).toBeTruthy();
    expect(screen.getByLabelText('Label contains')).toBeTruthy();
    // no delete and no export declared: neither offered
    expect(screen.queryByRole('button', { name: /export/i })).toBeNull();
    expect(calls.find((call) => call.path === '/gadget/page')?.body).toMatchObject({ pageNum: 1, pageSize: 20, sort: 'createTime', order: 'DESC' });
  });

  it("the create form refuses a missing required field in the catalogue's words, then creates the record", async () => {
    const { calls } = renderAt('/service/gadget/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Weight \(g\)/), '120');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(en.validation.required); // under Label, the one required field
    expect(calls.some((call) => call.method === 'POST' && call.path === '/gadget')).toBe(false);
    await user.type(screen.getByLabelText(/^Label/), 'Cog');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST' && call.path === '/gadget')?.body).toEqual({ label: 'Cog', weight: 120 }));
  });
});
