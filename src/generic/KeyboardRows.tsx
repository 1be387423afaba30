// Rows of the generic lists that open (rowClick: edit, show, or a screen's page) are operable from
// the keyboard too: each is a Tab stop, Enter opens it as a click does, and the focused row shows a
// focus ring. Rows that open nothing stay out of the Tab order. Used as DataTable's `body`.
import type { KeyboardEvent } from 'react';
import { useDataTableCallbacksContext } from 'ra-core';
import { DataTableBody, DataTableRow, type DataTableBodyProps, type DataTableRowProps } from 'react-admin';

const openOnEnter = (event: KeyboardEvent<HTMLTableRowElement>) => {
  // keys pressed in the row's own controls (the selection checkbox, a row button) are theirs
  if (event.key !== 'Enter' || event.target !== event.currentTarget) return;
  event.preventDefault();
  event.currentTarget.click();
};

const KeyboardRow = (props: DataTableRowProps) => {
  const { rowClick } = useDataTableCallbacksContext();
  return rowClick ? <DataTableRow {...props} tabIndex={0} onKeyDown={openOnEnter} /> : <DataTableRow {...props} />;
};

export const KeyboardRowsBody = (props: DataTableBodyProps) => <DataTableBody {...props} row={KeyboardRow} />;

/** The focus ring of a keyboard-focused row (part of the list's table styles). */
export const ROW_FOCUS_SX = {
  '& .RaDataTable-clickableRow:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
} as const;
