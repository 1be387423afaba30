// @vitest-environment jsdom
// The engine extensions the event declarations use, in the console: a `link` column, an enum shown
// as value and label (`display: 'valueLabel'`, also in its filter's choices), a duration column, and
// declared initial values in the create form. Plus the shared display rules and the declarations'
// validation messages, which the console's forms and the server share.
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { AdminContext, Form, RecordContextProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { translate, type Locale } from '../../i18n';
import { RESOURCES } from '../../resources';
import { formatDuration, linkFor, valueWithLabel } from '../../resources/display';
import { event } from '../../resources/event';
import { eventNotification } from '../../resources/eventNotification';
import type { ResourceDeclaration } from '../../resources/types';
import { validateRecord } from '../../resources/validation';
import { DeclarationProvider } from '../../src/generic/DeclarationContext';
import { FieldDisplay } from '../../src/generic/FieldDisplay';
import { FieldInput } from '../../src/generic/FieldInput';
import { buildFilterInputs } from '../../src/generic/filterInputs';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

const wrap = (declaration: ResourceDeclaration, children: ReactNode, locale: Locale = 'en') => (
  <MemoryRouter>
    <AdminContext i18nProvider={createI18nProvider(locale)}>
      <DeclarationProvider declaration={declaration} registry={RESOURCES}>
        {children}
      </DeclarationProvider>
    </AdminContext>
  </MemoryRouter>
);

const EVENT = { id: 9, rvmId: 42, termNo: 'HK0042', code: 'am_code_PK_17', category: 'door', severity: 'error', duration: 3725 };
const showField = (source: string, locale: Locale = 'en', record: object = EVENT) =>
  render(
    wrap(
      event,
      <RecordContextProvider value={record}>
        <FieldDisplay source={source} />
      </RecordContextProvider>,
      locale,
    ),
  );

describe('shared display rules (resources/display.ts)', () => {
  it('formats durations as H:mm:ss with unbounded hours', () => {
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(90 * 3600 + 59)).toBe('90:00:59');
    expect(formatDuration(null)).toBe('');
  });
  it('puts a value before its label, once', () => {
    expect(valueWithLabel('am_code_PK_1', 'Bin 1 full')).toBe('am_code_PK_1 – Bin 1 full');
    expect(valueWithLabel('x', 'x')).toBe('x');
  });
  it('fills a link template from the record, or gives none when a value is missing', () => {
    expect(linkFor('/installation/rvmpage/:rvmId/EventHistory', { rvmId: 42 })).toBe('/installation/rvmpage/42/EventHistory');
    expect(linkFor('/installation/rvmpage/:rvmId/EventHistory', { rvmId: null })).toBeNull();
  });
});

describe('event columns', () => {
  it("the machine number links to the machine page's event history", async () => {
    showField('termNo');
    const link = await screen.findByRole('link', { name: 'HK0042' });
    expect(link.getAttribute('href')).toBe('/installation/rvmpage/42/EventHistory');
  });

  it.each(['en', 'zh'] as const)('the alarm code shows with its text in %s, the duration as H:mm:ss', async (locale) => {
    showField('code', locale);
    const text = translate(locale, 'fleet.alarms.am_code_PK_17');
    expect(await screen.findByText('am_code_PK_17')).toBeTruthy();
    expect(screen.getByTitle(`am_code_PK_17 – ${text}`).textContent).toBe(`am_code_PK_17${text}`);
    cleanup();
    showField('duration', locale);
    expect(await screen.findByText('1:02:05')).toBeTruthy();
  });

  it('the code filter offers every catalogue code with its text', async () => {
    const codeFilter = buildFilterInputs(event, RESOURCES).find((input) => (input.props as { source: string }).source === 'code') as ReactElement<{
      choices: unknown[];
      optionText: ReactElement;
    }>;
    expect(codeFilter.props.choices).toHaveLength(70);
    render(
      wrap(
        event,
        <RecordContextProvider value={{ id: 'am_code_PK_5', name: 'resources.event.enums.code.am_code_PK_5' }}>{codeFilter.props.optionText}</RecordContextProvider>,
        'zh',
      ),
    );
    expect(await screen.findByText(`am_code_PK_5 – ${translate('zh', 'fleet.alarms.am_code_PK_5')}`)).toBeTruthy();
  });
});

