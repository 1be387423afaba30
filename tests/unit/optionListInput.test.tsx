// @vitest-environment jsdom
// A comma-separated option list picked from its options (display 'optionList'): the stored text shows as
// chips with each option's label in the console's language (the value only in the drop-down, beside its
// label), options are found by label or value, and picking one more stores `a, b, c`.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CoreAdminContext, Form } from 'ra-core';
import { useWatch } from 'react-hook-form';
import type { Locale } from '../../i18n';
import { eventNotification } from '../../resources/eventNotification';
import { promotionOption } from '../../resources/promotions';
import { enumChoices } from '../../src/providers/registry';
import { joinOptionList, OptionListInput, splitOptionList } from '../../src/generic/OptionListInput';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

const Value = ({ source }: { source: string }) => <output data-testid="value">{String(useWatch({ name: source }))}</output>;

const renderIn = (locale: Locale, alarmCodes: string) =>
  render(
    <CoreAdminContext i18nProvider={createI18nProvider(locale)}>
      <Form record={{ id: 1, alarmCodes }}>
        <OptionListInput source="alarmCodes" label="Alarm codes" choices={enumChoices(eventNotification, 'alarmCodes')} />
        <Value source="alarmCodes" />
      </Form>
    </CoreAdminContext>,
  );

const chipTexts = () => [...document.querySelectorAll('.MuiChip-label')].map((chip) => chip.textContent);

describe('option list input', () => {
  it('splits and joins the stored text', () => {
    expect(splitOptionList(' am_code_PK_1 ,am_code_PK_17,, ')).toEqual(['am_code_PK_1', 'am_code_PK_17']);
    expect(splitOptionList(null)).toEqual([]);
    expect(joinOptionList(['am_code_PK_1', 'am_code_PK_17'])).toBe('am_code_PK_1, am_code_PK_17');
  });

  it.each([
    ['en', ['Bin 1 full', 'Bin 2 full'], 'Bin almost full'],
    ['zh', ['1号回收箱已满', '2号回收箱已满'], '回收箱即将装满'],
  ] as const)('shows the stored codes as chips of their texts (%s), finds one by its code, and a picked one joins the list', async (locale, chips, fourth) => {
    renderIn(locale, 'am_code_PK_1, am_code_PK_2');
    await screen.findByText(chips[0]);
    expect(chipTexts()).toEqual(chips);
    const input = screen.getByRole('combobox');
    fireEvent.focus(input); // typed text sticks only in a focused input, as a user's does
    fireEvent.change(input, { target: { value: 'am_code_PK_4' } });
    // only options whose code holds the typed text are left once the input's debounce has passed
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox'))
          .getAllByRole('option')
          .every((option) => option.textContent?.includes('am_code_PK_4')),
      ).toBe(true),
    );
    const option = within(screen.getByRole('listbox')).getByRole('option', { name: new RegExp(fourth) });
    expect(option.textContent).toBe(`${fourth}am_code_PK_4`);
    fireEvent.click(option);
    expect(screen.getByTestId('value').textContent).toBe('am_code_PK_1, am_code_PK_2, am_code_PK_4');
    expect(chipTexts()).toEqual([...chips, fourth]);
  });

  it('finds an option by its label too, and shows days by name only (not "mon Monday")', async () => {
    render(
      <CoreAdminContext i18nProvider={createI18nProvider('en')}>
        <Form record={{ id: 1, days: 'mon, tue' }}>
          <OptionListInput source="days" label="Days" choices={enumChoices(promotionOption, 'days')} />
          <Value source="days" />
        </Form>
      </CoreAdminContext>,
    );
    await screen.findByText('Monday');
    expect(chipTexts()).toEqual(['Monday', 'Tuesday']);
    fireEvent.focus(screen.getByRole('combobox'));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'frid' } });
    // the typed text filters the options once the input's debounce has passed
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox'))
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Fridayfri']),
    );
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    fireEvent.click(options[0]);
    expect(screen.getByTestId('value').textContent).toBe('mon, tue, fri');
  });
});
