// The Reports screen (menu reports › report, docs/reports.md#definitions): pick one of the four reports, local days, fleets
// and machines; a chart and a table (POST /report/data); download as CSV or XLSX (POST /report/export
// through the download client); "Generate" keeps an XLSX file, listed under "Generated reports".
import { useRef, useState } from 'react';
import { usePaging } from '../layout/usePaging';
import { useNotify, useTranslate } from 'ra-core';
import { Alert, Box, Button, Tab, Tabs, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import SaveIcon from '@mui/icons-material/SaveAlt';
import type { ReportFormat } from '../../resources/reports';
import { ScreenHeading } from '../pages/ScreenHeading';
import type { ScreenProps } from '../pages/screenProps';
import { Loading } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { saveBlob } from '../providers/download';
import { ApiError } from '../providers/httpTypes';
import { DownloadProgressDialog, type DownloadProgress } from '../generic/DownloadProgressDialog';
import { GeneratedReports } from './GeneratedReports';
import { ReportChart } from './ReportChart';
import { ReportControls, type ReportChoice } from './ReportControls';
import { ReasonTable, ReportTable } from './ReportTable';
import { lastDays, rangeBody } from './reportRange';
import type { ReportAnswer } from './types';

const selectionOf = (choice: ReportChoice) => ({
  report: choice.report,
  ...rangeBody(choice.range)!,
  fleetIds: choice.fleets.map((fleet) => fleet.id),
  machineIds: choice.machines.map((machine) => machine.id),
});

export const ReportPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const { download, http } = useConsoleServices();
  const [tab, setTab] = useState<'report' | 'generated'>('report');
  const [choice, setChoice] = useState<ReportChoice>({ report: 'volumes', range: lastDays(30), fleets: [], machines: [] });
  const paging = usePaging(20);
  const { page, pageSize } = paging;
  const [busy, setBusy] = useState(false);
  // The file being prepared (rendered by the server off its request loop) and received; cancellable.
  const [progress, setProgress] = useState<(DownloadProgress & { title: string }) | null>(null);
  const abort = useRef<AbortController | null>(null);
  const track = async (title: string, work: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setProgress({ loaded: 0, title });
    try {
      await work(controller.signal);
    } catch {
      // the clients showed the server's reason; a cancel needs no message
    } finally {
      abort.current = null;
      setProgress(null);
      setBusy(false);
    }
  };
  const [generatedCount, setGeneratedCount] = useState(0);
  const selection = selectionOf(choice);
  const loaded = useApiQuery(['report', selection, page, pageSize], (client, signal) =>
    client.post<ReportAnswer>('/report/data', { ...selection, pageNum: page, pageSize }, { signal }),
  );
  const answer = loaded.data?.report === choice.report ? loaded.data : undefined;
  const refused = loaded.error instanceof ApiError && loaded.error.code === '4003';

  const change = (next: ReportChoice) => {
    setChoice(next);
    paging.firstPage();
  };
  const fetchFile = (format: ReportFormat) =>
    track(translate('reports.actions.preparingFile'), async (signal) => {
      const onProgress = ({ loaded, total }: DownloadProgress) => setProgress((current) => current && { ...current, loaded, total });
      const { blob, filename } = await download.download('POST', '/report/export', { body: { ...selection, format }, onProgress, signal });
      saveBlob(blob, filename);
    });
  const generate = () =>
    track(translate('reports.actions.generating'), async (signal) => {
      await http.post('/report/generate', { ...selection, format: 'xlsx' }, { signal });
      notify('reports.actions.generated', { type: 'success' });
      setGeneratedCount((count) => count + 1);
    });

  return (
    <Box data-testid="report-page">
      <ScreenHeading node={node} />
      <Tabs value={tab} onChange={(_event, next: 'report' | 'generated') => setTab(next)} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="report" label={translate('reports.tabs.report')} data-testid="tab-report" />
        <Tab value="generated" label={translate('reports.tabs.generated')} data-testid="tab-generated" />
      </Tabs>
      {tab === 'generated' ? (
        <GeneratedReports refreshKey={generatedCount} />
      ) : refused ? (
        <Alert severity="warning">{translate('reports.noPermission')}</Alert>
      ) : (
        <>
          <ReportControls value={choice} onChange={change} />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 320px' }}>
              {translate(`reports.kinds.${choice.report}.description`)}
            </Typography>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={busy} onClick={() => void fetchFile('csv')} data-testid="download-csv">
              {translate('reports.actions.csv')}
            </Button>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={busy} onClick={() => void fetchFile('xlsx')} data-testid="download-xlsx">
              {translate('reports.actions.xlsx')}
            </Button>
            <Button variant="contained" startIcon={<SaveIcon />} disabled={busy} onClick={() => void generate()} data-testid="generate">
              {translate('reports.actions.generate')}
            </Button>
          </Box>
          {!answer ? (
            loaded.error ? null : (
              <Loading label={translate('reports.loading')} />
            )
          ) : (
            <Box sx={{ display: 'grid', gap: 2 }}>
              <ReportChart answer={answer} />
              {answer.report === 'acceptedRejects' ? <ReasonTable answer={answer} /> : null}
              <ReportTable answer={answer} isPending={loaded.isPending} error={loaded.error} onRetry={loaded.reload} {...paging.props} />
            </Box>
          )}
        </>
      )}
      <DownloadProgressDialog progress={progress} title={progress?.title ?? ''} onCancel={() => abort.current?.abort()} />
    </Box>
  );
};

export default ReportPage;
