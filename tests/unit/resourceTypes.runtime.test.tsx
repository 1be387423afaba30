// @vitest-environment jsdom
// Configured resource types at run time (issue 9): the console as src/App.tsx wires it registers a
// react-admin resource per type answered by GET /resource-types/active, with its sidebar entry under
// its menu parent (by the user's custom:<name>:page), its labels, and the generic list over the fake
// server; the store re-publishes only when a type changed.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfiguredType } from '../../resources/configuredTypes';
import App from '../../src/App';
import type { ConsoleServices } from '../../src/layout/ConsoleServices';
import { visibleMenu } from '../../src/permissions/menuVisibility';
import { messages as consoleMessages } from '../../src/providers/messagesEn';
import { messagesFor } from '../../src/providers/i18nProvider';
import { createConfiguredTypesStore } from '../../src/resourceTypes/configuredTypesStore';
import { runtimeResources, withConfiguredMessages } from '../../src/resourceTypes/runtime';
import { callsTo, consoleHarness, holding, t } from './consoleHarness';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
const englishMessages = messagesFor('en');
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

const BARCODE: ConfiguredType = {
  name: 'barcode',
  labels: { en: 'Barcodes', zh: '条码' },
  menuParent: 'systemSettings',
  fields: {
    code: { type: 'text', labels: { en: 'Barcode', zh: '条码' }, required: true, minLength: 3, maxLength: 20, unique: true },
    itemType: {
      type: 'enum',
      labels: { en: 'Item type', zh: '物品类型' },
      options: [
        { value: 'pet', labels: { en: 'PET bottle', zh: 'PET瓶' } },
        { value: 'can', labels: { en: 'Can', zh: '罐' } },
      ],
    },
    refund: { type: 'number', labels: { en: 'Refund', zh: '退款' }, scale: 2 },
  },
  list: { columns: ['code', 'itemType', 'refund'], filters: [{ field: 'code', operator: 'like', alwaysOn: true }], defaultSort: { field: 'code', order: 'ASC' } },
  actions: ['page', 'show', 'create', 'edit'],
  status: 'active',
  version: 1,
};

const menuKeys = (nodes: ReturnType<typeof visibleMenu>): string[] => nodes.flatMap((node) => [node.key, ...menuKeys(node.children)]);

