// The parameter inputs of one command (resources/commands.ts COMMAND_PARAMS): on/off times as 24-hour
// HH:mm text (a time input would follow the browser's 12/24-hour habit), the maintenance switch as
// an explicit On/Off choice, the log range as local date-times (the console's 24-hour picker), bin
// heights as whole numbers.
import { useTranslate } from 'ra-core';
import { Box, FormControl, FormHelperText, FormLabel, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { COMMAND_PARAMS, commandDefinition, type RemoteCommand } from '../../resources/commands';
import type { ParamValues } from './commandUi';
import { isValid } from 'date-fns';
import { DateTimeField } from '../generic/pickers';
import { fromLocalInput, toLocalInput } from '../kit/timeRange';
import { useState } from 'react';

export interface CommandParamsFieldsProps {
  command: RemoteCommand;
  values: ParamValues;
  /** Translated message per param name (client or server). */
  errors: Record<string, string>;
  onChange: (name: string, value: unknown) => void;
  disabled?: boolean;
}

interface DateTimeParamProps {
  name: string;
  label: string;
  /** Local wall-clock `yyyy-MM-ddTHH:mm`, '' when empty, 'unreadable' while half typed. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required: boolean;
  disabled?: boolean;
  autoFocus: boolean;
}

/** A date-time param: a half-typed date stays in the field and fails validation (it is not "empty"). */
const DateTimeParam = ({ name, label, value, onChange, error, required, disabled, autoFocus }: DateTimeParamProps) => {
  const [draft, setDraft] = useState<Date | null>(null);
  return (
    <DateTimeField
      name={name}
      label={label}
      value={draft && !isValid(draft) ? draft : fromLocalInput(value)}
      onChange={(next) => {
        setDraft(next);
        onChange(next === null ? '' : isValid(next) ? toLocalInput(next) : 'unreadable');
      }}
      error={error || null}
      helperText=" "
      required={required}
      disabled={disabled}
      autoFocus={autoFocus}
      margin="dense"
      testId={`param-${name}`}
    />
  );
};

export const CommandParamsFields = ({ command, values, errors, onChange, disabled }: CommandParamsFieldsProps) => {
  const translate = useTranslate();
  const fields = Object.entries(COMMAND_PARAMS[command].fields);
  if (fields.length === 0) return null;
  const hint = commandDefinition(command).paramsHint;
  let first = true;
  const autoFocus = () => {
    const focus = first;
    first = false;
    return focus;
  };

  return (
    <Box data-testid="command-params">
      <Box sx={{ display: 'grid', gridTemplateColumns: fields.length > 1 ? { xs: '1fr', sm: '1fr 1fr' } : '1fr', columnGap: 2, rowGap: 1 }}>
        {fields.map(([name, field]) => {
          const label = translate(`remote.params.${name}`);
          const error = errors[name];
          if (field.type === 'boolean') {
            const value = values[name];
            return (
              <FormControl key={name} error={Boolean(error)} disabled={disabled} sx={{ gridColumn: '1 / -1' }}>
                <FormLabel id={`param-${name}`} sx={{ mb: 0.5 }}>
                  {label}
                </FormLabel>
                <ToggleButtonGroup
                  exclusive
                  size="small"
                  color="primary"
                  value={typeof value === 'boolean' ? String(value) : null}
                  onChange={(_event, next: string | null) => onChange(name, next === null ? undefined : next === 'true')}
                  aria-labelledby={`param-${name}`}
                  data-testid={`param-${name}`}
                >
                  <ToggleButton value="true" autoFocus={autoFocus()} sx={{ px: 3 }}>
                    {translate('remote.values.on')}
                  </ToggleButton>
                  <ToggleButton value="false" sx={{ px: 3 }}>
                    {translate('remote.values.off')}
                  </ToggleButton>
                </ToggleButtonGroup>
                {error ? <FormHelperText>{error}</FormHelperText> : null}
              </FormControl>
            );
          }
          if (field.type === 'datetime') {
            return (
              <DateTimeParam
                key={name}
                name={name}
                label={label}
                value={(values[name] as string | undefined) ?? ''}
                onChange={(next) => onChange(name, next)}
                error={error}
                required={Boolean(field.required)}
                disabled={disabled}
                autoFocus={autoFocus()}
              />
            );
          }
          return (
            <TextField
              key={name}
              name={name}
              label={label}
              value={values[name] ?? ''}
              onChange={(event) => onChange(name, event.target.value)}
              error={Boolean(error)}
              helperText={error ?? ' '}
              required={Boolean(field.required)}
              disabled={disabled}
              autoFocus={autoFocus()}
              size="small"
              margin="dense"
              placeholder={name === 'onTime' || name === 'offTime' ? 'HH:mm' : undefined}
              slotProps={{
                htmlInput: {
                  'data-testid': `param-${name}`,
                  inputMode: field.type === 'number' ? 'numeric' : undefined,
                  autoComplete: 'off',
                },
              }}
            />
          );
        })}
      </Box>
      {hint ? (
        <Typography variant="caption" color="text.secondary" component="p">
          {translate(`remote.hints.${hint}`)}
        </Typography>
      ) : null}
    </Box>
  );
};
