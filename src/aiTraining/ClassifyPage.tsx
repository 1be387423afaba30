// Service › Image classification, /service/imageClassify (docs/ai-training.md#image-classification): pick a model
// a training task made, run it over the sample pool (on the server), see where it is wrong in a confusion matrix
// (true label × the model's label, precision and recall per label), and review its label and confidence per
// sample: all, the wrong ones, the low-confidence ones, by true or predicted label. Corrections are made right
// there with the labeling keys (sampleKeys.ts): number keys give the focused picture a label, Enter takes the
// model's, Ctrl+Z undoes; the matrix follows.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Button, Chip, MenuItem, Pagination, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { CLASSIFY_SHOWN, LOW_CONFIDENCE } from '../../resources/aiTraining';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import { TitledCard } from '../layout/TitledCard';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { useSamplePicture, type ConfusionAnswer, type LabelAnswer, type Page, type Prediction, type TrainedModel } from './api';
import { ClassifyMatrix, percent } from './ClassifyMatrix';
import { sampleKeyAction } from './sampleKeys';

const PAGE_SIZE = 35;
const COLUMNS = 7;
type Shown = (typeof CLASSIFY_SHOWN)[number];

const PredictionTile = ({ sample, label, focused, onFocus }: { sample: Prediction; label: string | null; focused: boolean; onFocus: () => void }) => {
  const translate = useTranslate();
  const url = useSamplePicture(sample.id);
  const wrong = label !== null && label !== sample.predicted;
  const low = sample.confidence < LOW_CONFIDENCE;
  return (
    <Box
      component="li"
      id={`prediction-${sample.id}`}
      role="option"
      aria-selected={focused}
      data-testid="prediction-tile"
      data-id={sample.id}
      data-label={label ?? ''}
      data-predicted={sample.predicted}
      onClick={onFocus}
      sx={{ listStyle: 'none', border: 3, borderColor: focused ? 'primary.main' : 'transparent', borderRadius: 1, p: 0.5, cursor: 'pointer' }}
    >
      <Box sx={{ width: 96, height: 96, bgcolor: 'grey.200', mx: 'auto', outline: wrong ? 2 : 0, outlineColor: 'error.main' }}>
        {url ? (
          <img src={url} alt={translate('aiTraining.labeling.picture', { id: sample.id })} width={96} height={96} style={{ imageRendering: 'pixelated', display: 'block' }} />
        ) : null}
      </Box>
      <Typography variant="caption" component="div" noWrap sx={{ textAlign: 'center', fontWeight: 600, color: label ? 'text.primary' : 'text.secondary' }}>
        {label ?? translate('aiTraining.labeling.none')}
      </Typography>
      <Typography variant="caption" component="div" noWrap sx={{ textAlign: 'center', color: wrong ? 'error.main' : low ? 'warning.dark' : 'text.secondary' }}>
        {`${sample.predicted} ${percent(sample.confidence)}`}
      </Typography>
    </Box>
  );
};

const ClassifyPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const models = useApiQuery(['aiClassifyModels'], (client, signal) => client.get<TrainedModel[]>('/ai/classify/models', undefined, { signal }));
  const [chosen, setChosen] = useState<number | null>(null);
  const packageId = chosen ?? models.data?.[0]?.packageId ?? null;
  const [shown, setShown] = useState<Shown>('all');
  const [trueLabel, setTrueLabel] = useState('');
  const [predicted, setPredicted] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [focus, setFocus] = useState(0);
  const [running, setRunning] = useState<number | null>(null);
  const [overrides, setOverrides] = useState<ReadonlyMap<number, string | null>>(new Map());
  const [undo, setUndo] = useState<Array<Array<{ id: number; label: string | null }>>>([]);
  const grid = useRef<HTMLUListElement>(null);
  const labels = useApiQuery(['aiLabels'], (client, signal) => client.get<LabelAnswer>('/ai/label', undefined, { signal }));
  const confusion = useApiQuery(
    ['aiClassifyConfusion', packageId],
    packageId ? (client, signal) => client.get<ConfusionAnswer>('/ai/classify/confusion', { packageId }, { signal }) : null,
  );
  const query = packageId ? { packageId, shown, pageNum, pageSize: PAGE_SIZE, ...(trueLabel ? { label: trueLabel } : {}), ...(predicted ? { predicted } : {}) } : null;
  const page = useApiQuery(['aiClassifyPage', query], query ? (client, signal) => client.get<Page<Prediction>>('/ai/classify/page', query, { signal }) : null);
  const samples = useMemo(() => page.data?.list ?? [], [page.data]);
  const labelNames = labels.data?.labels ?? [];
  const labelOf = useCallback((sample: Prediction) => (overrides.has(sample.id) ? (overrides.get(sample.id) ?? null) : sample.label), [overrides]);

  useEffect(() => {
    setFocus(0);
    setOverrides(new Map());
  }, [packageId, shown, trueLabel, predicted, pageNum]);

  const reloadMatrix = confusion.reload;
  const apply = useCallback(
    (changes: ReadonlyArray<{ id: number; label: string | null }>, remember = true) => {
      if (!changes.length) return;
      // what they were, for undo (and for a refusal): as shown, or as the page had them
      const before = changes.map((change) => {
        const sample = samples.find((item) => item.id === change.id);
        return { id: change.id, label: sample ? labelOf(sample) : (overrides.get(change.id) ?? null) };
      });
      const set = (list: ReadonlyArray<{ id: number; label: string | null }>) => setOverrides((map) => new Map([...map, ...list.map((item) => [item.id, item.label] as const)]));
      set(changes);
      if (remember) setUndo((stack) => [...stack.slice(-49), before]);
      // one call per label (the labeling call takes one label for many samples)
      const byLabel = new Map<string | null, number[]>();
      for (const change of changes) byLabel.set(change.label, [...(byLabel.get(change.label) ?? []), change.id]);
      for (const [label, ids] of byLabel)
        http.put('/ai/sample/label', { ids, label }).then(
          () => reloadMatrix(),
          () => set(before), // refused (the toast says why): the labels as they were
        );
    },
    [http, labelOf, samples, overrides, reloadMatrix],
  );

  const labelFocused = (label: string | null) => {
    const sample = samples[focus];
    if (!sample) return;
    apply([{ id: sample.id, label }]);
    setFocus((index) => Math.min(samples.length - 1, index + 1));
  };

  const undoLast = () => {
    const last = undo.at(-1);
    if (!last) return;
    setUndo((stack) => stack.slice(0, -1));
    apply(last, false);
    const at = samples.findIndex((sample) => sample.id === last[0]?.id);
    if (at >= 0) setFocus(at);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const action = sampleKeyAction(event, COLUMNS, labelNames);
    // Space (select) belongs to Image labeling's batch labelling; here corrections are one picture at a time
    if (!action || action.kind === 'select') return;
    event.preventDefault();
    if (action.kind === 'move') setFocus((index) => Math.max(0, Math.min(samples.length - 1, index + action.delta)));
    else if (action.kind === 'undo') undoLast();
    else if (action.kind === 'accept') labelFocused(samples[focus]?.predicted ?? null);
    else labelFocused(action.label);
  };

  const run = async () => {
    if (!packageId) return;
    setRunning(0);
    try {
      let done = 0;
      for (;;) {
        const answer = await http.post<{ predicted: number; remaining: number }>('/ai/classify/run', { packageId });
        done += answer.predicted;
        setRunning(done);
        if (!answer.remaining || !answer.predicted) break;
      }
    } finally {
      setRunning(null);
      confusion.reload();
      page.reload();
    }
  };

  const pick = (actual: string, model: string) => {
    setShown('all');
    setTrueLabel(actual);
    setPredicted(model);
    setPageNum(1);
  };

  const modelList = models.data ?? [];
  const total = page.data?.total ?? 0;
  const labelOptions = [...new Set([...labelNames, ...(modelList.find((model) => model.packageId === packageId)?.labels ?? [])])];

  return (
    <Box data-testid="image-classify">
      <ScreenHeading node={node} />
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('aiTraining.classify.help')}
      </Typography>
      <LoadState
        isPending={models.isPending}
        error={models.error}
        onRetry={models.reload}
        hasData={modelList.length > 0}
        empty={<Typography color="text.secondary">{translate('aiTraining.classify.noModel')}</Typography>}
      >
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
          <TextField
            select
            size="small"
            label={translate('aiTraining.classify.model')}
            value={packageId ?? ''}
            onChange={(event) => (setChosen(Number(event.target.value)), setPageNum(1))}
            fullWidth={false}
            sx={{ width: 420, maxWidth: '100%' }}
            inputProps={{ 'data-testid': 'classify-model' }}
          >
            {modelList.map((model) => (
              <MenuItem key={model.packageId} value={model.packageId}>
                {translate('aiTraining.classify.modelOption', { name: model.name, version: model.version, accuracy: percent(model.accuracy) })}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="contained" onClick={() => void run()} disabled={running !== null || !packageId} data-testid="classify-run">
            {translate('aiTraining.classify.run')}
          </Button>
          <Typography role="status" aria-live="polite" color="text.secondary" data-testid="classify-coverage">
            {running !== null
              ? translate('aiTraining.classify.running', { predicted: running })
              : confusion.data
                ? translate('aiTraining.classify.coverage', { predicted: confusion.data.predicted, pool: confusion.data.pool })
                : ''}
          </Typography>
        </Box>
        <Box sx={{ mb: 2 }}>
          <TitledCard title={translate('aiTraining.classify.matrix')} testId="classify-matrix-card">
            <LoadState isPending={confusion.isPending} error={confusion.error} onRetry={confusion.reload} hasData={Boolean(confusion.data)}>
              {confusion.data ? <ClassifyMatrix confusion={confusion.data} onPick={pick} /> : null}
            </LoadState>
          </TitledCard>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 1 }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={shown}
            onChange={(_event, value: Shown | null) => value && (setShown(value), setPageNum(1))}
            aria-label={translate('aiTraining.classify.show')}
          >
            {CLASSIFY_SHOWN.map((value) => (
              <ToggleButton key={value} value={value} data-testid={`shown-${value}`}>
                {translate(`aiTraining.classify.${value}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {(
            [
              ['trueLabel', trueLabel, setTrueLabel],
              ['modelLabel', predicted, setPredicted],
            ] as const
          ).map(([name, value, setValue]) => (
            <TextField
              key={name}
              select
              size="small"
              label={translate(`aiTraining.classify.${name}`)}
              value={value}
              onChange={(event) => (setValue(event.target.value), setPageNum(1))}
              fullWidth={false}
              sx={{ width: 180 }}
              inputProps={{ 'data-testid': `filter-${name}` }}
            >
              <MenuItem value="">{translate('aiTraining.classify.any')}</MenuItem>
              {labelOptions.map((label) => (
                <MenuItem key={label} value={label}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          ))}
          <Button variant="text" disabled={!undo.length} onClick={undoLast}>
            {translate('aiTraining.labeling.undo')}
          </Button>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }} role="group" aria-label={translate('aiTraining.classify.correct')}>
          {labelNames.map((label, index) => (
            <Chip key={label} label={`${index < 9 ? `${index + 1} · ` : ''}${label}`} onClick={() => labelFocused(label)} data-testid="correct-chip" data-label={label} />
          ))}
        </Box>
        <LoadState
          isPending={page.isPending}
          error={page.error}
          onRetry={page.reload}
          hasData={samples.length > 0}
          empty={<Typography color="text.secondary">{translate('aiTraining.classify.empty')}</Typography>}
        >
          <Box
            component="ul"
            ref={grid}
            role="listbox"
            aria-label={translate('menu.imageClassify')}
            aria-activedescendant={samples[focus] ? `prediction-${samples[focus].id}` : undefined}
            tabIndex={0}
            onKeyDown={onKeyDown}
            data-testid="prediction-grid"
            data-focus={samples[focus]?.id ?? ''}
            sx={{ display: 'grid', gridTemplateColumns: `repeat(${COLUMNS}, 120px)`, gap: 1, p: 1, m: 0, outline: 'none', '&:focus-visible': { boxShadow: 2 } }}
          >
            {samples.map((sample, index) => (
              <PredictionTile key={sample.id} sample={sample} label={labelOf(sample)} focused={index === focus} onFocus={() => (setFocus(index), grid.current?.focus())} />
            ))}
          </Box>
          {total > PAGE_SIZE ? <Pagination sx={{ mt: 1 }} count={Math.ceil(total / PAGE_SIZE)} page={pageNum} onChange={(_event, value) => setPageNum(value)} /> : null}
        </LoadState>
      </LoadState>
    </Box>
  );
};

export default ClassifyPage;