describe('configured types in the console', () => {
  it('derives a menu entry under the menu parent, shown by the page permission only, and the labels', () => {
    const runtime = runtimeResources([BARCODE, { ...BARCODE, name: 'old', status: 'archived' }]);
    const systemSettings = runtime.menu.find((node) => node.key === 'systemSettings')!;
    expect(systemSettings.children.at(-1)).toMatchObject({ key: 'custom_barcode', identifier: 'custom:barcode', route: '/systemSettings/barcode' });
    expect(runtime.registry.filter((declaration) => declaration.apiPath.startsWith('/custom/')).map((declaration) => [declaration.name, declaration.route])).toEqual([
      ['barcode', '/systemSettings/barcode'],
    ]);
    // beside a top-level screen without children (Search stays a link), not inside it
    const besideSearch = runtimeResources([{ ...BARCODE, menuParent: 'search' }]).menu;
    const search = besideSearch.findIndex((node) => node.key === 'search');
    expect(besideSearch[search].children).toEqual([]);
    expect(besideSearch[search + 1]).toMatchObject({ key: 'custom_barcode', route: '/search/barcode' });

    const visible = (identifiers: string[]) => menuKeys(visibleMenu(holding(...identifiers), { registry: runtime.registry }, runtime.menu));
    expect(visible(['custom:barcode:page'])).toEqual(expect.arrayContaining(['systemSettings', 'custom_barcode']));
    expect(visible(['custom:barcode:page'])).not.toContain('user');
    expect(visible(['user:page'])).not.toContain('custom_barcode');
    // the editor of types is a superAdmin's, whatever area a role grants
    expect(visible(['systemSettings'])).not.toContain('resourceTypes');

    const zh = withConfiguredMessages(englishMessages, runtime, 'zh') as unknown as {
      resources: Record<string, { name: string; fields: Record<string, string>; enums: Record<string, Record<string, string>>; filters: Record<string, string> }>;
      menu: Record<string, string>;
    };
    expect(zh.menu.custom_barcode).toBe('条码');
    expect(zh.resources.barcode.enums.itemType.pet).toBe('PET瓶');
    expect(zh.resources['systemSettings/barcode'].fields.refund).toBe('退款');
    expect(zh.resources.barcode.filters.codeLike).toBe('条码');
    expect((englishMessages as unknown as { menu: Record<string, string> }).menu.custom_barcode).toBeUndefined();

    // placed after a sibling the type names (several after one sibling keep their answer order), else at the end
    const service = (types: ConfiguredType[]) =>
      runtimeResources(types)
        .menu.find((node) => node.key === 'service')!
        .children.map((node) => node.key);
    const under = (name: string, menuAfter?: string): ConfiguredType => ({ ...BARCODE, name, menuParent: 'service', ...(menuAfter ? { menuAfter } : {}) });
    const keys = service([under('payoutRule', 'events'), under('other'), under('payoutPlan', 'events'), under('ghost', 'custom_gone')]);
    expect(keys.slice(keys.indexOf('events'), keys.indexOf('events') + 4)).toEqual(['events', 'custom_payoutRule', 'custom_payoutPlan', 'eventNotifications']);
    expect(keys.slice(-2)).toEqual(['custom_other', 'custom_ghost']);

    // singular and plural labels: react-admin's "one |||| many" form; the menu says the plural
    const withSingular = runtimeResources([{ ...BARCODE, labels: { en: 'Barcodes', zh: '条码' }, singularLabels: { en: 'Barcode', zh: '条码' } }]);
    const en = withConfiguredMessages(englishMessages, withSingular, 'en') as unknown as { resources: Record<string, { name: string }>; menu: Record<string, string> };
    expect(en.resources.barcode.name).toBe('Barcode |||| Barcodes');
    expect(en.menu.custom_barcode).toBe('Barcodes');
  });

  it('the console registers the type: sidebar entry, labels and its generic list from the data provider', async () => {
    const h = consoleHarness({
      user: holding('custom:barcode:page', 'custom:barcode:create'),
      handlers: {
        'GET /resource-types/active': [BARCODE],
        'POST /custom/barcode/page': { list: [{ id: 1, code: '12345', itemType: 'pet', refund: 0.5 }], total: 1, pageNum: 1, pageSize: 20 },
        'GET /saved-filter': [],
      },
    });
    const services: ConsoleServices = { session: h.session, http: h.http, download: h.download, locale: 'en', reload: h.reload };
    // an old address (before types moved under their menu parent's area) still opens the list
    window.history.replaceState(null, '', '/custom/barcode');
    render(<App services={services} messages={consoleMessages} />);

    expect(await screen.findByText('12345', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('PET bottle')).toBeTruthy();
    // the declared scale shows both decimals
    expect(screen.getByText('0.50')).toBeTruthy();
    expect(screen.getAllByText('Barcode').length).toBeGreaterThan(0); // column header (and the filter's label)
    const sidebar = screen.getByTestId('sidebar');
    const entry = within(sidebar).getByRole('link', { name: 'Barcodes' });
    expect(entry.getAttribute('href')).toBe('/systemSettings/barcode');
    expect(window.location.pathname).toBe('/systemSettings/barcode');
    expect(within(sidebar).queryByText(t('menu.user'))).toBeNull();
    expect(screen.getByRole('link', { name: new RegExp(t('ra.action.create')) })).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/custom/barcode/page')[0].body).toMatchObject({ pageNum: 1, sort: 'code', order: 'ASC' });
  });

  it('the store tells its listeners only when a type was added, changed or removed', async () => {
    let answer: ConfiguredType[] = [];
    const h = consoleHarness({ handlers: { 'GET /resource-types/active': () => answer } });
    const store = createConfiguredTypesStore(h.http, 'en');
    const heard = vi.fn();
    const hook = vi.fn();
    store.subscribe(heard);
    store.beforeChange(hook);
    await store.refresh();
    expect(store.snapshot().loaded).toBe(true);
    await store.refresh();
    expect(heard).toHaveBeenCalledTimes(1);
    answer = [BARCODE];
    await store.refresh();
    expect(heard).toHaveBeenCalledTimes(2);
    expect(hook).toHaveBeenCalledTimes(2);
    expect(store.registry().some((declaration) => declaration.apiPath === '/custom/barcode')).toBe(true);
    answer = [{ ...BARCODE, version: 2 }];
    await store.refresh();
    expect(heard).toHaveBeenCalledTimes(3);
    await waitFor(() => expect(store.messagesWith(englishMessages).menu).toMatchObject({ custom_barcode: 'Barcodes' }));
  });
});
