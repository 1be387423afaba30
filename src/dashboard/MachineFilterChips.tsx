// Chips of the machine list's applied filters (what a dashboard card or chart segment opened the list
// with, e.g. "Status: Offline", "Full: Yes", "Down since before: …"): one line saying what the list
// shows; deleting a chip removes that filter. Rendered by the fleet management screen above the list.
import { useGetMany, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { Box, Chip } from '@mui/material';
import type { ResourceDeclaration } from '../../resources/types';
import { LABELS_META } from '../generic/FieldDisplay';
import { formatDateTime } from '../generic/format';
import { filterLabel, requireDeclaration, resourceNameOf, type Registry } from '../providers/registry';
import { appliedFilterChips, searchWithout, type FilterChip } from './machineList';

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Names of referenced records (GET <apiPath>/list?ids=), e.g. fleets. */
const useReferenceNames = (target: ResourceDeclaration | undefined, ids: unknown[]) => {
  const { data } = useGetMany(target ? resourceNameOf(target) : 'none', { ids: ids as Array<string | number>, meta: LABELS_META }, { enabled: Boolean(target) && ids.length > 0 });
  return new Map((data ?? []).map((record) => [String(record.id), String(record[target?.nameField ?? 'name'] ?? record.id)]));
};

const FilterValueChip = ({ chip, declaration, registry }: { chip: FilterChip; declaration: ResourceDeclaration; registry: Registry }) => {
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  const field = declaration.fields[chip.filter.field];
  const target = field?.reference ? requireDeclaration(registry, field.reference) : undefined;
  const names = useReferenceNames(target, target ? asList(chip.value) : []);
  const one = (value: unknown): string => {
    if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (target) return names.get(String(value)) ?? `#${String(value)}`;
    if (field?.type === 'datetime' || field?.type === 'date') return formatDateTime(value);
    if (field?.type === 'enum') return translate(`resources.${declaration.name}.enums.${chip.filter.field}.${String(value)}`, { _: String(value) });
    return String(value);
  };
  const label = `${translate(filterLabel(declaration, chip.name))}: ${asList(chip.value).map(one).join(', ')}`;
  return (
    <Chip
      label={label}
      color="primary"
      variant="outlined"
      data-filter={chip.name}
      title={translate('dashboard.chips.remove', { label })}
      // Focusable; Backspace or Delete removes it, like a click on its cross.
      onDelete={() => navigate({ pathname: location.pathname, search: searchWithout(location.search, chip.name) })}
    />
  );
};

export const MachineFilterChips = ({ declaration, registry }: { declaration: ResourceDeclaration; registry: Registry }) => {
  const translate = useTranslate();
  const location = useLocation();
  const chips = appliedFilterChips(location.search, declaration.list.filters);
  if (chips.length === 0) return null;
  return (
    <Box role="group" aria-label={translate('dashboard.chips.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1.5 }} data-testid="filter-chips">
      {chips.map((chip) => (
        <FilterValueChip key={chip.name} chip={chip} declaration={declaration} registry={registry} />
      ))}
    </Box>
  );
};
