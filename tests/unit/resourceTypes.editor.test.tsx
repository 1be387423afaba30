// @vitest-environment jsdom
// System settings › Resource types (issue 9) against a fake server: the editor's own validation (no
// request, no browser bubbles), the server's issues on the inputs they name, the 9401 "archive the
// removed data" confirmation that resends with confirmArchive, and delete warning of the archive.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findMenuByKey } from '../../resources/menu';
import type { ConfiguredType } from '../../resources/configuredTypes';
import { ApiError } from '../../src/providers/httpTypes';
import type { UserInfo } from '../../src/providers/session';
import ResourceTypesPage from '../../src/resourceTypes/ResourceTypesPage';
import { ADMIN, callsTo, consoleHarness, currentLocation, holding, setupUser, t } from './consoleHarness';
import { screenRoutes } from '../../src/app/screenRoutes';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const BARCODE: ConfiguredType = {
  name: 'barcode',
  labels: { en: 'Barcodes', zh: '条码' },
  menuParent: 'systemSettings',
  fields: {
    code: { type: 'text', labels: { en: 'Barcode', zh: '条码' }, required: true, minLength: 3, maxLength: 20, unique: true },
    note: { type: 'text', labels: { en: 'Note', zh: '备注' } },
  },
  list: { columns: ['code', 'note'], filters: [{ field: 'code', operator: 'like' }] },
  actions: ['page', 'show', 'create', 'edit', 'delete', 'export'],
  status: 'active',
  version: 2,
};

