// The dashboard's charts (recharts): RVM status overview (donut) and types overview (bars), both
// opening the machine list of a segment on click (and through the buttons below them, for keyboards);
// the reject rate over the last 7 days with its 30-day average, and the volume per day over 4 weeks
// with the average per day. Each chart has a text summary for screen readers.
import { useTranslate } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Box, Button, Typography, useTheme } from '@mui/material';
import { statusColor } from '../generic/statusColors';
import { formatCount, formatDay, formatPercent } from './format';
import { machineListUrl } from './machineList';
import type { DashboardAnswer, Segment } from '../../resources/dashboard';
import type { Locale } from '../../i18n';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import { CHART_HEIGHT } from './ChartSkeleton';
import { visuallyHidden } from '../layout/visuallyHidden';
import { useScreenTexts } from '../layout/ScreenTexts';

/** The console's language, for Intl. */
const useLocale = (): { locale: Locale } => ({ locale: useConsoleServices().locale });

export { ChartSkeleton } from './ChartSkeleton';

/** One button per segment: the keyboard way into the machine list (the chart itself takes mouse clicks). */
const SegmentButtons = ({ segments, label, color }: { segments: readonly Segment[]; label: (key: string) => string; color: (key: string, index: number) => string }) => {
  const navigate = useNavigate();
  const translate = useTranslate();
  const { locale } = useLocale();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
      {segments.map((segment, index) => (
        <Button
          key={segment.key}
          size="small"
          variant="text"
          color="inherit"
          onClick={() => void navigate(machineListUrl(segment.filter))}
          startIcon={<Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color(segment.key, index) }} />}
          sx={{ textTransform: 'none' }}
          data-segment={segment.key}
        >
          {label(segment.key)}: {formatCount(segment.value, locale)}
          <Box component="span" sx={visuallyHidden}>
            {` ${translate('dashboard.opensList')}`}
          </Box>
        </Button>
      ))}
    </Box>
  );
};

