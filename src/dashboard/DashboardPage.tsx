// /index/index (docs/product-rules.md#home-dashboard): the home dashboard of GET /dashboard. The user picks the saved
// filter of the machine list that scopes it (kept in the URL and remembered); cards and chart
// segments open the machine list with their filter. Loading skeletons, an empty state for an account
// without machines, numbers in the console's language, refund values in the account's currency.
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, IconButton, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ApiError } from '../providers/httpTypes';
import type { ScreenProps } from '../pages/screenProps';
import { useApiQuery } from '../kit/useApiQuery';
import { LIVE_REFRESH_MS } from '../kit/liveRefresh';
import { CARD_GRID_SX, CardSkeletons, USAGE_GRID_SX, ReportCard, StatCard, type CardFormat } from './DashboardCards';
import { ChartSkeleton } from './ChartSkeleton';

// The charts (recharts) are a chunk of their own, loaded once the cards are shown (issue 8).
const chartsChunk = () => import('./DashboardCharts');
const StatusOverviewChart = lazy(() => chartsChunk().then((module) => ({ default: module.StatusOverviewChart })));
const TypesOverviewChart = lazy(() => chartsChunk().then((module) => ({ default: module.TypesOverviewChart })));
const RejectRateChart = lazy(() => chartsChunk().then((module) => ({ default: module.RejectRateChart })));
const VolumeChart = lazy(() => chartsChunk().then((module) => ({ default: module.VolumeChart })));
import { formatTime } from './format';
import { MACHINE_LIST_ROUTE } from './machineList';
import { ScopePicker } from './ScopePicker';
import { cardKeysOf, type Card as DashboardCard, type CardKey, type DashboardAnswer } from '../../resources/dashboard';

const SCOPE_PARAM = 'savedFilterId';
const SCOPE_STORAGE_KEY = 'homeDashboardSavedFilter';
// The catalogue's sections, in its order (resources/dashboard.ts).
const MACHINE_CARDS = cardKeysOf('machines');
const USAGE_CARDS = cardKeysOf('usage');
const REPORT_CARDS = cardKeysOf('reports');
const TWO_COLUMNS = { display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' }, gap: 1.5 } as const;

const readId = (value: string | null) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
};

/** The chosen saved filter: the URL's, else the one chosen last time on this browser. */
const useScope = (): [number | null, (id: number | null) => void] => {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(SCOPE_PARAM);
  const scope = fromUrl !== null ? readId(fromUrl) : readId(localStorage.getItem(SCOPE_STORAGE_KEY));
  const choose = (id: number | null) => {
    if (id === null) localStorage.removeItem(SCOPE_STORAGE_KEY);
    else localStorage.setItem(SCOPE_STORAGE_KEY, String(id));
    const next = new URLSearchParams(params);
    if (id === null) next.set(SCOPE_PARAM, '');
    else next.set(SCOPE_PARAM, String(id));
    setParams(next, { replace: true });
  };
  return [scope, choose];
};

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Box component="section" aria-label={title} sx={{ mb: 2.5 }}>
    {children}
  </Box>
);

const ChartCardSkeletons = () =>
  [0, 1, 2, 3].map((index) => (
    <Card key={index} variant="outlined">
      <CardContent>
        <ChartSkeleton />
      </CardContent>
    </Card>
  ));

const Loading = () => (
  <Box role="status" aria-busy="true" data-testid="dashboard-loading">
    <Box sx={{ mb: 2.5 }}>
      <CardSkeletons />
    </Box>
    <Box sx={TWO_COLUMNS}>
      <ChartCardSkeletons />
    </Box>
  </Box>
);

const EmptyAccount = ({ filtered }: { filtered: boolean }) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" data-testid="dashboard-empty">
      <CardContent sx={{ textAlign: 'center', py: 5 }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate('dashboard.empty.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate(filtered ? 'dashboard.empty.filtered' : 'dashboard.empty.message')}
        </Typography>
        <Button variant="contained" component={RouterLink} to={MACHINE_LIST_ROUTE}>
          {translate('dashboard.empty.action')}
        </Button>
      </CardContent>
    </Card>
  );
};

