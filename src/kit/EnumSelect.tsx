// A small filter select over catalogue values ("all" = no filter), for the tab filter bars.
import { useId } from 'react';
import { useTranslate } from 'ra-core';
import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';

export interface EnumSelectProps {
  /** Catalogue key of the label. */
  label: string;
  value: string | null;
  options: readonly string[];
  /** Catalogue prefix of the option labels. */
  labels: string;
  onChange: (value: string | null) => void;
  testId?: string;
}

export const EnumSelect = ({ label, value, options, labels, onChange, testId }: EnumSelectProps) => {
  const translate = useTranslate();
  const labelId = useId();
  return (
    <FormControl size="small" fullWidth={false} sx={{ minWidth: 200 }}>
      <InputLabel id={labelId}>{translate(label)}</InputLabel>
      <Select
        labelId={labelId}
        label={translate(label)}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : String(event.target.value))}
        data-testid={testId}
      >
        <MenuItem value="">
          <em>{translate('installation.common.all')}</em>
        </MenuItem>
        {options.map((option) => (
          <MenuItem key={option} value={option}>
            {translate(`${labels}.${option}`, { _: option })}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
};
