// The history tabs' time range: presets (last 24 hours, 7 days, 30 days) and a custom from/to,
// applied with a button or Enter; "end after start" checked before anything is loaded.
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Button, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { DateTimeField, validDate } from '../generic/pickers';
import { lastDays, RANGE_PRESETS, type TimeRange } from './timeRange';

export interface TimeRangePickerProps {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  /** The preset `value` started from (highlighted until a custom range is applied). */
  initialPreset?: number;
}

export const TimeRangePicker = ({ value, onChange, initialPreset }: TimeRangePickerProps) => {
  const translate = useTranslate();
  const [from, setFrom] = useState<Date | null>(value.from);
  const [to, setTo] = useState<Date | null>(value.to);
  const [preset, setPreset] = useState<number | null>(initialPreset ?? null);
  const [error, setError] = useState<string | null>(null);

  const choosePreset = (days: number | null) => {
    if (days === null) return;
    const range = lastDays(days);
    setPreset(days);
    setFrom(range.from);
    setTo(range.to);
    setError(null);
    onChange(range);
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const start = validDate(from);
    const end = validDate(to);
    if (!start || !end) return setError(translate('validation.date'));
    if (end <= start) return setError(translate('validation.endAfterStart'));
    setError(null);
    setPreset(null);
    onChange({ from: start, to: end });
  };

  return (
    <Box component="form" noValidate onSubmit={apply} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }} data-testid="time-range">
      <ToggleButtonGroup size="small" exclusive value={preset} onChange={(_event, days: number | null) => choosePreset(days)} aria-label={translate('installation.range.presets')}>
        {RANGE_PRESETS.map((days) => (
          <ToggleButton key={days} value={days} sx={{ textTransform: 'none' }}>
            {translate(`installation.range.last${days}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <DateTimeField width={220} label={translate('installation.range.from')} value={from} onChange={setFrom} testId="range-from" />
      <DateTimeField width={220} label={translate('installation.range.to')} value={to} onChange={setTo} error={error} testId="range-to" />
      <Button type="submit" variant="outlined">
        {translate('installation.range.apply')}
      </Button>
    </Box>
  );
};
