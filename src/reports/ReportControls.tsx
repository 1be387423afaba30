// The report screen's choices: which report, the local days (date inputs in the browser's language;
// presets of the last 7 and 30 complete days), fleets (with their sub-fleets) and machines.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Autocomplete, Box, Button, MenuItem, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { REPORT_KINDS, type ReportKind } from '../../resources/reports';
import { useConsoleServices } from '../layout/ConsoleServices';
import { DateTimeField, validDate } from '../generic/pickers';
import { dateOf, dayInput, lastDays, type DayRange } from './reportRange';

export interface ReportChoice {
  report: ReportKind;
  range: DayRange;
  fleets: Option[];
  machines: Option[];
}

export interface Option {
  id: number;
  name: string;
}

interface FleetRow extends Option {
  parentId: number | null;
  level: number;
}

const PRESETS = [7, 30] as const;

/** Fleets in tree order (each after its parent), indented by level in the list. */
const treeOrder = (fleets: FleetRow[]): FleetRow[] => {
  const children = new Map<number | null, FleetRow[]>();
  for (const row of fleets) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  const known = new Set(fleets.map((row) => row.id));
  const out: FleetRow[] = [];
  const walk = (parent: number | null) => {
    for (const row of children.get(parent) ?? []) {
      out.push(row);
      walk(row.id);
    }
  };
  walk(null);
  for (const row of fleets) if (row.parentId !== null && !known.has(row.parentId)) out.push(row);
  return out;
};

export const ReportControls = ({ value, onChange }: { value: ReportChoice; onChange: (choice: ReportChoice) => void }) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [draft, setDraft] = useState(value);
  const [preset, setPreset] = useState<number | null>(30);
  const [invalid, setInvalid] = useState(false);
  const [fleets, setFleets] = useState<FleetRow[]>([]);
  const [machineOptions, setMachineOptions] = useState<Option[]>([]);
  const [machineQuery, setMachineQuery] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    http.get<FleetRow[]>('/report/fleets', undefined, { signal: controller.signal }).then(
      (rows) => setFleets(treeOrder(rows)),
      () => undefined,
    );
    return () => controller.abort();
  }, [http]);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      http.get<Option[]>('/report/machines', machineQuery ? { nameLike: machineQuery } : undefined, { signal: controller.signal }).then(setMachineOptions, () => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [http, machineQuery]);

  const apply = (next: ReportChoice) => {
    if (!next.range.first || !next.range.last || next.range.last < next.range.first) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onChange(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const choosePreset = (days: number | null) => {
    if (days === null) return;
    setPreset(days);
    const next = { ...draft, range: lastDays(days) };
    setDraft(next);
    apply(next);
  };
  const levelOf = new Map(fleets.map((row) => [row.id, row.level]));

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5, mb: 2 }} data-testid="report-controls">
      <TextField
        select
        size="small"
        label={translate('reports.kindLabel')}
        value={draft.report}
        onChange={(event) => {
          const next = { ...draft, report: event.target.value as ReportKind };
          setDraft(next);
          apply(next);
        }}
        sx={{ width: 340 }}
        data-testid="report-kind"
      >
        {REPORT_KINDS.map((kind) => (
          <MenuItem key={kind} value={kind} data-kind={kind}>
            {translate(`reports.kinds.${kind}.title`)}
          </MenuItem>
        ))}
      </TextField>
      <ToggleButtonGroup size="small" exclusive value={preset} onChange={(_event, days: number | null) => choosePreset(days)} sx={{ height: 40 }}>
        {PRESETS.map((days) => (
          <ToggleButton key={days} value={days} sx={{ textTransform: 'none' }} data-testid={`preset-${days}`}>
            {translate(`reports.range.last${days}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <DateTimeField
        dateOnly
        width={170}
        label={translate('reports.range.from')}
        value={dateOf(draft.range.first)}
        onChange={(date) => {
          setPreset(null);
          setDraft({ ...draft, range: { ...draft.range, first: validDate(date) ? dayInput(date!) : '' } });
        }}
        testId="range-first"
      />
      <DateTimeField
        dateOnly
        width={190}
        label={translate('reports.range.to')}
        value={dateOf(draft.range.last)}
        onChange={(date) => {
          setPreset(null);
          setDraft({ ...draft, range: { ...draft.range, last: validDate(date) ? dayInput(date!) : '' } });
        }}
        error={invalid ? translate('reports.range.invalid') : undefined}
        testId="range-last"
      />
      <Autocomplete
        multiple
        size="small"
        options={fleets}
        value={draft.fleets.map((chosen) => fleets.find((row) => row.id === chosen.id) ?? { ...chosen, parentId: null, level: 1 })}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
        renderOption={(props, option) => (
          <li {...props} key={option.id} style={{ paddingLeft: 16 * (levelOf.get(option.id) ?? 1) }}>
            {option.name}
          </li>
        )}
        onChange={(_event, chosen) => setDraft({ ...draft, fleets: chosen.map(({ id, name }) => ({ id, name })) })}
        renderInput={(params) => <TextField {...params} label={translate('reports.filters.fleets')} placeholder={draft.fleets.length ? '' : translate('reports.filters.none')} />}
        sx={{ width: 260 }}
        data-testid="fleet-filter"
      />
      <Autocomplete
        multiple
        size="small"
        options={machineOptions}
        value={draft.machines}
        filterOptions={(options) => options}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
        onInputChange={(_event, text) => setMachineQuery(text)}
        onChange={(_event, chosen) => setDraft({ ...draft, machines: chosen })}
        renderInput={(params) => (
          <TextField {...params} label={translate('reports.filters.machines')} placeholder={draft.machines.length ? '' : translate('reports.filters.none')} />
        )}
        sx={{ width: 240 }}
        data-testid="machine-filter"
      />
      <Button type="submit" variant="contained" sx={{ height: 40 }} data-testid="report-apply">
        {translate('reports.range.apply')}
      </Button>
    </Box>
  );
};
