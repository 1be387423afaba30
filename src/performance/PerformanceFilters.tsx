// The performance screen's filters: a range of local days within the last three months (the pickers
// offer nothing older: minDate; a typed older day is refused before any call), presets, the fleet
// (with its sub-fleets) and a machine of it. Applied with the button or Enter.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Autocomplete, Box, Button, MenuItem, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { DateTimeField, validDate } from '../generic/pickers';
import { dayText, localMidnight, shiftDay } from '../generic/localDays';
import { useConsoleServices } from '../layout/ConsoleServices';

export interface PerformanceFilter {
  from: string;
  to: string;
  fleetId: number | null;
  rvmId: number | null;
}

export interface FleetOption {
  id: number;
  name: string;
  parentId: number | null;
}

interface MachineOption {
  id: number;
  termNo: string;
  serialNumber: string;
}

/** The pickers hold a local day's midnight. */
const dateOf = (day: string) => localMidnight(day);

export const PRESETS = [7, 30, 0] as const;
/** A preset's range ending today (0: the whole three months). */
export const presetRange = (days: number, today: string, earliest: string) => ({ from: days === 0 ? earliest : shiftDay(today, -(days - 1)), to: today });

/** Fleets in tree order with their depth (the select indents sub-fleets). */
const fleetTree = (fleets: readonly FleetOption[]) => {
  const ordered: Array<FleetOption & { depth: number }> = [];
  const visit = (parentId: number | null, depth: number) => {
    for (const row of fleets.filter((item) => item.parentId === parentId)) {
      ordered.push({ ...row, depth });
      visit(row.id, depth + 1);
    }
  };
  visit(null, 0);
  return ordered;
};

export const PerformanceFilters = ({
  value,
  onChange,
  fleets,
  today,
  earliest,
}: {
  value: PerformanceFilter;
  onChange: (filter: PerformanceFilter) => void;
  fleets: readonly FleetOption[];
  today: string;
  earliest: string;
}) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [from, setFrom] = useState<Date | null>(dateOf(value.from));
  const [to, setTo] = useState<Date | null>(dateOf(value.to));
  const [fleetId, setFleetId] = useState<number | null>(value.fleetId);
  const [machine, setMachine] = useState<MachineOption | null>(null);
  const [search, setSearch] = useState('');
  const [machines, setMachines] = useState<MachineOption[]>([]);
  const [preset, setPreset] = useState<number | null>(30);
  const [error, setError] = useState<{ field: 'from' | 'to'; text: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const query = { ...(search ? { q: search } : {}), ...(fleetId ? { fleetId } : {}) };
    http.get<MachineOption[]>('/performance/machines', query, { silent: true, signal: controller.signal }).then(setMachines, () => undefined);
    return () => controller.abort();
  }, [http, search, fleetId]);

  const submit = (next: Partial<PerformanceFilter>) => onChange({ from: value.from, to: value.to, fleetId, rvmId: machine?.id ?? null, ...next });

  const choosePreset = (days: number | null) => {
    if (days === null) return;
    const range = presetRange(days, today, earliest);
    setPreset(days);
    setFrom(dateOf(range.from));
    setTo(dateOf(range.to));
    setError(null);
    submit(range);
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const start = validDate(from);
    const end = validDate(to);
    if (!start) return setError({ field: 'from', text: translate('validation.date') });
    if (!end) return setError({ field: 'to', text: translate('validation.date') });
    if (dayText(start) < earliest) return setError({ field: 'from', text: translate('performance.range.tooOld', { earliest }) });
    if (dayText(end) > today) return setError({ field: 'to', text: translate('performance.range.afterToday', { today }) });
    if (end < start) return setError({ field: 'to', text: translate('validation.endAfterStart') });
    setError(null);
    setPreset(null);
    submit({ from: dayText(start), to: dayText(end) });
  };

  const bounds = { minDate: dateOf(earliest) ?? undefined, maxDate: dateOf(today) ?? undefined };
  return (
    <Box component="form" noValidate onSubmit={apply} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5, mb: 2 }} data-testid="performance-filters">
      <ToggleButtonGroup size="small" exclusive value={preset} onChange={(_event, days: number | null) => choosePreset(days)} aria-label={translate('performance.range.presets')}>
        {PRESETS.map((days) => (
          <ToggleButton key={days} value={days} sx={{ textTransform: 'none' }}>
            {translate(days === 0 ? 'performance.range.last3Months' : `performance.range.last${days}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <DateTimeField
        dateOnly
        width={160}
        label={translate('performance.range.from')}
        value={from}
        onChange={setFrom}
        {...bounds}
        error={error?.field === 'from' ? error.text : null}
        testId="performance-from"
      />
      <DateTimeField
        dateOnly
        width={160}
        label={translate('performance.range.to')}
        value={to}
        onChange={setTo}
        {...bounds}
        error={error?.field === 'to' ? error.text : null}
        testId="performance-to"
      />
      <TextField
        select
        variant="outlined"
        size="small"
        sx={{ width: 210 }}
        label={translate('performance.scope.fleet')}
        value={fleetId ?? ''}
        onChange={(event) => {
          setFleetId(event.target.value === '' ? null : Number(event.target.value));
          setMachine(null);
        }}
        SelectProps={{ MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } }}
        inputProps={{ 'data-testid': 'performance-fleet' }}
      >
        <MenuItem value="">{translate('performance.scope.allFleets')}</MenuItem>
        {fleetTree(fleets).map((row) => (
          <MenuItem key={row.id} value={row.id} sx={{ pl: 2 + row.depth * 2 }}>
            {row.name}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        size="small"
        sx={{ width: 190 }}
        options={machines}
        value={machine}
        onChange={(_event, option) => setMachine(option)}
        onInputChange={(_event, text, reason) => reason === 'input' && setSearch(text.trim())}
        getOptionLabel={(option) => option.termNo}
        isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
        filterOptions={(options) => options}
        noOptionsText={translate('performance.scope.noMachines')}
        renderOption={(props, option) => (
          <li {...props} key={option.id}>
            {option.termNo} · {option.serialNumber}
          </li>
        )}
        renderInput={(params) => (
          <TextField {...params} variant="outlined" label={translate('performance.scope.machine')} placeholder={translate('performance.scope.allMachines')} />
        )}
        data-testid="performance-machine"
      />
      <Button type="submit" variant="contained" sx={{ mt: 0.25 }}>
        {translate('performance.range.apply')}
      </Button>
    </Box>
  );
};
