// A server-paged table that loads its own pages: the page and page size it asks for (a new page size
// goes back to page 1), the answer `{ list, total }` through useApiQuery, and PagedTable to show it. The
// version screens' tables (a machine's version history, the software upgrade's and the AI screen's
// machine lists) are this one table with their own columns; each may link a row to the deployment that
// installed what it shows (`deploymentColumn`).
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { deployment } from '../../resources/deployment';
import type { HttpClient } from '../providers/httpTypes';
import { PagedTable, type Column, type PagedTableProps } from './PagedTable';
import { useApiQuery } from './useApiQuery';

export interface Paging {
  pageNum: number;
  pageSize: number;
}

type ShownProps<T> = Pick<PagedTableProps<T>, 'columns' | 'rowKey' | 'empty' | 'caption' | 'testId'>;

export interface QueryPagedTableProps<T> extends ShownProps<T> {
  /** Loads one page. */
  load: (http: HttpClient, paging: Paging, signal: AbortSignal) => Promise<{ list: T[]; total: number }>;
  /** Names the list and what `load` asks besides the page, unique in the console (the same key is the same answer). */
  loadKey: string;
  initialPageSize?: number;
}

export const QueryPagedTable = <T,>({ load, loadKey, initialPageSize = 10, ...shown }: QueryPagedTableProps<T>) => {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialPageSize);
  const loaded = useApiQuery(['pagedTable', loadKey, page, pageSize], (http, signal) => load(http, { pageNum: page, pageSize }, signal));
  return (
    <PagedTable
      {...shown}
      rows={loaded.data?.list}
      total={loaded.data?.total ?? 0}
      page={page}
      pageSize={pageSize}
      onPage={setPage}
      onPageSize={(size) => {
        setPageSize(size);
        setPage(1);
      }}
      isPending={loaded.isPending}
      error={loaded.error}
      onRetry={loaded.reload}
    />
  );
};

/** A deployment's page (Service › Setup › Deployments, the declaration's route). */
export const deploymentPath = (id: number | string) => `${deployment.route}/${encodeURIComponent(String(id))}`;

/** A column linking each row to the deployment `idOf` names ("–" for none). */
export const deploymentColumn = <T,>(idOf: (row: T) => number | null | undefined, label = 'deployments.upgrade.deployment'): Column<T> => ({
  key: 'deployment',
  label,
  render: (row) => {
    const id = idOf(row);
    return id ? (
      <Link component={RouterLink} to={deploymentPath(id)}>
        #{id}
      </Link>
    ) : (
      '–'
    );
  },
  nowrap: true,
});