describe('event notification form', () => {
  const input = (source: string, view: 'create' | 'edit') =>
    render(
      wrap(
        eventNotification,
        <Form record={view === 'edit' ? { id: 1, notifyOnClear: false } : undefined}>
          <FieldInput source={source} view={view} />
        </Form>,
      ),
    );

  it('starts a new rule with the declared defaults (mail when cleared: on)', async () => {
    input('notifyOnClear', 'create');
    expect(((await screen.findByLabelText('Mail when cleared')) as HTMLInputElement).checked).toBe(true);
  });

  it('keeps the stored value when editing', async () => {
    input('notifyOnClear', 'edit');
    expect(((await screen.findByLabelText('Mail when cleared')) as HTMLInputElement).checked).toBe(false);
  });

  it('validates the comma-separated lists with their own messages (the server runs the same rules)', () => {
    const rule = { name: 'r', alarmCodes: 'am_code_PK_1,am_code_PK_70', recipients: 'a@b.io, c@d.org' };
    expect(validateRecord(eventNotification, rule, 'create')).toEqual([]);
    const messages = (patch: object) => validateRecord(eventNotification, { ...rule, ...patch }, 'create').map((issue) => issue.message);
    expect(messages({ alarmCodes: 'am_code_PK_1 am_code_PK_2' })).toEqual(['events.validation.alarmCodeList']);
    expect(messages({ alarmCodes: 'am_code_PK_1,am_code_PK_71' })).toEqual(['events.validation.unknownAlarmCode']);
    expect(messages({ recipients: 'a@b.io; c@d.org' })).toEqual(['events.validation.emailList']);
    for (const key of ['events.validation.alarmCodeList', 'events.validation.unknownAlarmCode', 'events.validation.emailList']) {
      expect(translate('en', key)).not.toBe(key);
      expect(translate('zh', key)).not.toBe(translate('en', key));
    }
  });

  it("shows a rule's alarm codes as their texts in the user's language, each code in its tooltip", async () => {
    const rule = { id: 3, alarmCodes: 'am_code_PK_1, am_code_PK_17' };
    for (const locale of ['en', 'zh'] as const) {
      const { container, unmount } = render(
        wrap(
          eventNotification,
          <RecordContextProvider value={rule}>
            <FieldDisplay source="alarmCodes" />
          </RecordContextProvider>,
          locale,
        ),
      );
      await screen.findByTitle('am_code_PK_17');
      const chips = [...container.querySelectorAll('[data-value]')];
      expect(chips.map((chip) => chip.getAttribute('title'))).toEqual(['am_code_PK_1', 'am_code_PK_17']);
      const texts = chips.map((chip) => chip.textContent);
      expect(texts).toEqual(['am_code_PK_1', 'am_code_PK_17'].map((code) => translate(locale, `resources.eventNotification.enums.alarmCodes.${code}`)));
      expect(texts.some((text) => text?.startsWith('am_code'))).toBe(false);
      unmount();
    }
  });

  it('labels every field and filter of both declarations in both languages', () => {
    for (const declaration of [event, eventNotification]) {
      const keys = [
        `resources.${declaration.name}.name`,
        ...Object.keys(declaration.fields).map((field) => `resources.${declaration.name}.fields.${field}`),
        ...declaration.list.filters.map((filter) => `resources.${declaration.name}.filters.${filter.name}`),
      ];
      for (const locale of ['en', 'zh'] as const) for (const key of keys) expect(translate(locale, key), key).not.toBe(key);
    }
  });
});
