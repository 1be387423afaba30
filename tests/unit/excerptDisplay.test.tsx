// @vitest-environment jsdom
// `display: 'excerpt'` (resources/types.ts): a long text is one short line in a list cell, whole on hover and
// whole on the record's page. The transactions screens use it for the message id and the last answer, so
// their seven columns fit 1280 px.
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, RecordContextProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { csApiTransaction } from '../../resources/hookupMessage';
import { DeclarationProvider } from '../../src/generic/DeclarationContext';
import { FieldDisplay } from '../../src/generic/FieldDisplay';
import { createI18nProvider } from '../../src/providers/i18nProvider';

afterEach(cleanup);

const ANSWER = '502 <html><head><title>Bad gateway</title></head><body>upstream unreachable</body></html>';
const show = (cell: boolean) =>
  render(
    <MemoryRouter>
      <AdminContext i18nProvider={createI18nProvider('en')}>
        <DeclarationProvider declaration={csApiTransaction} registry={RESOURCES}>
          <RecordContextProvider value={{ id: 1, lastResponse: ANSWER }}>
            <FieldDisplay source="lastResponse" cell={cell} />
          </RecordContextProvider>
        </DeclarationProvider>
      </AdminContext>
    </MemoryRouter>,
  );

describe('excerpt display', () => {
  it('cuts the text to one line in a list cell, the whole text in its tooltip', async () => {
    show(true);
    const excerpt = await screen.findByTitle(ANSWER);
    expect(excerpt.textContent).toBe(ANSWER);
    const style = getComputedStyle(excerpt);
    expect(style.textOverflow).toBe('ellipsis');
    expect(style.whiteSpace).toBe('nowrap');
    expect(style.overflow).toBe('hidden');
  });

  it('shows the whole text, uncut, outside a list', async () => {
    show(false);
    await screen.findByText(ANSWER);
    expect(screen.queryByTitle(ANSWER)).toBeNull();
  });

  it('is what the transactions declare for the message id and the last answer', () => {
    expect(csApiTransaction.fields.messageId.display).toBe('excerpt');
    expect(csApiTransaction.fields.lastResponse.display).toBe('excerpt');
  });
});
