// @vitest-environment jsdom
// The console's date pickers: one 24-hour `yyyy-MM-dd HH:mm` format in both languages (never the
// browser's `mm/dd/yyyy hh:mm AM`), texts in the console's language, typed values meaning exactly
// what is shown, and react-admin form values as `yyyy-MM-dd` / ISO instants.
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CoreAdminContext, Form } from 'ra-core';
import type { Locale } from '../../i18n';
import { DateTimeField, LocalDateInput, LocalDateTimeInput } from '../../src/generic/pickers';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

const inLocale = (locale: Locale, children: React.ReactNode) => render(<CoreAdminContext i18nProvider={createI18nProvider(locale)}>{children}</CoreAdminContext>);

const Controlled = ({ initial, onValue }: { initial: Date | null; onValue: (value: Date | null) => void }) => {
  const [value, setValue] = useState(initial);
  return (
    <DateTimeField
      label="When"
      value={value}
      testId="when"
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
};

describe('DateTimeField', () => {
  it.each(['en', 'zh'] as const)('shows a 24-hour yyyy-MM-dd HH:mm value in %s, its calendar button in that language', async (locale) => {
    inLocale(locale, <Controlled initial={new Date(2025, 2, 2, 15, 5, 42)} onValue={() => undefined} />);
    const input = (await screen.findByTestId('when')) as HTMLInputElement;
    expect(input.value).toBe('2025-03-02 15:05');
    const button = screen.getByRole('button', { name: locale === 'zh' ? /选择日期/ : /choose date/i });
    expect(button).toBeTruthy();
  });

  it.each([
    ['en', 'March 2025'],
    ['zh', '2025年3月'],
  ] as const)("titles the calendar's month in %s as %s", async (locale, title) => {
    inLocale(locale, <Controlled initial={new Date(2025, 2, 2, 15, 5, 42)} onValue={() => undefined} />);
    await screen.findByTestId('when');
    fireEvent.click(screen.getByRole('button', { name: locale === 'zh' ? /选择日期/ : /choose date/i }));
    expect((await screen.findAllByText(title)).length).toBeGreaterThan(0);
  });

  it('hands over what is shown: a typed 10:00 is 10:00:00.000 local time', async () => {
    const values: Array<Date | null> = [];
    inLocale('en', <Controlled initial={new Date(2026, 10, 23, 6, 58, 31, 500)} onValue={(value) => values.push(value)} />);
    fireEvent.change(await screen.findByTestId('when'), { target: { value: '2025-03-02 10:00' } });
    await waitFor(() => expect(values.at(-1)?.getTime()).toBe(new Date(2025, 2, 2, 10, 0, 0, 0).getTime()));
  });
});

describe('LocalDateInput and LocalDateTimeInput in a react-admin form', () => {
  it('store a day as yyyy-MM-dd and a date-time as an ISO instant', async () => {
    const saved: Array<Record<string, unknown>> = [];
    inLocale(
      'zh',
      <Form record={{ installDate: '2024-01-31', since: null }} onSubmit={(values: Record<string, unknown>) => void saved.push(values)}>
        <LocalDateInput source="installDate" label="Install date" />
        <LocalDateTimeInput source="since" label="Since" />
        <button type="submit">save</button>
      </Form>,
    );
    const day = (await screen.findByTestId('input-installDate')) as HTMLInputElement;
    expect(day.value).toBe('2024-01-31');
    fireEvent.change(day, { target: { value: '2024-02-29' } });
    fireEvent.change(screen.getByTestId('input-since'), { target: { value: '2024-03-01 23:30' } });
    fireEvent.click(screen.getByText('save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ installDate: '2024-02-29', since: new Date(2024, 2, 1, 23, 30).toISOString() });
  });
});
