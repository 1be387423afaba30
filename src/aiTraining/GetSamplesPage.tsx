// Service › Get samples, /service/getSamples (docs/ai-training.md "Get samples"): choose machines or fleets,
// a time range, item types, reject reasons and the model's confidence; preview how many pictures match, then
// collect them into the sample pool as a run with progress (one at a time: 9100 otherwise).
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  FormGroup,
  FormLabel,
  LinearProgress,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { ITEM_TYPES } from '../../resources/fleetCatalogue';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import type { SampleJob } from './api';

const REFRESH_MS = 1_500;

/** "1, 2,3" → [1, 2, 3]; null when something else is in it. */
export const numberList = (text: string): number[] | null => {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.every((part) => /^\d{1,9}$/.test(part)) ? parts.map(Number) : null;
};

const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

const GetSamplesPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [form, setForm] = useState({ machines: '', fleets: '', from: '', to: '', reasons: '', minConfidence: '', maxConfidence: '', limit: '2000' });
  const [types, setTypes] = useState<string[]>([]);
  const [preview, setPreview] = useState<Array<{ itemType: string; pictures: number; pooled: number }> | null>(null);
  const jobs = useApiQuery(['aiSampleJobs'], (client, signal) => client.get<SampleJob[]>('/ai/sample/jobs', undefined, { signal }), { refreshEveryMs: REFRESH_MS });
  const lists = { machines: numberList(form.machines), fleets: numberList(form.fleets), reasons: numberList(form.reasons) };
  const invalid = (Object.keys(lists) as Array<keyof typeof lists>).filter((key) => lists[key] === null);
  const confidence = (text: string) => (text.trim() === '' ? undefined : Math.min(1, Math.max(0, Number(text) || 0)));

  const filter = () => ({
    ...(lists.machines?.length ? { rvmIds: lists.machines } : {}),
    ...(lists.fleets?.length ? { fleetIds: lists.fleets } : {}),
    ...(toIso(form.from) ? { from: toIso(form.from) } : {}),
    ...(toIso(form.to) ? { to: toIso(form.to) } : {}),
    ...(types.length ? { itemTypes: types } : {}),
    ...(lists.reasons?.length ? { rejectReasons: lists.reasons } : {}),
    ...(confidence(form.minConfidence) !== undefined ? { minConfidence: confidence(form.minConfidence) } : {}),
    ...(confidence(form.maxConfidence) !== undefined ? { maxConfidence: confidence(form.maxConfidence) } : {}),
  });

  const showPreview = async () => setPreview(await http.post('/ai/sample/preview', filter()));
  const collect = async () => {
    await http.post('/ai/sample/collect', { ...filter(), limit: Math.max(1, Math.min(5000, Number(form.limit) || 2000)) });
    jobs.reload();
  };
  const field = (key: keyof typeof form, label: string, extra: object = {}) => (
    <TextField
      size="small"
      label={label}
      value={form[key]}
      onChange={(event) => setForm({ ...form, [key]: event.target.value })}
      error={invalid.includes(key as keyof typeof lists)}
      helperText={invalid.includes(key as keyof typeof lists) ? translate('aiTraining.samples.numberList') : ' '}
      {...extra}
    />
  );
  const rows = jobs.data ?? [];
  const matching = preview?.reduce((sum, row) => ({ pictures: sum.pictures + row.pictures, pooled: sum.pooled + row.pooled }), { pictures: 0, pooled: 0 });

  return (
    <Box data-testid="get-samples">
      <ScreenHeading node={node} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('aiTraining.samples.intro')}{' '}
        <Link component={RouterLink} to="/service/imageLabeling">
          {translate('menu.imageLabeling')}
        </Link>
      </Typography>
      <TitledCard title={translate('aiTraining.samples.title')}>
        <Box component="form" noValidate onSubmit={(event) => (event.preventDefault(), void collect())}>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: 2 }}>
            {field('machines', translate('aiTraining.samples.machines'))}
            {field('fleets', translate('aiTraining.samples.fleets'))}
            {field('from', translate('aiTraining.samples.from'), { type: 'datetime-local', InputLabelProps: { shrink: true } })}
            {field('to', translate('aiTraining.samples.to'), { type: 'datetime-local', InputLabelProps: { shrink: true } })}
            {field('reasons', translate('aiTraining.samples.rejectReasons'))}
            {field('minConfidence', translate('aiTraining.samples.minConfidence'), { inputProps: { inputMode: 'decimal' } })}
            {field('maxConfidence', translate('aiTraining.samples.maxConfidence'), { inputProps: { inputMode: 'decimal' } })}
            {field('limit', translate('aiTraining.samples.limit'), { inputProps: { inputMode: 'numeric' } })}
          </Box>
          <FormLabel component="legend" sx={{ mt: 1 }}>
            {translate('aiTraining.samples.itemTypes')}
          </FormLabel>
          <FormGroup row>
            {ITEM_TYPES.map((type) => (
              <FormControlLabel
                key={type}
                label={translate(`aiTraining.itemTypes.${type}`)}
                control={
                  <Checkbox
                    size="small"
                    checked={types.includes(type)}
                    onChange={(event) => setTypes(event.target.checked ? [...types, type] : types.filter((other) => other !== type))}
                  />
                }
              />
            ))}
          </FormGroup>
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mt: 1 }}>
            <Button variant="outlined" disabled={invalid.length > 0} onClick={() => void showPreview()}>
              {translate('aiTraining.samples.preview')}
            </Button>
            <Button type="submit" variant="contained" disabled={invalid.length > 0} data-testid="collect">
              {translate('aiTraining.samples.collect')}
            </Button>
            {matching ? <Typography data-testid="preview">{translate('aiTraining.samples.matching', matching)}</Typography> : null}
            {preview?.map((row) => (
              <Chip key={row.itemType} size="small" label={`${translate(`aiTraining.itemTypes.${row.itemType}`, { _: row.itemType })}: ${row.pictures}`} />
            ))}
          </Box>
        </Box>
      </TitledCard>
      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        {translate('aiTraining.samples.runs')}
      </Typography>
      <LoadState isPending={jobs.isPending} error={jobs.error} onRetry={jobs.reload} hasData={rows.length > 0} empty={null}>
        <Table size="small" aria-label={translate('aiTraining.samples.runs')}>
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>{translate('aiTraining.samples.status')}</TableCell>
              <TableCell>{translate('aiTraining.samples.progress')}</TableCell>
              <TableCell align="right">{translate('aiTraining.samples.added')}</TableCell>
              <TableCell>{translate('aiTraining.samples.started')}</TableCell>
              <TableCell>{translate('aiTraining.samples.finished')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((job) => (
              <TableRow key={job.id} data-testid="sample-job" data-status={job.status}>
                <TableCell>{job.id}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={job.status === 'done' ? 'success' : job.status === 'failed' ? 'error' : 'info'}
                    label={translate(`aiTraining.samples.statuses.${job.status}`)}
                  />
                </TableCell>
                <TableCell sx={{ minWidth: 200 }}>
                  <LinearProgress
                    variant="determinate"
                    value={job.total ? (job.processed / job.total) * 100 : 100}
                    aria-label={translate('aiTraining.samples.progress')}
                    sx={{ height: 6, borderRadius: 1 }}
                  />
                  <Typography variant="caption">
                    {job.processed}/{job.total}
                  </Typography>
                </TableCell>
                <TableCell align="right">{job.added}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{job.createdTime ?? ''}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{job.finishedTime ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </LoadState>
    </Box>
  );
};

export default GetSamplesPage;
