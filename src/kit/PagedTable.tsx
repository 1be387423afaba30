// A server-paged table for the machine page tabs and the quarantine list: columns with render
// functions, react-admin's paging texts (ra.navigation.*), loading/error/empty states, and rows that
// open with a click or Enter when `onRowClick` is given.
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Box, LinearProgress, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, type SxProps, type Theme } from '@mui/material';
import { LIST_PAGE_SIZES } from '../../resources/types';
import { EmptyState, LoadError, Loading } from './LoadState';
import type { ApiAnswer } from './useApiQuery';

export interface Column<T> {
  key: string;
  /** Catalogue key of the header. */
  label: string;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** Keep the cell on one line (times, codes). */
  nowrap?: boolean;
  /** Take the width the other columns leave (at least `minWidth`): its content must cut itself short (an ellipsis). */
  fill?: { minWidth: number };
}

/** The cell's own style: one line, or the rest of the row's width. */
const cellSx = <T,>(column: Column<T>): SxProps<Theme> | undefined => {
  if (column.fill) return { width: '100%', maxWidth: 0, minWidth: column.fill.minWidth };
  return column.nowrap ? { whiteSpace: 'nowrap' } : undefined;
};

export interface PagedTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
  rowKey: (row: T) => string | number;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  /** Catalogue key of the text shown when nothing matches. */
  empty: string;
  onRowClick?: (row: T) => void;
  rowSx?: (row: T) => SxProps<Theme> | undefined;
  /** Accessible name of the table. */
  caption: string;
  testId?: string;
  /** A complete list (no paging controls). */
  unpaged?: boolean;
}

export const PAGE_SIZES: number[] = [...LIST_PAGE_SIZES];

/** A row that opens: the pointer says so, and a keyboard focus shows a ring. */
const ROW_OPENS_SX = {
  cursor: 'pointer',
  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
} as const;

/** The paging and loading props of a table fed by usePagedRange and useApiQuery (the tabs' common case). */
export const pagedTableState = <T,>(
  paging: { page: number; pageSize: number; setPage: (page: number) => void; setPageSize: (pageSize: number) => void },
  loaded: Pick<ApiAnswer<{ list: T[]; total: number }>, 'data' | 'isPending' | 'error' | 'reload'>,
) => ({
  rows: loaded.data?.list,
  total: loaded.data?.total ?? 0,
  page: paging.page,
  pageSize: paging.pageSize,
  onPage: paging.setPage,
  onPageSize: paging.setPageSize,
  isPending: loaded.isPending,
  error: loaded.error,
  onRetry: loaded.reload,
});

export const PagedTable = <T,>(props: PagedTableProps<T>) => {
  const { columns, rows, total, page, pageSize, onPage, onPageSize, rowKey, isPending, error, onRetry, empty, onRowClick, rowSx, caption, testId, unpaged } = props;
  const translate = useTranslate();
  if (error && !rows) return <LoadError onRetry={onRetry} />;
  if (!rows) return <Loading />;

  const openOnKey = (row: T) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };

  return (
    <Box data-testid={testId}>
      {error ? <LoadError onRetry={onRetry} /> : null}
      <Box sx={{ height: 4 }}>{isPending ? <LinearProgress /> : null}</Box>
      <TableContainer sx={{ overflowX: 'auto' }}>
        {/* 10 px either side instead of MUI's 16: the quarantine's and the sessions' columns fit 1280 px beside the sidebar */}
        <Table size="small" aria-label={caption} sx={{ '& .MuiTableCell-sizeSmall': { px: 1.25 } }}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.key} align={column.align} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                  {translate(column.label)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={rowKey(row)}
                hover
                tabIndex={onRowClick ? 0 : undefined}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
                onKeyDown={onRowClick ? openOnKey(row) : undefined}
                sx={{ ...(onRowClick ? ROW_OPENS_SX : {}), ...(rowSx?.(row) as object | undefined) }}
              >
                {columns.map((column) => (
                  <TableCell key={column.key} align={column.align} sx={cellSx(column)}>
                    {column.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length === 0 ? <EmptyState>{translate(empty)}</EmptyState> : null}
      {unpaged ? null : (
        <TablePagination
          component="div"
          count={total}
          page={Math.max(0, page - 1)}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_event, next) => onPage(next + 1)}
          onRowsPerPageChange={(event) => onPageSize(Number(event.target.value))}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
          labelDisplayedRows={({ from, to, count }) => translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })}
          getItemAriaLabel={(type) =>
            translate(type === 'next' ? 'ra.navigation.next' : type === 'previous' ? 'ra.navigation.previous' : type === 'first' ? 'ra.navigation.first' : 'ra.navigation.last')
          }
        />
      )}
    </Box>
  );
};
