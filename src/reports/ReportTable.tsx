// The report's table: a server page of rows (machine reports, rejected items) or every day, with the
// totals of the whole selection as the last row; for the reject reports the rejects per reason too.
import { useTranslate } from 'ra-core';
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { REPORT_COLUMNS } from '../../resources/reports';
import { formatCount, formatPercent } from '../dashboard/format';
import { PagedTable, type Column } from '../kit/PagedTable';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import { cellText, isNumeric } from './cells';
import type { ReportAnswer, ReportRow } from './types';

interface ReportTableProps {
  answer: ReportAnswer;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

export const ReportTable = ({ answer, isPending, error, onRetry, page, pageSize, onPage, onPageSize }: ReportTableProps) => {
  const translate = useTranslate();
  const { locale } = useConsoleServices();
  const columns: Column<ReportRow>[] = REPORT_COLUMNS[answer.report].map((column, index) => ({
    key: column,
    label: column.startsWith('material:') ? `fleet.itemTypes.${column.slice('material:'.length)}` : `reports.columns.${column}`,
    render: (row) => {
      if (!row.__total) return cellText(translate, locale, column, row);
      if (index === 0) return translate('reports.totalRow');
      return isNumeric(column) ? cellText(translate, locale, column, row) : '';
    },
    align: isNumeric(column) ? 'right' : 'left',
    nowrap: column === 'time' || column === 'day',
  }));
  const hasTotals = answer.report !== 'barcodeRejects';
  const rows = hasTotals && answer.rows.length ? [...answer.rows, { ...answer.totals, __total: 1 }] : answer.rows;
  return (
    <PagedTable
      columns={columns}
      rows={rows}
      total={answer.total}
      page={page}
      pageSize={pageSize}
      onPage={onPage}
      onPageSize={onPageSize}
      unpaged={answer.report === 'volumesDaily'}
      rowKey={(row) => (row.__total ? 'total' : String(row.rvmId ?? row.day ?? '') + String(row.time ?? '') + String(row.barcode ?? '') + String(row.reason ?? ''))}
      rowSx={(row) => (row.__total ? { '& td': { fontWeight: 600, borderTop: '2px solid', borderTopColor: 'divider' } } : undefined)}
      isPending={isPending}
      error={error}
      onRetry={onRetry}
      empty="reports.empty"
      caption={translate(`reports.kinds.${answer.report}.title`)}
      testId="report-table"
    />
  );
};

/** Accepted_Rejects_Counts: the rejects of the selection per reason, with their share. */
export const ReasonTable = ({ answer }: { answer: ReportAnswer }) => {
  const translate = useTranslate();
  const { locale } = useConsoleServices();
  const total = answer.chart.reduce((sum, entry) => sum + Number(entry.rejected), 0);
  if (!answer.chart.length) return null;
  return (
    <TitledCard title={translate('reports.reasonsTable')} testId="reason-table">
      <TableContainer>
        <Table size="small" aria-label={translate('reports.reasonsTable')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('reports.columns.code')}</TableCell>
              <TableCell>{translate('reports.columns.reason')}</TableCell>
              <TableCell align="right">{translate('reports.columns.rejected')}</TableCell>
              <TableCell align="right">%</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {answer.chart.map((entry) => (
              <TableRow key={String(entry.key)}>
                <TableCell>{entry.key}</TableCell>
                <TableCell>{translate(`fleet.rejectReasons.${entry.key}`)}</TableCell>
                <TableCell align="right">{formatCount(Number(entry.rejected), locale)}</TableCell>
                <TableCell align="right">{formatPercent(total ? Number(entry.rejected) / total : null, locale)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </TitledCard>
  );
};
