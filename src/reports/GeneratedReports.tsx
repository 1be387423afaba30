// "Generated reports": the files kept so far (by a user's "Generate" or a notification subscription),
// newest first, each downloadable through the download client.
import { usePaging } from '../layout/usePaging';
import { useTranslate } from 'ra-core';
import { Box, Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { formatBytes } from '../generic/format';
import { PagedTable, type Column } from '../kit/PagedTable';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { saveBlob } from '../providers/download';
import type { GeneratedReportRow } from './types';
import { includedDays } from './reportRange';

export const GeneratedReports = ({ refreshKey }: { refreshKey: number }) => {
  const translate = useTranslate();
  const { download } = useConsoleServices();
  const paging = usePaging(10);
  const { page, pageSize } = paging;
  const loaded = useApiQuery(['generatedReports', page, pageSize, refreshKey], (http, signal) =>
    http.post<{ list: GeneratedReportRow[]; total: number }>('/report/generated/page', { pageNum: page, pageSize }, { signal }),
  );
  const fetchFile = async (row: GeneratedReportRow) => {
    try {
      const { blob, filename } = await download.download('GET', `/report/generated/${row.id}/file`);
      saveBlob(blob, filename);
    } catch {
      // the download client showed 'Download failed'
    }
  };
  const columns: Column<GeneratedReportRow>[] = [
    { key: 'createdTime', label: 'reports.generated.createdTime', render: (row) => row.createdTime, nowrap: true },
    { key: 'report', label: 'reports.generated.report', render: (row) => translate(`reports.kinds.${row.report}.title`) },
    { key: 'range', label: 'reports.generated.range', render: (row) => includedDays(row.params.from, row.params.to) },
    {
      key: 'fileName',
      label: 'reports.generated.fileName',
      render: (row) => (
        <Box component="span" sx={{ wordBreak: 'break-all', display: 'inline-block', minWidth: 200 }}>
          {row.fileName}
        </Box>
      ),
    },
    { key: 'format', label: 'reports.generated.format', render: (row) => row.format.toUpperCase() },
    { key: 'size', label: 'reports.generated.size', render: (row) => formatBytes(row.size), align: 'right', nowrap: true },
    {
      key: 'producedBy',
      label: 'reports.generated.producedBy',
      render: (row) =>
        row.producedBy.kind === 'subscription'
          ? translate('reports.generated.bySubscription', { id: row.producedBy.subscriptionId ?? '' })
          : translate('reports.generated.byUser', { name: row.producedBy.userName ?? translate('reports.generated.unknownUser') }),
    },
    {
      key: 'download',
      label: 'reports.actions.download',
      render: (row) => (
        <Button
          size="small"
          startIcon={<DownloadIcon />}
          onClick={() => void fetchFile(row)}
          aria-label={`${translate('reports.actions.download')} ${row.fileName}`}
          sx={{ textTransform: 'none', whiteSpace: 'nowrap' }}
        >
          {translate('reports.actions.download')}
        </Button>
      ),
    },
  ];
  return (
    <PagedTable
      columns={columns}
      rows={loaded.data?.list}
      total={loaded.data?.total ?? 0}
      {...paging.props}
      rowKey={(row) => row.id}
      isPending={loaded.isPending}
      error={loaded.error}
      onRetry={loaded.reload}
      empty="reports.generated.empty"
      caption={translate('reports.tabs.generated')}
      testId="generated-reports"
    />
  );
};
