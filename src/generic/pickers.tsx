// Date and date-time pickers of the whole console: one localised format, the tables' own
// (`yyyy-MM-dd HH:mm`, 24-hour), in both languages. Browser-native date inputs follow the browser's
// locale instead (`mm/dd/yyyy hh:mm AM` in an English Chromium, whatever the console's language),
// so every date input goes through MUI X's pickers with the console's locale (texts from MUI X's
// own en/zh locale packs, calendars from date-fns's).
import { useState, type ReactNode } from 'react';
import { useInput, useLocaleState, useTranslate, ValidationError, type InputProps } from 'ra-core';
import { format as formatDate, isValid, parseISO, startOfDay, startOfMinute } from 'date-fns';
import { enGB, zhCN as dateFnsZh } from 'date-fns/locale';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { enUS as pickersEn, zhCN as pickersZh } from '@mui/x-date-pickers/locales';
import { createTheme, ThemeProvider, type Theme } from '@mui/material/styles';

export const DATE_FORMAT = 'yyyy-MM-dd';
export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm';

/** Chinese calendars title a month "2026年11月", not "十一月 2026" (the header's default: month name, year). */
const withChineseCalendarTitle = (outer: Theme) => createTheme(outer, { components: { MuiPickersCalendarHeader: { defaultProps: { format: 'yyyy年M月' } } } });

/** The pickers' locale: the console's language (calendar week starts and month names follow it). */
export const PickerLocale = ({ children }: { children: ReactNode }) => {
  const [locale] = useLocaleState();
  const zh = locale === 'zh';
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={zh ? dateFnsZh : enGB}
      localeText={(zh ? pickersZh : pickersEn).components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {zh ? <ThemeProvider theme={withChineseCalendarTitle}>{children}</ThemeProvider> : children}
    </LocalizationProvider>
  );
};

export interface DateTimeFieldProps {
  label: string;
  value: Date | null;
  onChange: (value: Date | null) => void;
  /** Whether only the day is picked (`yyyy-MM-dd`), else the minute too. */
  dateOnly?: boolean;
  /** The message under the field (an error turns the field red). */
  error?: ReactNode;
  helperText?: string;
  minDate?: Date;
  maxDate?: Date;
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  name?: string;
  testId?: string;
  width?: number | string;
  size?: 'small' | 'medium';
  margin?: 'dense' | 'none' | 'normal';
  /** react-admin's forms use filled inputs; toolbars outlined ones. */
  variant?: 'filled' | 'outlined';
}

/** A controlled date or date-time field with its calendar, typed section by section from the keyboard. */
export const DateTimeField = ({
  label,
  value,
  onChange,
  dateOnly,
  error,
  helperText,
  minDate,
  maxDate,
  required,
  disabled,
  autoFocus,
  name,
  testId,
  width,
  size = 'small',
  margin,
  variant = 'outlined',
}: DateTimeFieldProps) => {
  const textField = {
    name,
    required,
    margin,
    size,
    variant,
    error: Boolean(error),
    helperText: error ?? helperText,
    sx: width === undefined ? undefined : { width },
    slotProps: testId ? { htmlInput: { 'data-testid': testId } } : undefined,
  };
  // What is shown is what is meant: a typed 10:00 is 10:00:00.000, not the seconds of the value it edited.
  const change = (next: Date | null) => onChange(next && isValid(next) ? (dateOnly ? startOfDay(next) : startOfMinute(next)) : next);
  const common = { label, value, onChange: change, disabled, autoFocus, minDate, maxDate };
  return (
    <PickerLocale>
      {dateOnly ? (
        <DatePicker {...common} format={DATE_FORMAT} slotProps={{ textField }} />
      ) : (
        <DateTimePicker {...common} format={DATE_TIME_FORMAT} ampm={false} views={['year', 'month', 'day', 'hours', 'minutes']} slotProps={{ textField }} />
      )}
    </PickerLocale>
  );
};

/** A picker's value as a Date: null when empty or unreadable (half-typed). */
export const validDate = (value: Date | null): Date | null => (value && isValid(value) ? value : null);

/** A half-typed or impossible date in a form: fails validation (`validation.date`) like any bad date text. */
const UNREADABLE = 'unreadable-date';

/** Form value (date: `yyyy-MM-dd`, datetime: ISO instant) to a Date. */
const toDate = (value: unknown): Date | null => {
  if (typeof value !== 'string' || !value) return null;
  const parsed = parseISO(value);
  return isValid(parsed) ? parsed : null;
};

type RaPickerProps = Omit<InputProps, 'format' | 'parse'> & { label?: string; fullWidth?: boolean; alwaysOn?: boolean; dateOnly?: boolean; filter?: boolean };

/**
 * A react-admin form or filter input over the console's picker (dates as `yyyy-MM-dd`, date-times as
 * ISO instants). While a date is half typed the picker keeps what was typed (the draft); a form
 * holds UNREADABLE meanwhile, a filter keeps its last readable value (no request with a bad date).
 */
const RaPicker = ({ dateOnly, label, fullWidth, alwaysOn: _alwaysOn, filter, ...props }: RaPickerProps) => {
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput(props);
  const [draft, setDraft] = useState<Date | null>(null);
  const change = (next: Date | null) => {
    setDraft(next);
    if (next === null) field.onChange(null);
    else if (isValid(next)) field.onChange(dateOnly ? formatDate(next, DATE_FORMAT) : next.toISOString());
    else if (!filter) field.onChange(UNREADABLE);
  };
  const shown = draft && !isValid(draft) ? draft : toDate(field.value);
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  return (
    <DateTimeField
      label={label ? translate(label, { _: label }) : props.source}
      value={shown}
      onChange={change}
      dateOnly={dateOnly}
      name={field.name}
      required={isRequired}
      error={error ? <ValidationError error={error} /> : null}
      helperText=" "
      width={fullWidth ? '100%' : 240}
      margin="dense"
      // react-admin's own inputs are small (its theme): a medium picker stood taller than the selects beside it
      size="small"
      variant="filled"
      testId={`input-${props.source}`}
    />
  );
};

export const LocalDateInput = (props: Omit<RaPickerProps, 'dateOnly'>) => <RaPicker {...props} dateOnly />;
export const LocalDateTimeInput = (props: Omit<RaPickerProps, 'dateOnly'>) => <RaPicker {...props} />;
