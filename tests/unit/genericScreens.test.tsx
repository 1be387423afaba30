// @vitest-environment jsdom
// Generic screens a new user trusts (issue 9): export writes the visible columns in the shown order
// (and says so), one "save filter" feature only (the server's; built-in ones named in the user's
// language, names limited to 40 characters), create toasts naming the resource, and the user form
// refusing spaces in a user name before calling the server.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { visibleColumnsOf } from '../../src/generic/visibleColumns';
import type { SavedFilter } from '../../src/providers/dataProvider';
import { callsTo, consoleHarness, setupUser, t, translatorFor } from './consoleHarness';
import { descriptionOf, headerTexts, isDisabled, labelled } from './domHelpers';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const ROLES = { list: [{ id: 1, name: 'Operators', description: 'Day shift', createTime: '2026-01-02T03:04:05.000Z' }], total: 1, pageNum: 1, pageSize: 20 };
const USERS = { list: [{ id: 7, name: 'ada', realname: 'Ada Admin', enabled: true, roles: [] }], total: 1, pageNum: 1, pageSize: 20 };
const builtIn = (id: number, name: string, filter: Record<string, unknown>): SavedFilter => ({
  id,
  resource: 'user',
  name,
  filter,
  visibility: 'public',
  builtIn: true,
  ownerId: null,
  mine: false,
});

describe('export follows the column chooser', () => {
  it('places and hides columns as react-admin does (ranks[position] = column index; actions are no field)', () => {
    expect(visibleColumnsOf(['a', 'b', 'c'], [])).toEqual(['a', 'b', 'c']);
    expect(visibleColumnsOf(['a', 'b', 'c'], ['b'])).toEqual(['a', 'c']);
    expect(visibleColumnsOf(['a', 'b', 'c'], [], [2, 0, 1])).toEqual(['c', 'a', 'b']);
    expect(visibleColumnsOf([null, 'a', 'b', 'c'], ['a'], [0, 3, 1])).toEqual(['c', 'b']); // ranks shorter than the columns
  });

  it('sends the visible columns in order and says so in the export menu', async () => {
    const user = setupUser();
    const h = consoleHarness({ handlers: { 'POST /role/page': ROLES, 'GET /saved-filter': [] } });
    const exported = vi.spyOn(h.download, 'download');
    h.renderApp('/systemSettings/role');
    const table = await screen.findByRole('table', {}, WAIT);
    await screen.findByText('Operators', {}, WAIT);
    expect(headerTexts(table)).toEqual(expect.arrayContaining([t('resources.role.fields.description')]));

    // hide "Description" with the column chooser
    await user.click(screen.getByRole('button', { name: t('ra.action.select_columns') }));
    const chooser = await screen.findByRole('menu', {}, WAIT).catch(() => screen.getByRole('presentation'));
    await user.click(within(chooser).getByLabelText(t('resources.role.fields.description')));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(headerTexts(table)).not.toContain(t('resources.role.fields.description')), WAIT);

    await user.click(screen.getByRole('button', { name: t('generic.export.button') }));
    const menu = await screen.findByRole('menu', {}, WAIT);
    expect(within(menu).getByText(t('generic.export.visibleColumns', { count: 2 }))).toBeTruthy();
    await user.click(within(menu).getByRole('menuitem', { name: t('generic.export.csv') }));
    await waitFor(() => expect(exported).toHaveBeenCalled(), WAIT);
    expect(exported.mock.calls[0][1]).toBe('/role/export');
    expect(exported.mock.calls[0][2]?.body).toMatchObject({ format: 'csv', columns: ['name', 'createTime'] });
  });
});