const Content = ({ data }: { data: DashboardAnswer }) => {
  const translate = useTranslate();
  const { locale } = useConsoleServices();
  const format: CardFormat = { locale, currency: data.currency };
  const byKey = new Map(data.cards.map((card) => [card.key, card]));
  const pick = (keys: readonly CardKey[]) => keys.map((key) => byKey.get(key)).filter((card): card is DashboardCard => Boolean(card));
  const rejectAverage = byKey.get('rejectRate')?.value ?? null;
  const volumeAverage = byKey.get('todayReport')?.average;
  return (
    <>
      <Section title={translate('dashboard.scope.label')}>
        <Box sx={CARD_GRID_SX} data-testid="machine-cards">
          {pick(MACHINE_CARDS).map((card) => (
            <StatCard key={card.key} card={card} format={format} />
          ))}
        </Box>
      </Section>
      <Section title={translate('dashboard.cards.consumerSessions.title')}>
        <Box sx={USAGE_GRID_SX} data-testid="usage-cards">
          {pick(USAGE_CARDS).map((card) => (
            <StatCard key={card.key} card={card} format={format} />
          ))}
        </Box>
      </Section>
      <Box sx={{ ...TWO_COLUMNS, mb: 1.5 }}>
        <Suspense fallback={<ChartCardSkeletons />}>
          <StatusOverviewChart segments={data.charts.statusOverview} />
          <TypesOverviewChart segments={data.charts.typesOverview} />
          <RejectRateChart points={data.charts.rejectRate} average={rejectAverage} />
          <VolumeChart points={data.charts.volumePerDay} average={volumeAverage} />
        </Suspense>
      </Box>
      <Box sx={TWO_COLUMNS}>
        {pick(REPORT_CARDS).map((card) => (
          <ReportCard key={card.key} card={card} format={format} />
        ))}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
        {translate('dashboard.currencyNote', { currency: data.currency })}
      </Typography>
    </>
  );
};

export const DashboardPage = (_props: Partial<ScreenProps>) => {
  const translate = useTranslate();
  const { session, locale } = useConsoleServices();
  const [scope, setScope] = useScope();
  const offset = -new Date().getTimezoneOffset();
  const utcOffsetMinutes = offset - (offset % 15);
  const { data, error, isPending, reload } = useApiQuery<DashboardAnswer>(
    ['dashboard', scope, utcOffsetMinutes],
    (http, signal) => http.get<DashboardAnswer>('/dashboard', { ...(scope === null ? {} : { savedFilterId: scope }), utcOffsetMinutes }, { silent: true, signal }),
    { refreshEveryMs: LIVE_REFRESH_MS.dashboard },
  );
  const accountName = session.getAccountName();
  const refused = error instanceof ApiError && error.code === '4003';
  const missingFilter = error instanceof ApiError && error.code === '2003';

  return (
    <Box data-testid="home">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, mb: 2 }}>
        <Box>
          <Typography component="h1" variant="h5">
            {translate('app.home.welcome', { name: session.getRealName() })}
          </Typography>
          {accountName && (
            <Typography color="text.secondary" variant="body2">
              {translate('app.home.account', { name: accountName })}
            </Typography>
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          {!refused && <ScopePicker value={scope} onChange={setScope} />}
          <Tooltip title={translate('dashboard.refresh')}>
            <span>
              <IconButton onClick={reload} aria-label={translate('dashboard.refresh')} disabled={isPending}>
                <RefreshIcon />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      </Box>
      {data && !error && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: -1.5, mb: 1.5 }} aria-live="polite">
          {translate('dashboard.updated', { time: formatTime(data.now, locale) })}
        </Typography>
      )}
      {refused ? (
        <Alert severity="info" data-testid="dashboard-no-permission">
          {translate('dashboard.noPermission')}
        </Alert>
      ) : error ? (
        <Alert
          severity={missingFilter ? 'warning' : 'error'}
          action={
            missingFilter ? (
              <Button color="inherit" size="small" onClick={() => setScope(null)}>
                {translate('dashboard.scope.all')}
              </Button>
            ) : (
              <Button color="inherit" size="small" onClick={reload}>
                {translate('dashboard.retry')}
              </Button>
            )
          }
        >
          {missingFilter ? translate('errors.2003') : translate('dashboard.loadFailed')}
        </Alert>
      ) : !data || !Array.isArray(data.cards) ? (
        <Loading />
      ) : data.machineCount === 0 && data.cards.every((card) => !card.value) ? (
        <EmptyAccount filtered={scope !== null} />
      ) : (
        <Box sx={{ opacity: isPending ? 0.6 : 1, transition: 'opacity 0.2s' }} aria-busy={isPending}>
          <Content data={data} />
        </Box>
      )}
    </Box>
  );
};

export default DashboardPage;
