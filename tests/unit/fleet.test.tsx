// @vitest-environment jsdom
// The fleet management screen (/installation/fleetManagement) against a fake server: the fleet tree
// beside the machine list (choosing a fleet filters the list), the tree's keyboard, and the fleet
// actions (create, rename, move, delete) offered only with their permissions.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findMenuByKey } from '../../resources/menu';
import type { FleetNode } from '../../resources/fleet';
import FleetManagementPage from '../../src/installation/FleetManagementPage';
import { FleetTreePanel } from '../../src/installation/fleet/FleetTreePanel';
import { ApiError } from '../../src/providers/httpTypes';
import type { UserInfo } from '../../src/providers/session';
import { ADMIN, callsTo, consoleHarness, currentLocation, holding, setupUser, t } from './consoleHarness';
import { descriptionOf } from './domHelpers';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const fleet = (id: number, name: string, parentId: number | null, total: number, children: FleetNode[] = [], down = 0): FleetNode => ({
  id,
  name,
  level: parentId === null ? 1 : 2,
  parentId,
  createTime: null,
  machineCount: total,
  totalMachineCount: total,
  statusCounts: { Up: total - down, Offline: 0, Down: down, Sleep: 0 },
  children,
});
const TREE = [fleet(1, 'Hong Kong', null, 5, [fleet(3, 'Kowloon', 1, 3, [], 1), fleet(4, 'Island', 1, 2)], 1), fleet(2, 'Macau', null, 0)];
const MACHINES = { list: [{ id: 5, termNo: 'HK0005', serialNumber: 'SN-0005', termType: 'S1', fleetId: 3, currentSts: 'Up' }], total: 1, pageNum: 1, pageSize: 20 };

const item = (name: string) => screen.getByRole('treeitem', { name: new RegExp(`^${name} `) });

describe('fleet management screen', () => {
  it('shows the fleet tree with machine counts beside the machine list; a fleet filters the list', async () => {
    const user = setupUser();
    const h = consoleHarness({ handlers: { 'GET /fleet/tree': TREE, 'POST /rvm/page': MACHINES, 'GET /saved-filter': [], 'GET /fleet/list': [{ id: 3, name: 'Kowloon' }] } });
    h.renderIn(<FleetManagementPage node={findMenuByKey('fleetManagement')!} />, '/installation/fleetManagement');
    expect(screen.getByRole('heading', { name: t('menu.fleetManagement') })).toBeTruthy();
    const tree = await screen.findByRole('tree', { name: t('installation.fleet.title') }, WAIT);
    expect(
      within(tree)
        .getAllByRole('treeitem')
        .map((row) => row.textContent),
    ).toEqual([
      `${t('installation.fleet.all')}5`,
      expect.stringMatching(/^Hong Kong5/),
      expect.stringMatching(/^Kowloon3/),
      expect.stringMatching(/^Island2/),
      expect.stringMatching(/^Macau0/),
    ]);
    // Named by what it shows (WCAG 2.5.3); what the figures count is its description, the down count included.
    const description = document.getElementById(item('Kowloon').getAttribute('aria-describedby') ?? '')?.textContent;
    expect(description).toMatch(new RegExp(`^${t('installation.fleet.machineCount', { count: 3 })}, `));
    expect(item('Kowloon').hasAttribute('aria-labelledby') || item('Kowloon').hasAttribute('aria-label')).toBe(false);
    expect(await screen.findByText('HK0005', {}, WAIT)).toBeTruthy();
    expect(item(t('installation.fleet.all')).getAttribute('aria-selected')).toBe('true');

    await user.click(item('Kowloon'));
    await waitFor(() => expect(item('Kowloon').getAttribute('aria-selected')).toBe('true'), WAIT);
    const search = new URLSearchParams(currentLocation().split('?')[1]);
    expect(JSON.parse(search.get('filter') ?? '{}')).toEqual({ fleetId: [3] });
    await waitFor(() => expect(callsTo(h.calls, 'POST', '/rvm/page').at(-1)?.body).toMatchObject({ fleetId: [3] }), WAIT);
  });

  it('without machine:page the tree stays and the list says it is not permitted', async () => {
    const h = consoleHarness({ user: holding('fleet:page'), handlers: { 'GET /fleet/tree': TREE } });
    h.renderIn(<FleetManagementPage node={findMenuByKey('fleetManagement')!} />, '/installation/fleetManagement');
    expect(await screen.findByRole('tree', {}, WAIT)).toBeTruthy();
    expect(screen.getByText(t('app.noPermission.message'))).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/rvm/page')).toHaveLength(0);
    // nor may this user change fleets
    expect(screen.queryByRole('button', { name: t('installation.fleet.create') })).toBeNull();
    expect(screen.queryByRole('button', { name: t('installation.fleet.actions', { name: 'Macau' }) })).toBeNull();
  });
});

