// A MUI outlined text field whose label, error and hint are i18n keys (forms of the shell's pages and
// dialogs). Composed like MUI's TextField (same DOM, classes and ids) but without it: TextField always
// brings MUI's Select, menu and popover along, which the login page must not download.
import { useId } from 'react';
import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { useTranslate } from 'ra-core';
import type { FieldError } from './loginRules';

export interface TranslatedFieldProps {
  name: string;
  labelKey: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: FieldError;
  hintKey?: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
}

export const TranslatedField = ({ name, labelKey, value, onValueChange, error, hintKey, type, autoComplete, autoFocus, required, disabled }: TranslatedFieldProps) => {
  const translate = useTranslate();
  const id = useId();
  const label = translate(labelKey);
  const helper = error ? translate(error.key, error.values) : hintKey ? translate(hintKey) : undefined;
  const helperId = helper ? `${id}-helper-text` : undefined;
  return (
    <FormControl className="MuiTextField-root" fullWidth margin="dense" required={required} error={Boolean(error)} disabled={disabled}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        value={value}
        label={label}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        aria-describedby={helperId}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {helper && <FormHelperText id={helperId}>{helper}</FormHelperText>}
    </FormControl>
  );
};
