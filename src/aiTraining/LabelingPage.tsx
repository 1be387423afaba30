// Service › Image labeling, /service/imageLabeling (docs/ai-training.md "Labeling"): the sample pool as a grid
// of pictures, worked by keyboard: number keys give the focused picture (or the selection) a label and move
// on, arrows move, Space selects, Ctrl+Z undoes the last labelling. Labels are added here (digits, letters and
// underscores only: the server's message shows on the field); the counts per label stay in view.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Button, Chip, Pagination, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { ApiError } from '../providers/httpTypes';
import { useSamplePicture, type LabelAnswer, type Page, type Sample } from './api';
import { sampleKeyAction } from './sampleKeys';

const PAGE_SIZE = 40;
const COLUMNS = 8;

/** `unlabelled`, `all`, or a label's name. */
type Shown = string;

/** The first field issue of a failure (already translated by the server), for the field's helper text. */
export const issueOf = (error: unknown): string | null => {
  const issues = error instanceof ApiError ? (error.data as { issues?: Array<{ message?: string }> } | undefined)?.issues : undefined;
  return issues?.[0]?.message ?? (error instanceof Error ? error.message : null);
};

const Tile = ({
  sample,
  label,
  index,
  focused,
  selected,
  onFocus,
}: {
  sample: Sample;
  label: string | null;
  index: number;
  focused: boolean;
  selected: boolean;
  onFocus: (index: number) => void;
}) => {
  const translate = useTranslate();
  const url = useSamplePicture(sample.id);
  return (
    <Box
      component="li"
      id={`sample-${sample.id}`}
      role="option"
      aria-selected={selected}
      aria-current={focused}
      data-testid="sample-tile"
      data-id={sample.id}
      data-label={label ?? ''}
      onClick={() => onFocus(index)}
      sx={{
        listStyle: 'none',
        border: 3,
        borderColor: focused ? 'primary.main' : selected ? 'secondary.main' : 'transparent',
        borderRadius: 1,
        p: 0.5,
        cursor: 'pointer',
        bgcolor: selected ? 'action.selected' : undefined,
      }}
    >
      <Box sx={{ width: 96, height: 96, bgcolor: 'grey.200', mx: 'auto' }}>
        {url ? (
          <img src={url} alt={translate('aiTraining.labeling.picture', { id: sample.id })} width={96} height={96} style={{ imageRendering: 'pixelated', display: 'block' }} />
        ) : null}
      </Box>
      <Typography variant="caption" component="div" noWrap sx={{ textAlign: 'center', fontWeight: label ? 600 : 400, color: label ? 'text.primary' : 'text.secondary' }}>
        {label ?? translate('aiTraining.labeling.none')}
      </Typography>
    </Box>
  );
};

interface Undo {
  changes: Array<{ id: number; label: string | null }>;
}

const LabelingPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [shown, setShown] = useState<Shown>('unlabelled');
  const [pageNum, setPageNum] = useState(1);
  const [focus, setFocus] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [undo, setUndo] = useState<Undo[]>([]);
  const [newLabel, setNewLabel] = useState('');
  const [labelError, setLabelError] = useState<string | null>(null);
  const grid = useRef<HTMLUListElement>(null);
  const labels = useApiQuery(['aiLabels'], (client, signal) => client.get<LabelAnswer>('/ai/label', undefined, { signal }));
  const query = { pageNum, pageSize: PAGE_SIZE, ...(shown === 'unlabelled' ? { unlabelled: true } : shown === 'all' ? {} : { label: shown }) };
  const page = useApiQuery(['aiSamples', query], (client, signal) => client.get<Page<Sample>>('/ai/sample/page', query, { signal }));
  const samples = useMemo(() => page.data?.list ?? [], [page.data]);
  const labelNames = labels.data?.labels ?? [];

  // labels given on this page, shown at once (keys come faster than the server answers); the server's
  // answers bring the counts
  const [overrides, setOverrides] = useState<ReadonlyMap<number, string | null>>(new Map());
  const labelOf = useCallback((sample: Sample) => (overrides.has(sample.id) ? (overrides.get(sample.id) ?? null) : sample.label), [overrides]);

  useEffect(() => {
    setFocus(0);
    setSelected(new Set());
    setOverrides(new Map());
  }, [shown, pageNum]);

  const apply = useCallback(
    (ids: number[], label: string | null, remember = true): Promise<unknown> => {
      if (!ids.length) return Promise.resolve();
      const before = samples.filter((sample) => ids.includes(sample.id)).map((sample) => ({ id: sample.id, label: labelOf(sample) }));
      const set = (changes: ReadonlyArray<{ id: number; label: string | null }>) =>
        setOverrides((map) => new Map([...map, ...changes.map((change) => [change.id, change.label] as const)]));
      set(ids.map((id) => ({ id, label })));
      if (remember) setUndo((stack) => [...stack.slice(-49), { changes: before }]);
      return http.put<{ counts: LabelAnswer['counts'] }>('/ai/sample/label', { ids, label }).then(
        (answer) => labels.data && labels.setData({ ...labels.data, counts: answer.counts }),
        () => set(before), // refused (the toast says why): the pictures show their labels as they were
      );
    },
    [http, labels, samples, labelOf],
  );

  const undoLast = useCallback(() => {
    const last = undo.at(-1);
    if (!last) return;
    setUndo((stack) => stack.slice(0, -1));
    // each label of the step back as it was, one call per label
    const byLabel = new Map<string | null, number[]>();
    for (const change of last.changes) byLabel.set(change.label, [...(byLabel.get(change.label) ?? []), change.id]);
    for (const [label, ids] of byLabel) void apply(ids, label, false);
    const first = samples.findIndex((sample) => sample.id === last.changes[0]?.id);
    if (first >= 0) setFocus(first);
  }, [undo, apply, samples]);

  const labelNow = useCallback(
    (label: string) => {
      const ids = selected.size ? [...selected] : samples[focus] ? [samples[focus].id] : [];
      const saved = apply(ids, label);
      if (selected.size) setSelected(new Set());
      else setFocus((index) => Math.min(samples.length - 1, index + 1));
      // the last unlabelled picture of the page labelled: the next ones come, as if the operator turned the page
      if (shown === 'unlabelled' && samples.every((sample) => ids.includes(sample.id) || labelOf(sample) !== null)) {
        void saved.then(() => {
          setFocus(0);
          page.reload();
        });
      }
    },
    [apply, selected, samples, focus, shown, labelOf, page],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    const action = sampleKeyAction(event, COLUMNS, labelNames);
    // Enter (take the model's label) belongs to Image classification; here it keeps its default
    if (!action || action.kind === 'accept') return;
    event.preventDefault();
    if (action.kind === 'move') setFocus((index) => Math.max(0, Math.min(samples.length - 1, index + action.delta)));
    else if (action.kind === 'select') {
      const id = samples[focus]?.id;
      if (id !== undefined) setSelected((set) => (set.has(id) ? new Set([...set].filter((other) => other !== id)) : new Set([...set, id])));
    } else if (action.kind === 'undo') undoLast();
    else labelNow(action.label);
  };

  const addLabel = async () => {
    try {
      const answer = await http.post<string[]>('/ai/label', { name: newLabel.trim() }, { silent: true });
      if (labels.data) labels.setData({ ...labels.data, labels: answer });
      setNewLabel('');
      setLabelError(null);
    } catch (error) {
      setLabelError(issueOf(error));
    }
  };

  const countOf = (label: string | null) => labels.data?.counts.find((row) => row.label === label)?.samples ?? 0;
  const total = page.data?.total ?? 0;

  return (
    <Box data-testid="image-labeling">
      <ScreenHeading node={node} />
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('aiTraining.labeling.help')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }} aria-label={translate('aiTraining.labeling.counts')} role="group">
        {labelNames.map((label, index) => (
          <Chip
            key={label}
            label={`${index < 9 ? `${index + 1} · ` : ''}${label} (${countOf(label)})`}
            onClick={() => labelNow(label)}
            color={shown === label ? 'primary' : 'default'}
            data-testid="label-chip"
            data-label={label}
          />
        ))}
        <Chip label={`${translate('aiTraining.labeling.none')} (${countOf(null)})`} variant="outlined" />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 1 }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={shown}
          onChange={(_event, value: Shown | null) => value && (setShown(value), setPageNum(1))}
          aria-label={translate('aiTraining.labeling.show')}
        >
          <ToggleButton value="unlabelled">{translate('aiTraining.labeling.unlabelled')}</ToggleButton>
          <ToggleButton value="all">{translate('aiTraining.labeling.all')}</ToggleButton>
          {labelNames.map((label) => (
            <ToggleButton key={label} value={label}>
              {label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Box component="form" noValidate onSubmit={(event) => (event.preventDefault(), void addLabel())} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            size="small"
            label={translate('aiTraining.labeling.newLabel')}
            value={newLabel}
            onChange={(event) => setNewLabel(event.target.value)}
            error={labelError !== null}
            helperText={labelError ?? ' '}
            inputProps={{ 'data-testid': 'new-label' }}
            sx={{ width: 240 }}
          />
          <Button type="submit" variant="outlined" disabled={!newLabel.trim()}>
            {translate('aiTraining.labeling.addLabel')}
          </Button>
        </Box>
        <Button variant="text" disabled={!undo.length} onClick={() => undoLast()} data-testid="undo">
          {translate('aiTraining.labeling.undo')}
        </Button>
        {selected.size ? <Typography sx={{ alignSelf: 'center' }}>{translate('aiTraining.labeling.selected', { count: selected.size })}</Typography> : null}
      </Box>
      <LoadState
        isPending={page.isPending}
        error={page.error}
        onRetry={page.reload}
        hasData={samples.length > 0}
        empty={<Typography color="text.secondary">{translate('aiTraining.labeling.empty')}</Typography>}
      >
        <Box
          component="ul"
          ref={grid}
          role="listbox"
          aria-multiselectable
          aria-label={translate('aiTraining.labeling.title')}
          aria-activedescendant={samples[focus] ? `sample-${samples[focus].id}` : undefined}
          tabIndex={0}
          autoFocus
          onKeyDown={onKeyDown}
          data-testid="sample-grid"
          data-focus={samples[focus]?.id ?? ''}
          sx={{ display: 'grid', gridTemplateColumns: `repeat(${COLUMNS}, 112px)`, gap: 1, p: 1, m: 0, outline: 'none', '&:focus-visible': { boxShadow: 2 } }}
        >
          {samples.map((sample, index) => (
            <Tile
              key={sample.id}
              sample={sample}
              label={labelOf(sample)}
              index={index}
              focused={index === focus}
              selected={selected.has(sample.id)}
              onFocus={(at) => (setFocus(at), grid.current?.focus())}
            />
          ))}
        </Box>
        {total > PAGE_SIZE ? <Pagination sx={{ mt: 1 }} count={Math.ceil(total / PAGE_SIZE)} page={pageNum} onChange={(_event, value) => setPageNum(value)} /> : null}
      </LoadState>
    </Box>
  );
};

export default LabelingPage;
