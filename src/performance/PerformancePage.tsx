// service › performance (MCBE chart and main errors over at most three months:
// docs/product-rules.md#screen-contents): the filters, the totals, MCBE over time, the sub-fleets and the main errors ranking
// of POST /performance/mcbe and /performance/errors (docs/performance.md).
import { lazy, Suspense, useState } from 'react';
import { useTranslate } from 'ra-core';
import { Alert, Box, Button, Card, CardContent, Skeleton, Tooltip, Typography } from '@mui/material';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ApiError } from '../providers/httpTypes';
import { formatCount } from '../dashboard/format';
import type { ErrorSort, ErrorsAnswer, McbeAnswer } from '../../resources/performance';
import { PerformanceFilters, presetRange, type FleetOption, type PerformanceFilter } from './PerformanceFilters';

const chartsChunk = () => import('./PerformanceCharts');
const McbeChart = lazy(() => chartsChunk().then((module) => ({ default: module.McbeChart })));
const FleetTable = lazy(() => chartsChunk().then((module) => ({ default: module.FleetTable })));
const ErrorsRanking = lazy(() => chartsChunk().then((module) => ({ default: module.ErrorsRanking })));

interface Options {
  today: string;
  earliestDay: string;
  utcOffsetMinutes: number;
  fleets: FleetOption[];
}

/** The browser's UTC offset, as the server takes it (a multiple of 15 minutes). */
const browserOffset = () => {
  const offset = -new Date().getTimezoneOffset();
  return offset - (offset % 15);
};

const Total = ({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) => (
  <Card variant="outlined" sx={{ minWidth: 0 }}>
    <CardContent>
      <Tooltip title={hint ?? ''} disableHoverListener={!hint}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
      </Tooltip>
      <Typography variant="h5" component="p" data-testid={testId}>
        {value}
      </Typography>
    </CardContent>
  </Card>
);

const Figures = ({ filter, offset }: { filter: PerformanceFilter; offset: number }) => {
  const translate = useTranslate();
  const { locale } = useConsoleServices();
  const [sort, setSort] = useState<ErrorSort>('count');
  const body = { from: filter.from, to: filter.to, utcOffsetMinutes: offset, fleetId: filter.fleetId, rvmId: filter.rvmId };
  const mcbe = useApiQuery<McbeAnswer>(['performance', 'mcbe', body], (http, signal) => http.post<McbeAnswer>('/performance/mcbe', body, { signal }));
  const errors = useApiQuery<ErrorsAnswer>(['performance', 'errors', body, sort], (http, signal) => http.post<ErrorsAnswer>('/performance/errors', { ...body, sort }, { signal }));
  const failed = mcbe.error ?? errors.error;
  if (failed) {
    return (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              mcbe.reload();
              errors.reload();
            }}
          >
            {translate('performance.retry')}
          </Button>
        }
      >
        {failed instanceof ApiError ? failed.message : translate('performance.loadFailed')}
      </Alert>
    );
  }
  const skeleton = <Skeleton variant="rounded" height={320} data-testid="performance-loading" />;
  const grid = { display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 1.5, mb: 1.5 } as const;
  return (
    <>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 1.5, mb: 1.5 }} aria-busy={mcbe.isPending}>
        <Total
          label={translate('performance.totals.mcbe')}
          hint={translate('performance.totals.mcbeHint')}
          testId="performance-mcbe"
          value={mcbe.data ? (mcbe.data.total.mcbe === null ? translate('performance.totals.noErrors') : formatCount(mcbe.data.total.mcbe, locale, 1)) : '…'}
        />
        <Total label={translate('performance.totals.items')} testId="performance-items" value={mcbe.data ? formatCount(mcbe.data.total.items, locale) : '…'} />
        <Total label={translate('performance.totals.errors')} testId="performance-error-count" value={mcbe.data ? formatCount(mcbe.data.total.errors, locale) : '…'} />
      </Box>
      <Suspense fallback={skeleton}>
        <Box sx={grid}>
          {mcbe.data ? <McbeChart answer={mcbe.data} /> : skeleton}
          {mcbe.data ? <FleetTable answer={mcbe.data} /> : skeleton}
        </Box>
        {errors.data ? <ErrorsRanking answer={errors.data} sort={sort} onSort={setSort} /> : skeleton}
      </Suspense>
    </>
  );
};

export const PerformancePage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const offset = browserOffset();
  const options = useApiQuery<Options>(['performance', 'options', offset], (http, signal) =>
    http.get<Options>('/performance/options', { utcOffsetMinutes: offset }, { signal, silent: true }),
  );
  const [filter, setFilter] = useState<PerformanceFilter | null>(null);
  const refused = options.error instanceof ApiError && options.error.code === '4003';
  const current = filter ?? (options.data ? { ...presetRange(30, options.data.today, options.data.earliestDay), fleetId: null, rvmId: null } : null);
  return (
    <Box data-testid="performance">
      <ScreenHeading node={node} />
      <Typography color="text.secondary" variant="body2" sx={{ mt: -1.5, mb: 2 }}>
        {translate('performance.intro')}
      </Typography>
      {refused ? (
        <Alert severity="info">{translate('performance.noPermission')}</Alert>
      ) : options.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={options.reload}>
              {translate('performance.retry')}
            </Button>
          }
        >
          {translate('performance.loadFailed')}
        </Alert>
      ) : !options.data || !current ? (
        <Skeleton variant="rounded" height={56} data-testid="performance-loading" />
      ) : (
        <>
          <PerformanceFilters value={current} onChange={setFilter} fleets={options.data.fleets} today={options.data.today} earliest={options.data.earliestDay} />
          <Figures filter={current} offset={offset} />
        </>
      )}
    </Box>
  );
};

export default PerformancePage;
