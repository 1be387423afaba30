// The report's chart (recharts): accepted per material (Volumes), stacked per material per day
// (Volumes_Daily), rejected per reason (the two reject reports). A text summary for screen readers.
import { useTranslate } from 'ra-core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Box, Typography, useTheme } from '@mui/material';
import { MATERIALS } from '../../resources/reports';
import { formatCount } from '../dashboard/format';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import { formatLocalDay } from './cells';
import type { ReportAnswer } from './types';

const HEIGHT = 260;
const MATERIAL_COLORS = ['#1976d2', '#ef6c00', '#2e7d32', '#8e24aa', '#00838f', '#757575'];

export const ReportChart = ({ answer }: { answer: ReportAnswer }) => {
  const translate = useTranslate();
  const theme = useTheme();
  const { locale } = useConsoleServices();
  const count = (value: unknown) => formatCount(Number(value), locale);
  const materialLabel = (type: string) => translate(`fleet.itemTypes.${type}`);

  if (answer.report === 'volumesDaily') {
    const data: Array<Record<string, unknown>> = answer.chart.map((row) => ({ ...row, label: formatLocalDay(String(row.day), locale) }));
    const summary = data.map((row) => translate('reports.chart.summary', { label: String(row.label), value: count(row.accepted) })).join(', ');
    return (
      <TitledCard title={translate('reports.chart.days')} testId="report-chart">
        <Box role="img" aria-label={summary}>
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
              <YAxis tickFormatter={count} tick={{ fontSize: 11 }} width={56} />
              <Tooltip formatter={(value) => count(value)} />
              <Legend />
              {MATERIALS.map((type, index) => (
                <Bar key={type} dataKey={`material:${type}`} name={materialLabel(type)} stackId="materials" fill={MATERIAL_COLORS[index]} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </Box>
      </TitledCard>
    );
  }

  const byMaterial = answer.report === 'volumes';
  const data = answer.chart.map((entry) => ({
    label: byMaterial ? materialLabel(String(entry.key)) : `${entry.key} ${translate(`fleet.rejectReasons.${entry.key}`)}`,
    value: Number(byMaterial ? entry.accepted : entry.rejected),
  }));
  const title = translate(byMaterial ? 'reports.chart.materials' : 'reports.chart.reasons');
  const summary = data.map((entry) => translate('reports.chart.summary', { label: entry.label, value: count(entry.value) })).join(', ');
  return (
    <TitledCard title={title} testId="report-chart">
      {data.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {translate('reports.empty')}
        </Typography>
      ) : (
        <Box role="img" aria-label={summary}>
          <ResponsiveContainer width="100%" height={byMaterial ? HEIGHT : Math.max(HEIGHT, data.length * 28 + 40)}>
            <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" tickFormatter={count} tick={{ fontSize: 11 }} />
              <YAxis type="category" dataKey="label" width={byMaterial ? 110 : 220} tick={{ fontSize: 11 }} />
              <Tooltip formatter={(value) => count(value)} />
              <Bar dataKey="value" name={title} fill={byMaterial ? theme.palette.primary.main : theme.palette.warning.main} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </Box>
      )}
    </TitledCard>
  );
};