const renderPage = (path: string, handlers: Record<string, unknown> = {}, user?: UserInfo) => {
  const h = consoleHarness({ handlers: { 'GET /resource-types': [BARCODE], 'GET /resource-types/active': [BARCODE], ...handlers }, ...(user !== undefined ? { user } : {}) });
  h.renderIn(
    <Routes>
      <Route path="/systemSettings/resourceTypes/*" element={<ResourceTypesPage node={findMenuByKey('resourceTypes')!} />} />
      <Route path="/401" element={<p>no permission</p>} />
    </Routes>,
    path,
  );
  return h;
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const input = (label: string, index = 0) => screen.getAllByLabelText(new RegExp(`^${escape(label)}`))[index] as HTMLInputElement;

describe('resource type editor', () => {
  it('checks the form itself: nothing is sent while names, labels or bounds are wrong, and the form has no browser validation', async () => {
    const user = setupUser();
    const h = renderPage('/systemSettings/resourceTypes/create');
    const form = (await screen.findByText(t('resourceTypes.editor.createTitle'), {}, WAIT)).parentElement!.querySelector('form')!;
    expect(form.noValidate).toBe(true);
    await user.type(input(t('resourceTypes.editor.name')), '9bad');
    await user.type(input(t('resourceTypes.editor.field.name')), 'code');
    await user.type(input(t('resourceTypes.editor.field.minLength')), '20');
    await user.type(input(t('resourceTypes.editor.field.maxLength')), '3');
    await user.click(screen.getByRole('button', { name: t('resourceTypes.buttons.save') }));

    expect(await screen.findByText(t('resourceTypes.validation.checkBelow'), {}, WAIT)).toBeTruthy();
    expect(screen.getByText(t('resourceTypes.validation.nameFormat'))).toBeTruthy();
    expect(screen.getByText(t('resourceTypes.validation.notAbove'))).toBeTruthy();
    expect(screen.getAllByText(t('validation.required')).length).toBeGreaterThanOrEqual(4); // type and field labels
    expect(screen.getByText(t('resourceTypes.validation.columnsRequired'))).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/resource-types')).toHaveLength(0);
  });

  it("makes a new type's identifier from its English label until the admin types one", async () => {
    const user = setupUser();
    renderPage('/systemSettings/resourceTypes/create');
    await screen.findByText(t('resourceTypes.editor.createTitle'), {}, WAIT);
    await user.type(input(t('resourceTypes.editor.labelEn')), 'Donation institutes');
    expect((input(t('resourceTypes.editor.name')) as HTMLInputElement).value).toBe('donationInstitutes');
    await user.type(input(t('resourceTypes.editor.singularEn')), 'Donation institute');
    expect((input(t('resourceTypes.editor.name')) as HTMLInputElement).value).toBe('donationInstitute');
    await user.clear(input(t('resourceTypes.editor.name')));
    await user.type(input(t('resourceTypes.editor.name')), 'institutes');
    await user.type(input(t('resourceTypes.editor.labelEn')), ' (HK)');
    expect((input(t('resourceTypes.editor.name')) as HTMLInputElement).value).toBe('institutes');
  });

  it('sends the definition and shows the server issues on the inputs they name', async () => {
    const user = setupUser();
    const h = renderPage('/systemSettings/resourceTypes/create', {
      'POST /resource-types': () => {
        throw new ApiError('1004', 'Invalid', {
          issues: [
            { field: 'fields.code.patterns.0.regex', message: 'Risky regular expression (server)' },
            { field: 'labels.zh', message: 'Too long (server)' },
          ],
        });
      },
    });
    await screen.findByText(t('resourceTypes.editor.createTitle'), {}, WAIT);
    await user.type(input(t('resourceTypes.editor.name')), 'ticket');
    await user.type(input(t('resourceTypes.editor.labelEn')), 'Tickets');
    await user.type(input(t('resourceTypes.editor.labelZh')), '票');
    await user.type(input(t('resourceTypes.editor.field.name')), 'code');
    await user.type(input(t('resourceTypes.editor.labelEn'), 1), 'Code');
    await user.type(input(t('resourceTypes.editor.labelZh'), 1), '编号');
    await user.click(screen.getByRole('button', { name: t('resourceTypes.buttons.addPattern') }));
    await user.type(input(t('resourceTypes.editor.field.regex')), '(a+)+$');
    await user.type(input(t('resourceTypes.editor.field.messageEn')), 'Letters');
    await user.type(input(t('resourceTypes.editor.field.messageZh')), '字母');
    await user.click(screen.getByRole('checkbox', { name: 'code (Code)' }));
    await user.click(screen.getByRole('button', { name: t('resourceTypes.buttons.save') }));

    expect(await screen.findByText('Risky regular expression (server)', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Too long (server)')).toBeTruthy();
    const sent = callsTo(h.calls, 'POST', '/resource-types')[0].body as ConfiguredType;
    expect(sent).toMatchObject({
      name: 'ticket',
      labels: { en: 'Tickets', zh: '票' },
      menuParent: 'systemSettings',
      fields: { code: { type: 'text', labels: { en: 'Code', zh: '编号' }, patterns: [{ regex: '(a+)+$', messages: { en: 'Letters', zh: '字母' } }] } },
      list: { columns: ['code'], filters: [] },
    });
    // the message stands under the regex input it is about
    const regex = input(t('resourceTypes.editor.field.regex'));
    expect(regex.getAttribute('aria-invalid')).toBe('true');
    expect(currentLocation()).toBe('/systemSettings/resourceTypes/create');
  });

  it('a field removal refused with 9401 offers to archive the removed data and resends with confirmArchive', async () => {
    const user = setupUser();
    let puts = 0;
    const h = renderPage('/systemSettings/resourceTypes/barcode', {
      'PUT /resource-types': (call: { body: unknown }) => {
        puts += 1;
        if (!(call.body as { confirmArchive?: boolean }).confirmArchive) throw new ApiError('9401', 'Field note holds data', { fields: ['note'] });
        return { ...BARCODE, version: 3 };
      },
    });
    await screen.findByText(t('resourceTypes.editor.editTitle', { name: 'barcode' }), {}, WAIT);
    expect(input(t('resourceTypes.editor.name')).disabled).toBe(true);
    // remove the second field ("note")
    const removeButtons = screen.getAllByRole('button', { name: t('ra.action.remove') });
    await user.click(removeButtons[1]);
    await user.click(screen.getByRole('button', { name: t('resourceTypes.buttons.save') }));

    const dialog = await screen.findByRole('dialog', { name: t('resourceTypes.archiveDialog.title') }, WAIT);
    expect(within(dialog).getByText(t('resourceTypes.archiveDialog.fields', { fields: 'note' }))).toBeTruthy();
    const first = callsTo(h.calls, 'PUT', '/resource-types')[0].body as ConfiguredType & { confirmArchive?: boolean };
    expect(Object.keys(first.fields)).toEqual(['code']);
    expect(first.confirmArchive).toBeUndefined();

    await user.click(within(dialog).getByRole('button', { name: t('resourceTypes.archiveDialog.confirm') }));
    await waitFor(() => expect(currentLocation()).toBe('/systemSettings/resourceTypes'), WAIT);
    expect(puts).toBe(2);
    const second = callsTo(h.calls, 'PUT', '/resource-types')[1].body as ConfiguredType & { confirmArchive?: boolean };
    expect(second).toMatchObject({ name: 'barcode', confirmArchive: true });
    expect(Object.keys(second.fields)).toEqual(['code']);
  });

  it('lists the types; deleting one with records says it will be archived', async () => {
    const user = setupUser();
    const h = renderPage('/systemSettings/resourceTypes', { 'POST /custom/barcode/page': { list: [{ id: 1 }], total: 12, pageNum: 1, pageSize: 1 } });
    const row = (await screen.findByText('barcode', {}, WAIT)).closest('tr')!;
    expect(within(row).getByText('Barcodes')).toBeTruthy();
    expect(within(row).getByText(t('menu.systemSettings'))).toBeTruthy();
    expect(within(row).getByText(t('resourceTypes.status.active'))).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: `${t('resourceTypes.buttons.delete')} barcode` }));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    expect(within(dialog).getByText(t('resourceTypes.deleteDialog.withRecords', { label: 'Barcodes', count: 12 }))).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: t('resourceTypes.deleteDialog.confirmArchive') }));
    await waitFor(() => expect(callsTo(h.calls, 'DELETE', '/resource-types')[0]?.query).toEqual({ name: 'barcode' }), WAIT);
  });

  it('exports the selected types and imports an export file', async () => {
    const user = setupUser();
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const h = renderPage('/systemSettings/resourceTypes', { 'POST /resource-types/import': { created: ['ticket'], updated: ['barcode'] } });
    const exported = vi.spyOn(h.download, 'download');
    await user.click(await screen.findByRole('checkbox', { name: t('resourceTypes.selectRow', { name: 'barcode' }) }, WAIT));
    await user.click(screen.getByRole('button', { name: t('resourceTypes.buttons.exportSelected', { count: 1 }) }));
    await waitFor(() => expect(exported).toHaveBeenCalledWith('GET', '/resource-types/export', { query: { names: 'barcode' } }), WAIT);

    const file = { format: 'rvm-resource-types', version: 1, types: [BARCODE] };
    await user.upload(screen.getByTestId('import-file'), new File([JSON.stringify(file)], 'types.json', { type: 'application/json' }));
    expect(await screen.findByText(t('resourceTypes.imported', { created: 1, updated: 1 }), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/resource-types/import')[0].body).toEqual(file);
    // not an export file: said so, nothing sent
    await user.upload(screen.getByTestId('import-file'), new File(['{"hello":1}'], 'other.json', { type: 'application/json' }));
    expect(await screen.findByText(t('resourceTypes.importInvalid'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/resource-types/import')).toHaveLength(1);
  });

  it('is for superAdmins only: its route guard (canAccess on the menu entry) sends anyone else to /401', async () => {
    for (const [user, shown] of [
      [holding('systemSettings', 'systemSettings:*'), 'no permission'],
      [ADMIN, t('resourceTypes.intro')],
    ] as const) {
      const h = consoleHarness({ handlers: { 'GET /resource-types': [BARCODE], 'GET /resource-types/active': [BARCODE] }, user });
      h.renderIn(
        <Routes>
          {screenRoutes()}
          <Route path="/401" element={<p>no permission</p>} />
        </Routes>,
        '/systemSettings/resourceTypes',
      );
      expect(await screen.findByText(shown, {}, WAIT)).toBeTruthy();
      cleanup();
    }
  });
});
