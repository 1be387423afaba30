// The parameter inputs of one command (resources/commands.ts COMMAND_PARAMS): on/off times as 24-hour
// HH:mm text (a time input would follow the browser's 12/24-hour habit), the maintenance switch as
// an explicit On/Off choice, the log range as local date-times, bin heights as whole numbers.
import { useTranslate } from 'ra-core';
import { Box, FormControl, FormHelperText, FormLabel, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { COMMAND_PARAMS, type RemoteCommand } from '../../resources/commands';
import type { ParamValues } from './commandUi';

export interface CommandParamsFieldsProps {
  command: RemoteCommand;
  values: ParamValues;
  /** Translated message per param name (client or server). */
  errors: Record<string, string>;
  onChange: (name: string, value: unknown) => void;
  disabled?: boolean;
}

const HINTS: Partial<Record<RemoteCommand, string>> = {
  setOnOffTime: 'remote.hints.time',
  downloadLogs: 'remote.hints.logRange',
  binHeight: 'remote.hints.binHeights',
};

export const CommandParamsFields = ({ command, values, errors, onChange, disabled }: CommandParamsFieldsProps) => {
  const translate = useTranslate();
  const fields = Object.entries(COMMAND_PARAMS[command].fields);
  if (fields.length === 0) return null;
  const hint = HINTS[command];
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
          const kind = field.type === 'datetime' ? 'datetime-local' : 'text';
          return (
            <TextField
              key={name}
              name={name}
              label={label}
              type={kind}
              value={(values[name] as string | undefined) ?? ''}
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
                inputLabel: kind === 'datetime-local' ? { shrink: true } : undefined,
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
          {translate(hint)}
        </Typography>
      ) : null}
    </Box>
  );
};
