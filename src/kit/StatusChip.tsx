// A machine status (Up / Offline / Down / Sleep) or any fleet value as a coloured chip, with the
// same colours as the generic list (src/generic/statusColors.ts).
import { useTranslate } from 'ra-core';
import { Chip } from '@mui/material';
import { statusColor } from '../generic/statusColors';

export interface StatusChipProps {
  value: string | boolean | null | undefined;
  /** Catalogue prefix of the value's label, e.g. 'fleet.statuses'. */
  labels?: string;
  /** The colour word when it differs from the value (e.g. 'online' for `true`). */
  tone?: string;
}

export const StatusChip = ({ value, labels = 'fleet.statuses', tone }: StatusChipProps) => {
  const translate = useTranslate();
  if (value === null || value === undefined) return null;
  return <Chip size="small" label={translate(`${labels}.${String(value)}`, { _: String(value) })} color={statusColor(tone ?? value)} data-status={String(value)} />;
};
