// @vitest-environment jsdom
// A new subscription (csApi, ciApi, statusApi; docs/api-hookups.md "Subscriptions") starts with every event of
// its API chosen, as the declaration's default says and the server stores by default; the events still not
// chosen stay offered. Editing keeps the stored choice.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { AdminContext, Form } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { ciApi, csApi } from '../../resources/hookupSubscription';
import type { ResourceDeclaration } from '../../resources/types';
import { DeclarationProvider } from '../../src/generic/DeclarationContext';
import { FieldInput } from '../../src/generic/FieldInput';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

/** The chips' texts: each chosen event's name in the console's language (its identifier is in the drop-down). */
const chipTexts = () => [...document.querySelectorAll('.MuiChip-label')].map((chip) => chip.textContent);

const Value = () => <output data-testid="value">{String(useWatch({ name: 'events' }) ?? '')}</output>;

const renderEvents = (declaration: ResourceDeclaration, record?: object) =>
  render(
    <MemoryRouter>
      <AdminContext i18nProvider={createI18nProvider('en')}>
        <DeclarationProvider declaration={declaration} registry={RESOURCES}>
          <Form record={record}>
            <FieldInput source="events" view={record ? 'edit' : 'create'} />
            <Value />
          </Form>
        </DeclarationProvider>
      </AdminContext>
    </MemoryRouter>,
  );

describe('subscription events', () => {
  it.each([
    ['csApi', 'consumerSession.completed', ['Consumer session completed']],
    ['ciApi', 'bin.emptied, bin.full', ['Bin emptied', 'Bin full']],
  ] as const)('a new %s subscription starts with its events chosen', async (name, stored, chips) => {
    renderEvents(name === 'csApi' ? csApi : ciApi);
    await screen.findByText(chips[0]);
    expect(chipTexts()).toEqual(chips);
    expect(screen.getByTestId('value').textContent).toBe(stored);
  });

  it('editing keeps the stored choice and offers the other events', async () => {
    renderEvents(ciApi, { id: 1, events: 'bin.full' });
    await screen.findByText('Bin full');
    expect(chipTexts()).toEqual(['Bin full']);
    fireEvent.mouseDown(screen.getByRole('combobox'));
    // an option shows the event's name and, beside it, the identifier receivers get
    const option = await within(await screen.findByRole('listbox')).findByRole('option', { name: /Bin emptied/ });
    expect(option.textContent).toBe('Bin emptiedbin.emptied');
    fireEvent.click(option);
    expect(screen.getByTestId('value').textContent).toBe('bin.full, bin.emptied');
  });
});
