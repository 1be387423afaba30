// A MUI text field whose label, error and hint are i18n keys (forms of the shell's pages/dialogs).
import { TextField, type TextFieldProps } from '@mui/material';
import { useTranslate } from 'ra-core';
import type { FieldError } from './passwordRules';

export type TranslatedFieldProps = Omit<TextFieldProps, 'label' | 'error' | 'helperText' | 'onChange'> & {
  labelKey: string;
  error?: FieldError;
  hintKey?: string;
  onValueChange: (value: string) => void;
};

export const TranslatedField = ({ labelKey, error, hintKey, onValueChange, ...props }: TranslatedFieldProps) => {
  const translate = useTranslate();
  const helper = error ? translate(error.key, error.values) : hintKey ? translate(hintKey) : undefined;
  return (
    <TextField
      fullWidth
      margin="dense"
      {...props}
      label={translate(labelKey)}
      error={Boolean(error)}
      helperText={helper}
      onChange={(event) => onValueChange(event.target.value)}
    />
  );
};
