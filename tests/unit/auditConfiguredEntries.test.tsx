// @vitest-environment jsdom
// System settings › Audit log with a configured type's entries (docs/audit-log.md "The screen"): the
// resource column, the entry's page and the resource filter name the type by its label (`display:
// 'resourceName'`), and the entry's Before/After table shows a reference by the referenced record's label,
// a file by its name, in the order the type declares its fields; in English and Chinese alike.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfiguredType } from '../../resources/configuredTypes';
import App from '../../src/App';
import type { ConsoleServices } from '../../src/layout/ConsoleServices';
import { messages as consoleMessages } from '../../src/providers/messagesEn';
import { consoleHarness, setupUser } from './consoleHarness';

// the whole console is mounted (its first render is slow on a busy machine)
vi.setConfig({ testTimeout: 120_000 });
const WAIT = { timeout: 45_000 };
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

const labels = (en: string, zh: string) => ({ en, zh });
const PARTNER: ConfiguredType = {
  name: 'partner',
  labels: labels('Partners', '合作方'),
  menuParent: 'systemSettings',
  fields: { title: { type: 'text', labels: labels('Title', '名称'), required: true } },
  list: { columns: ['title'], filters: [], defaultSort: { field: 'title', order: 'ASC' } },
  actions: ['page', 'show'],
  status: 'active',
  version: 1,
};
const SITE_VISIT: ConfiguredType = {
  name: 'siteVisit',
  labels: labels('Site visits', '现场巡访'),
  singularLabels: labels('Site visit', '现场巡访'),
  menuParent: 'systemSettings',
  fields: {
    note: { type: 'text', labels: labels('Note', '备注') },
    partner: { type: 'reference', labels: labels('Partner', '合作方'), reference: 'partner' },
    photo: { type: 'image', labels: labels('Photo', '照片') },
  },
  list: { columns: ['note'], filters: [], defaultSort: { field: 'note', order: 'ASC' } },
  actions: ['page', 'show', 'create', 'edit'],
  status: 'active',
  version: 1,
};

const ENTRY = {
  id: 5,
  time: '2026-11-20T08:00:00Z',
  userName: 'ada',
  userId: 7,
  action: 'update',
  resource: 'siteVisit',
  recordId: 12,
  outcome: 'success',
  address: '192.0.2.1',
  // not the declared order: photo, partner, note
  changes: JSON.stringify({ photo: { before: 2, after: 3 }, partner: { before: 1, after: 4 }, note: { before: 'a', after: 'b' } }),
  details: null,
};

const open = (locale: 'en' | 'zh', path: string) => {
  const h = consoleHarness({
    handlers: {
      'GET /resource-types/active': [PARTNER, SITE_VISIT],
      'POST /audit-entry/page': { list: [ENTRY, { ...ENTRY, id: 4, resource: 'user', changes: null }], total: 2, pageNum: 1, pageSize: 20 },
      'GET /audit-entry/5': ENTRY,
      'GET /custom/partner/list': [
        { id: 1, name: 'Harbour Partners' },
        { id: 4, name: 'Bay Recycling' },
      ],
      'GET /file/info': [
        { id: 2, name: 'front.jpg', size: 1000, mimeType: 'image/jpeg', sha256: '', hasThumbnail: false, createdTime: '2026-11-20T08:00:00Z' },
        { id: 3, name: 'back.jpg', size: 2000, mimeType: 'image/jpeg', sha256: '', hasThumbnail: false, createdTime: '2026-11-20T08:00:00Z' },
      ],
      'GET /saved-filter': [],
    },
  });
  if (locale === 'zh') h.session.setLang('zh');
  const services: ConsoleServices = { session: h.session, http: h.http, download: h.download, locale, reload: h.reload };
  window.history.replaceState(null, '', path);
  render(<App services={services} messages={consoleMessages} />);
  return h;
};

describe("audit log entries of a configured type's records", () => {
  it('names the type by its label in the list, and offers it in the resource filter', async () => {
    const h = open('en', '/systemSettings/auditLog');
    expect(await screen.findByText('Site visit', {}, WAIT)).toBeTruthy();
    expect(screen.queryByText('siteVisit')).toBeNull();
    // a code resource keeps its enum label
    expect(screen.getAllByText('User').length).toBeGreaterThan(0);
    const user = setupUser();
    await user.click(screen.getByRole('combobox', { name: 'Resource' }));
    const options = await screen.findByRole('listbox');
    await user.click(within(options).getByRole('option', { name: 'Site visit' }));
    await waitFor(
      () => expect(h.calls.some((call) => call.path === '/audit-entry/page' && JSON.stringify((call.body as { resource?: unknown }).resource) === '["siteVisit"]')).toBe(true),
      WAIT,
    );
  });

  it("shows an entry's references by label and files by name, in the declared field order", async () => {
    open('en', '/systemSettings/auditLog/5/show');
    expect(await screen.findByText('Bay Recycling', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Harbour Partners')).toBeTruthy();
    expect(await screen.findByText('front.jpg', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('back.jpg')).toBeTruthy();
    expect(screen.getByText('Site visit')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('td')?.textContent)).toEqual(['Note', 'Partner', 'Photo']);
  });

  it('names the type in Chinese', async () => {
    open('zh', '/systemSettings/auditLog/5/show');
    expect(await screen.findByText('Bay Recycling', {}, WAIT)).toBeTruthy();
    expect(screen.getAllByText('现场巡访').length).toBeGreaterThan(0);
    expect(screen.getAllByText('合作方').length).toBeGreaterThan(0);
  });
});
