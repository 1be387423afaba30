// A table's paging as every paged screen keeps it: a new page size (or new filters: `firstPage`)
// starts again at page 1. Spread `paging.props` onto the table (page, pageSize, onPage, onPageSize).
import { useState } from 'react';

export const usePaging = (defaultPageSize = 20) => {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultPageSize);
  const firstPage = () => setPage(1);
  return {
    page,
    pageSize,
    firstPage,
    props: {
      page,
      pageSize,
      onPage: setPage,
      onPageSize: (size: number) => {
        setPageSize(size);
        setPage(1);
      },
    },
  };
};
