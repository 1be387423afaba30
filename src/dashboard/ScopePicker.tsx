// "RVMs in active filter": which saved filter of the machine list scopes the dashboard (none = every
// RVM of the license account). The list comes from GET /saved-filter?resource=machine.
import { useEffect, useState } from 'react';
import { useTranslate } from 'ra-core';
import { MenuItem, TextField } from '@mui/material';
import { useConsoleServices } from '../layout/ConsoleServices';

interface SavedFilterOption {
  id: number;
  name: string;
  builtIn: boolean;
}

export interface ScopePickerProps {
  value: number | null;
  onChange: (savedFilterId: number | null) => void;
}

export const ScopePicker = ({ value, onChange }: ScopePickerProps) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [options, setOptions] = useState<SavedFilterOption[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    http.get<SavedFilterOption[]>('/saved-filter', { resource: 'machine' }, { silent: true, signal: controller.signal }).then(
      (answer) => setOptions(Array.isArray(answer) ? answer : []),
      () => setOptions([]),
    );
    return () => controller.abort();
  }, [http]);
  // A chosen filter deleted since (or not loaded yet) still shows as chosen by its id.
  const known = value === null || options.some((option) => option.id === value);
  return (
    <TextField
      select
      size="small"
      label={translate('dashboard.scope.label')}
      helperText={translate('dashboard.scope.hint')}
      value={value === null ? '' : String(value)}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      sx={{ minWidth: 260 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid="dashboard-scope"
    >
      <MenuItem value="">{translate('dashboard.scope.all')}</MenuItem>
      {!known && <MenuItem value={String(value)}>#{value}</MenuItem>}
      {options.map((option) => (
        <MenuItem key={option.id} value={String(option.id)}>
          {option.builtIn ? translate(`generic.savedFilters.builtInNames.${option.name}`, { _: option.name }) : option.name}
        </MenuItem>
      ))}
    </TextField>
  );
};