const renderPanel = (handlers: Record<string, unknown> = {}, user: UserInfo = ADMIN, selected: number | null = null) => {
  const h = consoleHarness({ user, handlers: { 'GET /fleet/tree': TREE, ...handlers } });
  const onSelect = vi.fn();
  h.renderIn(<FleetTreePanel selected={selected} onSelect={onSelect} />);
  return { h, onSelect };
};
const treeCalls = (h: ReturnType<typeof consoleHarness>) => callsTo(h.calls, 'GET', '/fleet/tree');
const chooseAction = async (user: ReturnType<typeof setupUser>, fleetName: string, action: string) => {
  await user.click(await screen.findByRole('button', { name: t('installation.fleet.actions', { name: fleetName }) }, WAIT));
  await user.click(await screen.findByRole('menuitem', { name: t(`installation.fleet.${action}`) }, WAIT));
};

describe('fleet tree', () => {
  it('is used with the keyboard: arrows move and open or close, Enter selects', async () => {
    const user = setupUser();
    const { onSelect } = renderPanel();
    await screen.findByRole('tree', {}, WAIT);
    item(t('installation.fleet.all')).focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item('Hong Kong'));
    await user.keyboard('{ArrowLeft}'); // closes Hong Kong
    await waitFor(() => expect(item('Hong Kong').getAttribute('aria-expanded')).toBe('false'), WAIT);
    expect(screen.queryByRole('treeitem', { name: /^Kowloon / })).toBeNull();
    await user.keyboard('{ArrowRight}{ArrowRight}'); // opens it, then moves to its first child
    expect(document.activeElement).toBe(item('Kowloon'));
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith(3);
    await user.keyboard('{End} ');
    expect(onSelect).toHaveBeenLastCalledWith(2);
    await user.keyboard('{Home}{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith(null);
  });

  it('creates a top-level fleet: the name is required and at most 64 characters, then it is saved and the tree reloads', async () => {
    const user = setupUser();
    const { h } = renderPanel({ 'POST /fleet': { id: 9, name: 'Tai Po' } });
    await user.click(await screen.findByRole('button', { name: t('installation.fleet.create') }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: t('installation.fleet.createTitle') }, WAIT);
    const name = within(dialog).getByRole('textbox', { name: new RegExp(t('resources.fleet.fields.name')) }) as HTMLInputElement;
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.save') }));
    expect(name.validity.valueMissing).toBe(true); // the browser refuses an empty required field
    await user.click(name);
    await user.paste('x'.repeat(65));
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.save') }));
    expect(descriptionOf(name)).toBe(t('validation.lengthBetween', { min: 1, max: 64 }));
    expect(callsTo(h.calls, 'POST', '/fleet')).toHaveLength(0);
    await user.clear(name);
    await user.type(name, ' Tai Po ');
    expect(descriptionOf(name)).toBe(''); // typing clears the message
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.save') }));
    expect(await screen.findByText(t('installation.fleet.created'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/fleet')[0].body).toEqual({ name: 'Tai Po', parentId: null });
    await waitFor(() => expect(treeCalls(h)).toHaveLength(2), WAIT);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("a name a sibling already has: the server's issue (9450) shows under the name field, the dialog stays", async () => {
    const user = setupUser();
    const message = 'Another fleet under the same parent is already called "Macau"';
    renderPanel({
      'POST /fleet': () => {
        throw new ApiError('9450', `This fleet name is already used under the same parent fleet: ${message}`, { issues: [{ field: 'name', message }] });
      },
    });
    await user.click(await screen.findByRole('button', { name: t('installation.fleet.create') }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: t('installation.fleet.createTitle') }, WAIT);
    const name = within(dialog).getByRole('textbox', { name: new RegExp(t('resources.fleet.fields.name')) }) as HTMLInputElement;
    await user.type(name, 'Macau');
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.save') }));
    await waitFor(() => expect(descriptionOf(name)).toBe(message), WAIT);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('adds a sub-fleet, renames and moves a fleet from its row menu', async () => {
    const user = setupUser();
    const { h } = renderPanel({ 'POST /fleet': { id: 9 }, 'PUT /fleet': (call: { body?: unknown }) => call.body });
    await screen.findByRole('tree', {}, WAIT);
    await chooseAction(user, 'Macau', 'addChild');
    let dialog = await screen.findByRole('dialog', { name: t('installation.fleet.createChildTitle', { name: 'Macau' }) }, WAIT);
    await user.type(within(dialog).getByRole('textbox'), 'Taipa{Enter}');
    await waitFor(() => expect(callsTo(h.calls, 'POST', '/fleet')[0]?.body).toEqual({ name: 'Taipa', parentId: 2 }), WAIT);

    await chooseAction(user, 'Island', 'rename');
    dialog = await screen.findByRole('dialog', { name: t('installation.fleet.renameTitle', { name: 'Island' }) }, WAIT);
    const name = within(dialog).getByRole('textbox') as HTMLInputElement;
    expect(name.value).toBe('Island');
    await user.clear(name);
    await user.type(name, 'HK Island{Enter}');
    expect(await screen.findByText(t('installation.fleet.renamed'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'PUT', '/fleet')[0].body).toEqual({ id: 4, name: 'HK Island' });

    await chooseAction(user, 'Island', 'move');
    dialog = await screen.findByRole('dialog', { name: t('installation.fleet.moveTitle', { name: 'Island' }) }, WAIT);
    await user.click(within(dialog).getByRole('combobox', { name: t('installation.fleet.newParent') }));
    const options = (await screen.findAllByRole('option', {}, WAIT)).map((option) => option.textContent);
    expect(options).toEqual([t('installation.fleet.topLevel'), 'Kowloon', 'Macau']); // not itself, not its parent
    await user.click(screen.getByRole('option', { name: 'Macau' }));
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.save') }));
    expect(await screen.findByText(t('installation.fleet.moved'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'PUT', '/fleet')[1].body).toEqual({ id: 4, parentId: 2 });
  });

  it('deletes after confirmation; a refusal (6000) keeps the dialog open; the selection leaves a deleted fleet', async () => {
    const user = setupUser();
    let refuse = true;
    const { h, onSelect } = renderPanel(
      {
        'DELETE /fleet': () => {
          if (refuse) throw new ApiError('6000', 'Please delete all its RVMs first');
          return null;
        },
      },
      ADMIN,
      3,
    );
    await screen.findByRole('tree', {}, WAIT);
    await chooseAction(user, 'Kowloon', 'delete');
    const dialog = await screen.findByRole('dialog', { name: t('installation.fleet.deleteTitle') }, WAIT);
    expect(within(dialog).getByText(t('installation.fleet.deleteConfirm', { name: 'Kowloon' }))).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.delete') }));
    expect(await screen.findByText(t('errors.6000'), {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: t('installation.fleet.deleteTitle') })).toBeTruthy();
    expect(callsTo(h.calls, 'DELETE', '/fleet')[0].query).toEqual({ id: '3' });

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.delete') }));
    expect(await screen.findByText(t('installation.fleet.deleted'), {}, WAIT)).toBeTruthy();
    expect(onSelect).toHaveBeenCalledWith(null);
  });

  it('offers only the actions the user holds', async () => {
    const user = setupUser();
    renderPanel({}, holding('fleet:page', 'fleet:edit'));
    await screen.findByRole('tree', {}, WAIT);
    expect(screen.queryByRole('button', { name: t('installation.fleet.create') })).toBeNull();
    await user.click(screen.getByRole('button', { name: t('installation.fleet.actions', { name: 'Macau' }) }));
    const menu = await screen.findByRole('menu', {}, WAIT);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((entry) => entry.textContent),
    ).toEqual([t('installation.fleet.rename'), t('installation.fleet.move')]);
  });

  it('says so when there is no fleet yet', async () => {
    renderPanel({ 'GET /fleet/tree': [] });
    expect(await screen.findByText(t('installation.fleet.empty'), {}, WAIT)).toBeTruthy();
  });
});
