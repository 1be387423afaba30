// The history tabs' timeline: one lane per value (status, or online/offline), a coloured band for
// each period in it, over the chosen time range (recharts reference areas on numeric axes), with the
// share of time per value below. The table under the chart carries the same data for screen readers.
import { useMemo } from 'react';
import { useTranslate } from 'ra-core';
import { format } from 'date-fns';
import { CartesianGrid, ComposedChart, ReferenceArea, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { Box, Typography, useTheme } from '@mui/material';
import { statusColor } from '../../generic/statusColors';
import { formatDuration, timeShares, timeTicks, toBands, type TimelineSlice } from './timeline';

const LANE_HEIGHT = 34;
const DAY = 86_400_000;

export interface TimelineChartProps {
  slices: readonly TimelineSlice[];
  valueKey: string;
  lanes: readonly string[];
  /** Catalogue prefix of the lane labels, e.g. 'fleet.statuses'. */
  labels: string;
  /** Colour word of a lane value (defaults to the value itself). */
  tone?: (value: string) => string;
  from: number;
  to: number;
  secondsBy: Record<string, number> | undefined;
}

export const useDurationText = () => {
  const translate = useTranslate();
  return (seconds: number) => formatDuration(seconds, (unit, count) => translate(`installation.duration.${unit}`, { count }));
};

export const TimelineChart = ({ slices, valueKey, lanes, labels, tone = (value) => value, from, to, secondsBy }: TimelineChartProps) => {
  const translate = useTranslate();
  const theme = useTheme();
  const durationText = useDurationText();
  const bands = useMemo(() => toBands(slices, valueKey, lanes), [slices, valueKey, lanes]);
  const ticks = useMemo(() => timeTicks(from, to), [from, to]);
  const shares = timeShares(secondsBy, lanes);
  const colorOf = (value: string) => {
    const color = statusColor(tone(value));
    return color === 'default' ? theme.palette.grey[500] : theme.palette[color].main;
  };
  const labelOf = (value: string) => translate(`${labels}.${value}`, { _: value });
  const laneCount = lanes.length;
  const tickFormat = to - from > 2 * DAY ? 'MM-dd' : 'HH:mm';
  const summary = shares.map((share) => `${labelOf(share.value)} ${share.percent}%`).join(', ');

  return (
    <Box data-testid="timeline-chart" data-bands={bands.length}>
      <Box role="img" aria-label={translate('installation.history.chartLabel', { summary })}>
        <ResponsiveContainer width="100%" height={laneCount * LANE_HEIGHT + 40}>
          <ComposedChart data={[{ t: from }, { t: to }]} margin={{ top: 8, right: 24, bottom: 4, left: 8 }}>
            <CartesianGrid horizontal={false} strokeDasharray="3 3" />
            <XAxis dataKey="t" type="number" scale="time" domain={[from, to]} ticks={ticks} tickFormatter={(time: number) => format(time, tickFormat)} allowDataOverflow />
            <YAxis
              type="number"
              domain={[0, laneCount]}
              ticks={lanes.map((_, lane) => laneCount - lane - 0.5)}
              tickFormatter={(position: number) => labelOf(lanes[laneCount - 1 - Math.floor(position)] ?? '')}
              width={120}
              allowDataOverflow
              interval={0}
            />
            {bands.map((band) => (
              <ReferenceArea
                key={`${band.lane}-${band.start}`}
                x1={Math.max(band.start, from)}
                x2={Math.min(band.end, to)}
                y1={laneCount - band.lane - 0.85}
                y2={laneCount - band.lane - 0.15}
                fill={colorOf(band.value)}
                fillOpacity={0.85}
                stroke="none"
                ifOverflow="hidden"
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, px: 1, pb: 1 }} data-testid="time-shares">
        {shares.map((share) => (
          <Box key={share.value} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
            <Box sx={{ width: 12, height: 12, borderRadius: 0.5, bgcolor: colorOf(share.value) }} />
            <Typography variant="body2">
              {labelOf(share.value)}: {share.percent}% ({durationText(share.seconds)})
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
};
