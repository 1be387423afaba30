// @vitest-environment jsdom
// `scaleField` (resources/types.ts): a number shown with as many decimals as its record says. The refund list
// shows each value with its own `decimals` (docs/machine-configuration.md#refund), not the column's three.
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, RecordContextProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { refund } from '../../resources/configurationKinds';
import { DeclarationProvider } from '../../src/generic/DeclarationContext';
import { FieldDisplay } from '../../src/generic/FieldDisplay';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

describe("a number shown with its record's own decimals (scaleField)", () => {
  const showValue = (record: Record<string, unknown>) =>
    render(
      <MemoryRouter>
        <AdminContext i18nProvider={createI18nProvider('en')}>
          <DeclarationProvider declaration={refund} registry={RESOURCES}>
            <RecordContextProvider value={{ id: 1, ...record }}>
              <FieldDisplay source="value" cell />
            </RecordContextProvider>
          </DeclarationProvider>
        </AdminContext>
      </MemoryRouter>,
    );

  it('reads 0.10 with 2 decimals, 0 with none, 0.125 with 3', async () => {
    showValue({ value: 0.1, decimals: 2 });
    await screen.findByText('0.10');
    cleanup();
    showValue({ value: 0.1, decimals: 0 });
    await screen.findByText('0');
    cleanup();
    showValue({ value: 0.125, decimals: 3 });
    await screen.findByText('0.125');
  });

  it('is how the refund list shows its values', () => {
    expect(refund.fields.value.scaleField).toBe('decimals');
  });
});
