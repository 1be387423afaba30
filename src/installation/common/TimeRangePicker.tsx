// The history tabs' time range: presets (last 24 hours, 7 days, 30 days) and a custom from/to,
// applied with a button or Enter; "end after start" checked before anything is loaded.
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Button, ToggleButton, ToggleButtonGroup, TextField } from '@mui/material';
import { fromLocalInput, lastDays, RANGE_PRESETS, toLocalInput, type TimeRange } from './timeRange';

export interface TimeRangePickerProps {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  /** The preset `value` started from (highlighted until a custom range is applied). */
  initialPreset?: number;
}

export const TimeRangePicker = ({ value, onChange, initialPreset }: TimeRangePickerProps) => {
  const translate = useTranslate();
  const [from, setFrom] = useState(toLocalInput(value.from));
  const [to, setTo] = useState(toLocalInput(value.to));
  const [preset, setPreset] = useState<number | null>(initialPreset ?? null);
  const [error, setError] = useState<string | null>(null);

  const choosePreset = (days: number | null) => {
    if (days === null) return;
    const range = lastDays(days);
    setPreset(days);
    setFrom(toLocalInput(range.from));
    setTo(toLocalInput(range.to));
    setError(null);
    onChange(range);
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const start = fromLocalInput(from);
    const end = fromLocalInput(to);
    if (!start || !end) return setError(translate('validation.date'));
    if (end <= start) return setError(translate('validation.endAfterStart'));
    setError(null);
    setPreset(null);
    onChange({ from: start, to: end });
  };

  return (
    <Box component="form" onSubmit={apply} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }} data-testid="time-range">
      <ToggleButtonGroup
        size="small"
        exclusive
        value={preset}
        onChange={(_event, days: number | null) => choosePreset(days)}
        aria-label={translate('installation.range.presets')}
      >
        {RANGE_PRESETS.map((days) => (
          <ToggleButton key={days} value={days} sx={{ textTransform: 'none' }}>
            {translate(`installation.range.last${days}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        size="small"
        fullWidth={false}
        sx={{ width: 240 }}
        type="datetime-local"
        label={translate('installation.range.from')}
        value={from}
        onChange={(event) => setFrom(event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'range-from' } }}
      />
      <TextField
        size="small"
        fullWidth={false}
        sx={{ width: 240 }}
        type="datetime-local"
        label={translate('installation.range.to')}
        value={to}
        onChange={(event) => setTo(event.target.value)}
        error={Boolean(error)}
        helperText={error ?? undefined}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'range-to' } }}
      />
      <Button type="submit" variant="outlined">
        {translate('installation.range.apply')}
      </Button>
    </Box>
  );
};