describe('saved filters', () => {
  it('offers no react-admin "Save current query"; built-in filters in the user\'s language, not deletable', async () => {
    const user = setupUser();
    const h = consoleHarness({ handlers: { 'POST /user/page': USERS, 'GET /saved-filter': [builtIn(3, 'Offline more than 1 week', { enabled: true })] } });
    h.session.setLang('zh');
    const zh = translatorFor('zh');
    // a filter is applied: react-admin would offer to save it here
    h.renderApp('/systemSettings/user?filter=%7B%22nameLike%22%3A%22ad%22%7D');
    await screen.findByText('ada', {}, WAIT);
    await user.click(screen.getByRole('button', { name: zh('ra.action.add_filter') }));
    const filterMenu = await screen.findByRole('menu', {}, WAIT);
    expect(within(filterMenu).getByText(zh('ra.action.remove_all_filters'))).toBeTruthy(); // the menu is react-admin's, filter applied
    expect(within(filterMenu).queryByText(zh('ra.saved_queries.new_label'))).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: zh('generic.savedFilters.button') }));
    const menu = await screen.findByRole('menu', {}, WAIT);
    const item = within(menu).getByRole('menuitem', { name: new RegExp(zh('generic.savedFilters.builtInNames.Offline more than 1 week')) });
    expect(zh('generic.savedFilters.builtInNames.Offline more than 1 week')).toBe('离线超过 1 周');
    expect(item.getAttribute('aria-keyshortcuts')).toBeNull(); // no Delete for a built-in one
    expect(within(item).queryByTitle(zh('generic.savedFilters.deleteTitle'))).toBeNull();
  });

  it("limits a saved filter's name to 40 characters and says so", async () => {
    const user = setupUser();
    const h = consoleHarness({
      handlers: { 'POST /role/page': ROLES, 'GET /saved-filter': [], 'POST /saved-filter': (call: { body?: unknown }) => ({ id: 9, ...(call.body as object) }) },
    });
    h.renderApp('/systemSettings/role?filter=%7B%22nameLike%22%3A%22op%22%7D');
    await screen.findByText('Operators', {}, WAIT);
    await user.click(screen.getByRole('button', { name: t('generic.savedFilters.button') }));
    await user.click(await screen.findByRole('menuitem', { name: t('generic.savedFilters.saveCurrent') }, WAIT));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    const name = within(dialog).getByLabelText(labelled(t('generic.savedFilters.name')));
    const save = within(dialog).getByRole('button', { name: t('ra.action.save') });
    await user.type(name, 'x'.repeat(41));
    expect(descriptionOf(name)).toBe(t('generic.savedFilters.nameTooLong', { max: 40 }));
    expect(isDisabled(save)).toBe(true);
    await user.type(name, '{Backspace}');
    expect(descriptionOf(name)).toBe(t('generic.savedFilters.nameHint', { count: 40, max: 40 }));
    await user.click(save);
    await waitFor(() => expect(callsTo(h.calls, 'POST', '/saved-filter')[0]?.body).toMatchObject({ name: 'x'.repeat(40), filter: { nameLike: 'op' } }), WAIT);
  });
});

describe('save toasts', () => {
  it('"Role created" / "角色已创建" instead of "Element created"', async () => {
    for (const locale of ['en', 'zh'] as const) {
      const user = setupUser();
      const tr = translatorFor(locale);
      const h = consoleHarness({
        handlers: {
          'POST /role/page': ROLES,
          'GET /saved-filter': [],
          'POST /permission/page': { list: [], total: 0, pageNum: 1, pageSize: 500 },
          'POST /role': { id: 2, name: 'Night' },
        },
      });
      h.session.setLang(locale);
      h.renderApp('/systemSettings/role/create');
      await user.type(await screen.findByLabelText(labelled(tr('resources.role.fields.name')), {}, WAIT), 'Night');
      await user.click(screen.getByRole('button', { name: tr('ra.action.save') }));
      const expected = tr('generic.notification.created', { name: tr('resources.role.name', { smart_count: 1 }) });
      expect(await screen.findByText(expected, {}, WAIT)).toBeTruthy();
      expect(expected).toBe(locale === 'en' ? 'Role created' : '角色已创建');
      expect(screen.queryByText(tr('ra.notification.created', { smart_count: 1 }))).toBeNull();
      cleanup();
    }
  });
});

describe('user names', () => {
  it("the user form refuses a name with spaces, in the user's language, without calling the server", async () => {
    for (const locale of ['en', 'zh'] as const) {
      const user = setupUser();
      const tr = translatorFor(locale);
      const h = consoleHarness({ handlers: { 'GET /saved-filter': [], 'POST /role/page': ROLES, 'POST /account/page': { list: [], total: 0, pageNum: 1, pageSize: 500 } } });
      h.session.setLang(locale);
      h.renderApp('/systemSettings/user/create');
      const name = await screen.findByLabelText(labelled(tr('resources.user.fields.name')), {}, WAIT);
      await user.type(name, 'ann lee');
      await user.click(screen.getByRole('button', { name: tr('ra.action.save') }));
      await waitFor(() => expect(descriptionOf(name)).toBe(tr('validation.noSpaces')), WAIT);
      expect(tr('validation.noSpaces')).toBe(locale === 'en' ? 'The value cannot contain spaces' : '该值不能包含空格');
      expect(callsTo(h.calls, 'POST', '/user')).toHaveLength(0);
      cleanup();
    }
  });
});