export const StatusOverviewChart = ({ segments }: { segments: readonly Segment[] }) => {
  // the status names are the machine screens' (fleet.statuses), not among the home's own texts
  useScreenTexts();
  const translate = useTranslate();
  const navigate = useNavigate();
  const theme = useTheme();
  const { locale } = useLocale();
  const colorOf = (status: string) => {
    const color = statusColor(status);
    return color === 'default' ? theme.palette.grey[500] : theme.palette[color].main;
  };
  const label = (status: string) => translate(`fleet.statuses.${status}`, { _: status });
  const data = segments.map((segment) => ({ ...segment, name: label(segment.key) }));
  const summary = segments.map((segment) => `${label(segment.key)} ${formatCount(segment.value, locale)}`).join(', ');
  const total = segments.reduce((sum, segment) => sum + segment.value, 0);
  return (
    <TitledCard title={translate('dashboard.charts.statusOverview')} testId="chart-status">
      <Box role="img" aria-label={translate('dashboard.charts.statusSummary', { summary })} sx={{ position: 'relative' }}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <PieChart>
            <Pie
              data={data.filter((entry) => entry.value > 0)}
              dataKey="value"
              nameKey="name"
              innerRadius="55%"
              outerRadius="85%"
              paddingAngle={1}
              isAnimationActive={false}
              onClick={(entry: unknown) => {
                const segment = segments.find((item) => item.key === (entry as { key?: string } | undefined)?.key);
                if (segment) void navigate(machineListUrl(segment.filter));
              }}
              style={{ cursor: 'pointer' }}
            >
              {data
                .filter((entry) => entry.value > 0)
                .map((entry) => (
                  <Cell key={entry.key} fill={colorOf(entry.key)} />
                ))}
            </Pie>
            <Tooltip formatter={(value) => formatCount(Number(value), locale)} />
          </PieChart>
        </ResponsiveContainer>
        <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', pointerEvents: 'none', flexDirection: 'column' }}>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
            {formatCount(total, locale)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {translate('dashboard.charts.machines')}
          </Typography>
        </Box>
      </Box>
      <SegmentButtons segments={segments} label={label} color={colorOf} />
    </TitledCard>
  );
};

export const TypesOverviewChart = ({ segments }: { segments: readonly Segment[] }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const theme = useTheme();
  const { locale } = useLocale();
  const palette = [theme.palette.primary.main, theme.palette.secondary.main, theme.palette.info.main, theme.palette.success.main, theme.palette.warning.main];
  const colorOf = (_: string, index: number) => palette[index % palette.length];
  const summary = segments.map((segment) => `${segment.key} ${formatCount(segment.value, locale)}`).join(', ');
  const height = Math.max(120, Math.min(CHART_HEIGHT, segments.length * 44 + 30));
  return (
    <TitledCard title={translate('dashboard.charts.typesOverview')} testId="chart-types">
      <Box role="img" aria-label={translate('dashboard.charts.typesSummary', { summary })}>
        <ResponsiveContainer width="100%" height={height}>
          <BarChart data={[...segments]} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 8 }}>
            <CartesianGrid horizontal={false} strokeDasharray="3 3" />
            <XAxis type="number" allowDecimals={false} tickFormatter={(value: number) => formatCount(value, locale)} />
            <YAxis type="category" dataKey="key" width={64} />
            <Tooltip formatter={(value) => [formatCount(Number(value), locale), translate('dashboard.charts.machines')]} cursor={{ fillOpacity: 0.3 }} />
            <Bar
              dataKey="value"
              isAnimationActive={false}
              style={{ cursor: 'pointer' }}
              onClick={(_: unknown, index: number) => {
                const segment = segments[index];
                if (segment) void navigate(machineListUrl(segment.filter));
              }}
            >
              {segments.map((segment, index) => (
                <Cell key={segment.key} fill={colorOf(segment.key, index)} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </Box>
      <SegmentButtons segments={segments} label={(key) => key} color={colorOf} />
    </TitledCard>
  );
};

export const RejectRateChart = ({ points, average }: { points: DashboardAnswer['charts']['rejectRate']; average: number | null }) => {
  const translate = useTranslate();
  const theme = useTheme();
  const { locale } = useLocale();
  const data = points.map((point) => ({ ...point, label: formatDay(point.day, locale) }));
  const summary = data.map((point) => `${point.label} ${formatPercent(point.rate, locale)}`).join(', ');
  return (
    <TitledCard title={translate('dashboard.charts.rejectRate')} testId="chart-reject-rate">
      <Box role="img" aria-label={translate('dashboard.charts.rejectSummary', { summary })}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <LineChart data={data} margin={{ top: 8, right: 24, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis tickFormatter={(value: number) => formatPercent(value, locale)} width={56} domain={[0, 'auto']} />
            <Tooltip formatter={(value) => [formatPercent(Number(value), locale), translate('dashboard.charts.rate')]} />
            <Legend itemSorter={null} />
            {average !== null && (
              <ReferenceLine
                y={average}
                stroke={theme.palette.grey[600]}
                strokeDasharray="6 4"
                label={{ value: `${translate('dashboard.charts.average30')} ${formatPercent(average, locale)}`, position: 'insideTopRight', fontSize: 12 }}
              />
            )}
            <Line
              type="monotone"
              dataKey="rate"
              name={translate('dashboard.charts.rate')}
              stroke={theme.palette.error.main}
              strokeWidth={2}
              dot
              isAnimationActive={false}
              connectNulls
            />
          </LineChart>
        </ResponsiveContainer>
      </Box>
    </TitledCard>
  );
};

export const VolumeChart = ({ points, average }: { points: DashboardAnswer['charts']['volumePerDay']; average: number | undefined }) => {
  const translate = useTranslate();
  const theme = useTheme();
  const { locale } = useLocale();
  const data = points.map((point) => ({ ...point, label: formatDay(point.day, locale) }));
  const summary = data.map((point) => `${point.label} ${formatCount(point.accepted, locale)}`).join(', ');
  return (
    <TitledCard title={translate('dashboard.charts.volumePerDay')} testId="chart-volume">
      {average !== undefined && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: -0.5, mb: 1 }}>
          ┄ {translate('dashboard.charts.averagePerDay')}: {formatCount(average, locale, 1)}
        </Typography>
      )}
      <Box role="img" aria-label={translate('dashboard.charts.volumeSummary', { summary })}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart data={data} margin={{ top: 8, right: 24, bottom: 4, left: 8 }}>
            <CartesianGrid vertical={false} strokeDasharray="3 3" />
            <XAxis dataKey="label" interval="preserveStartEnd" minTickGap={16} />
            <YAxis tickFormatter={(value: number) => formatCount(value, locale)} width={64} />
            <Tooltip formatter={(value, name) => [formatCount(Number(value), locale), String(name)]} />
            <Legend itemSorter={null} />
            <Bar dataKey="accepted" name={translate('dashboard.charts.accepted')} stackId="items" fill={theme.palette.success.main} isAnimationActive={false} />
            <Bar dataKey="rejected" name={translate('dashboard.charts.rejected')} stackId="items" fill={theme.palette.error.light} isAnimationActive={false} />
            {average !== undefined && <ReferenceLine y={average} stroke={theme.palette.grey[800]} strokeDasharray="6 4" strokeWidth={1.5} ifOverflow="extendDomain" />}
          </BarChart>
        </ResponsiveContainer>
      </Box>
    </TitledCard>
  );
};
