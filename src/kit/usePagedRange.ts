// Paging plus a time range, as every history-like tab keeps it: changing the range or the page size
// goes back to page 1.
import { useState } from 'react';
import { lastDays, rangeBody, type TimeRange } from './timeRange';

export const usePagedRange = (defaultDays: number, defaultPageSize = 20) => {
  const [range, setRangeState] = useState<TimeRange>(() => lastDays(defaultDays));
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(defaultPageSize);
  const body = { ...rangeBody(range), pageNum: page, pageSize };
  return {
    range,
    page,
    pageSize,
    /** The paging and range part of a request body (and so of its query key). */
    body,
    setRange: (next: TimeRange) => {
      setRangeState(next);
      setPage(1);
    },
    setPage,
    setPageSize: (next: number) => {
      setPageSizeState(next);
      setPage(1);
    },
  };
};
