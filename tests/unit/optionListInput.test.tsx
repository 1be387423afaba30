// @vitest-environment jsdom
// A comma-separated option list picked from its options (display 'optionList'): the stored text shows as
// chips with each option's label in the console's language, and picking one more stores `a, b, c`.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { CoreAdminContext, Form } from 'ra-core';
import { useWatch } from 'react-hook-form';
import type { Locale } from '../../i18n';
import { eventNotification } from '../../resources/eventNotification';
import { enumChoices } from '../../src/providers/registry';
import { joinOptionList, OptionListInput, splitOptionList } from '../../src/generic/OptionListInput';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

const Value = () => <output data-testid="value">{String(useWatch({ name: 'alarmCodes' }))}</output>;

const renderIn = (locale: Locale, alarmCodes: string) =>
  render(
    <CoreAdminContext i18nProvider={createI18nProvider(locale)}>
      <Form record={{ id: 1, alarmCodes }}>
        <OptionListInput source="alarmCodes" label="Alarm codes" choices={enumChoices(eventNotification, 'alarmCodes')} />
        <Value />
      </Form>
    </CoreAdminContext>,
  );

describe('option list input', () => {
  it('splits and joins the stored text', () => {
    expect(splitOptionList(' am_code_PK_1 ,am_code_PK_17,, ')).toEqual(['am_code_PK_1', 'am_code_PK_17']);
    expect(splitOptionList(null)).toEqual([]);
    expect(joinOptionList(['am_code_PK_1', 'am_code_PK_17'])).toBe('am_code_PK_1, am_code_PK_17');
  });

  it.each([
    ['en', 'am_code_PK_1 Bin 1 full'],
    ['zh', 'am_code_PK_1 '],
  ] as const)('shows the stored codes as chips with their texts (%s), and a picked one joins the list', async (locale, firstChip) => {
    renderIn(locale, 'am_code_PK_1, am_code_PK_2');
    const chips = await screen.findAllByRole('button', { name: /am_code_PK_[12] / });
    expect(chips.map((chip) => chip.textContent)).toHaveLength(2);
    expect(chips[0].textContent).toContain(firstChip);
    if (locale === 'zh') expect(chips[0].textContent).not.toMatch(/Bin 1 full/);
    const input = screen.getByRole('combobox');
    fireEvent.change(input, { target: { value: 'am_code_PK_4' } });
    fireEvent.click(await within(await screen.findByRole('listbox')).findByText(/^am_code_PK_4 /));
    expect(screen.getByTestId('value').textContent).toBe('am_code_PK_1, am_code_PK_2, am_code_PK_4');
  });
});
