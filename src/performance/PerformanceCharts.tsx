// The performance screen's figures: MCBE over time (line, with the error events as bars), the
// sub-fleets' MCBE and the main errors ranking. A chunk of its own (recharts), like the dashboard's charts.
import { useTranslate } from 'ra-core';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Box, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, ToggleButton, ToggleButtonGroup, Typography, useTheme } from '@mui/material';
import { formatCount, formatDay } from '../dashboard/format';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import type { ErrorSort, ErrorsAnswer, McbeAnswer } from '../../resources/performance';
import type { Locale } from '../../i18n';
import { fromFirstData } from './series';

const CHART_HEIGHT = 300;

export const formatMcbe = (value: number | null, locale: Locale, noErrors: string) => (value === null ? noErrors : formatCount(value, locale, 1));

/** Seconds as H:mm:ss (hours beyond 24 kept: the tables' duration format). */
export const formatDuration = (seconds: number) => {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};

export const McbeChart = ({ answer }: { answer: McbeAnswer }) => {
  const translate = useTranslate();
  const theme = useTheme();
  const { locale } = useConsoleServices();
  const noErrors = translate('performance.totals.noErrors');
  const { points, dataFrom } = fromFirstData(answer.series);
  const data = points.map((point) => ({
    ...point,
    label: answer.granularity === 'week' ? formatDay(point.start, locale) : formatDay(point.start, locale),
  }));
  const summary = translate('performance.chart.summary', {
    from: answer.from,
    to: answer.to,
    mcbe: formatMcbe(answer.total.mcbe, locale, noErrors),
    items: formatCount(answer.total.items, locale),
    errors: formatCount(answer.total.errors, locale),
  });
  const empty = answer.total.items === 0 && answer.total.errors === 0;
  return (
    <TitledCard title={translate(`performance.chart.${answer.granularity}`)} testId="performance-chart">
      {empty ? (
        <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
          {translate('performance.chart.empty')}
        </Typography>
      ) : (
        <Box role="img" aria-label={dataFrom ? `${summary}. ${translate('performance.chart.dataFrom', { day: dataFrom })}` : summary}>
          {dataFrom ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="performance-data-from">
              {translate('performance.chart.dataFrom', { day: dataFrom })}
            </Typography>
          ) : null}
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 4, left: 8 }}>
              <CartesianGrid vertical={false} strokeDasharray="3 3" />
              <XAxis dataKey="label" interval="preserveStartEnd" minTickGap={16} />
              <YAxis yAxisId="mcbe" tickFormatter={(value: number) => formatCount(value, locale)} width={64} />
              <YAxis yAxisId="errors" orientation="right" allowDecimals={false} tickFormatter={(value: number) => formatCount(value, locale)} width={48} />
              <Tooltip
                labelFormatter={(label, payload) => {
                  const point = payload?.[0]?.payload as (typeof data)[number] | undefined;
                  return point && answer.granularity === 'week' ? translate('performance.chart.weekOf', { day: point.start }) : String(label);
                }}
                formatter={(value, name) => [value === null || value === undefined ? noErrors : formatCount(Number(value), locale, 1), String(name)]}
              />
              <Legend itemSorter={null} />
              <Bar yAxisId="errors" dataKey="errors" name={translate('performance.chart.errors')} fill={theme.palette.error.main} isAnimationActive={false} maxBarSize={28} />
              <Line
                yAxisId="mcbe"
                type="monotone"
                dataKey="mcbe"
                name={translate('performance.chart.mcbe')}
                stroke={theme.palette.primary.main}
                strokeWidth={2}
                dot
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </Box>
      )}
    </TitledCard>
  );
};

export const FleetTable = ({ answer }: { answer: McbeAnswer }) => {
  const translate = useTranslate();
  const { locale } = useConsoleServices();
  const noErrors = translate('performance.totals.noErrors');
  return (
    <TitledCard title={translate('performance.fleets.title')} testId="performance-fleets">
      {answer.fleets.length === 0 ? (
        <Typography color="text.secondary">{translate('performance.fleets.none')}</Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('performance.fleets.fleet')}</TableCell>
              <TableCell align="right">{translate('performance.totals.items')}</TableCell>
              <TableCell align="right">{translate('performance.totals.errors')}</TableCell>
              <TableCell align="right">{translate('performance.totals.mcbe')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {answer.fleets.map((row) => (
              <TableRow key={`${row.id}-${row.own}`}>
                <TableCell>{row.own ? translate('performance.fleets.own', { name: row.name }) : row.name}</TableCell>
                <TableCell align="right">{formatCount(row.items, locale)}</TableCell>
                <TableCell align="right">{formatCount(row.errors, locale)}</TableCell>
                <TableCell align="right">{formatMcbe(row.mcbe, locale, noErrors)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </TitledCard>
  );
};

export const ErrorsRanking = ({ answer, sort, onSort }: { answer: ErrorsAnswer; sort: ErrorSort; onSort: (sort: ErrorSort) => void }) => {
  const translate = useTranslate();
  const { locale } = useConsoleServices();
  const top = Math.max(1, ...answer.list.map((row) => (sort === 'count' ? row.count : row.downtimeSeconds)));
  return (
    <TitledCard title={translate('performance.errors.title')} testId="performance-errors">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('performance.errors.total', { count: formatCount(answer.total.count, locale), downtime: formatDuration(answer.total.downtimeSeconds) })}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={sort}
          onChange={(_event, next: ErrorSort | null) => next && onSort(next)}
          aria-label={translate('performance.errors.sort')}
        >
          <ToggleButton value="count" sx={{ textTransform: 'none' }}>
            {translate('performance.errors.byCount')}
          </ToggleButton>
          <ToggleButton value="downtime" sx={{ textTransform: 'none' }}>
            {translate('performance.errors.byDowntime')}
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {answer.list.length === 0 ? (
        <Typography color="text.secondary">{translate('performance.errors.none')}</Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('performance.errors.rank')}</TableCell>
              <TableCell>{translate('performance.errors.code')}</TableCell>
              <TableCell>{translate('performance.errors.text')}</TableCell>
              <TableCell align="right">{translate('performance.errors.count')}</TableCell>
              <TableCell align="right">{translate('performance.errors.downtime')}</TableCell>
              <TableCell align="right">{translate('performance.errors.openTime')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {answer.list.map((row, index) => (
              <TableRow key={row.code} data-testid="performance-error-row">
                <TableCell>{index + 1}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.code}</TableCell>
                <TableCell sx={{ minWidth: 200 }}>
                  {translate(`fleet.alarms.${row.code}`, { _: row.text })}
                  <LinearProgress
                    variant="determinate"
                    value={(100 * (sort === 'count' ? row.count : row.downtimeSeconds)) / top}
                    color={sort === 'count' ? 'primary' : 'error'}
                    sx={{ mt: 0.5, height: 4, borderRadius: 2 }}
                    aria-hidden
                  />
                </TableCell>
                <TableCell align="right">{formatCount(row.count, locale)}</TableCell>
                <TableCell align="right" title={row.blocking ? undefined : translate('performance.errors.notBlocking')}>
                  {row.blocking ? formatDuration(row.downtimeSeconds) : '–'}
                </TableCell>
                <TableCell align="right">{formatDuration(row.openSeconds)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </TitledCard>
  );
};
