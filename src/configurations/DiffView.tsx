// Two versions of a configuration compared (docs/machine-configuration.md "Versions"): items added, removed
// and changed, each change as field: before → after, with the declaration's labels and enum labels.
import { useTranslate } from 'ra-core';
import { Box, Chip, Typography } from '@mui/material';
import type { ResourceDeclaration } from '../../resources/types';
import { contentFields, keyFields } from '../../resources/machineConfiguration';
import { enumLabel, fieldLabel } from '../providers/registry';
import type { Item, VersionDiff } from './types';

const useValueText = (declaration: ResourceDeclaration) => {
  const translate = useTranslate();
  return (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) return translate('machineConfiguration.diff.empty');
    if (typeof value === 'boolean') return translate(value ? 'generic.boolean.true' : 'generic.boolean.false');
    // a multiReference's ids (a group's fleets)
    if (Array.isArray(value)) return value.join(', ');
    return declaration.fields[field]?.type === 'enum' ? translate(enumLabel(declaration, field, value as string)) : String(value);
  };
};

const ItemLine = ({ declaration, item }: { declaration: ResourceDeclaration; item: Item }) => {
  const translate = useTranslate();
  const text = useValueText(declaration);
  return (
    <Typography variant="body2" component="span">
      {contentFields(declaration)
        .filter((field) => item[field] !== null && item[field] !== undefined)
        .map((field) => `${translate(fieldLabel(declaration, field))}: ${text(field, item[field])}`)
        .join(' · ')}
    </Typography>
  );
};

const Section = ({ label, color, children }: { label: string; color: 'success' | 'error' | 'warning'; children: React.ReactNode }) => (
  <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
    <Chip size="small" color={color} label={label} sx={{ minWidth: 72 }} />
    <Box sx={{ minWidth: 0 }}>{children}</Box>
  </Box>
);

export const DiffView = ({ declaration, diff }: { declaration: ResourceDeclaration; diff: VersionDiff }) => {
  const translate = useTranslate();
  const text = useValueText(declaration);
  const nothing = !diff.added.length && !diff.removed.length && !diff.changed.length;
  return (
    <Box data-testid="configuration-diff" aria-live="polite">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {translate('machineConfiguration.diff.title', { from: diff.from, to: diff.to })}
      </Typography>
      {nothing ? <Typography color="text.secondary">{translate('machineConfiguration.diff.same')}</Typography> : null}
      {diff.added.map(({ key, item }) => (
        <Section key={`a${key}`} label={translate('machineConfiguration.diff.added')} color="success">
          <ItemLine declaration={declaration} item={item} />
        </Section>
      ))}
      {diff.removed.map(({ key, item }) => (
        <Section key={`r${key}`} label={translate('machineConfiguration.diff.removed')} color="error">
          <ItemLine declaration={declaration} item={item} />
        </Section>
      ))}
      {diff.changed.map(({ key, item, changes }) => (
        <Section key={`c${key}`} label={translate('machineConfiguration.diff.changed')} color="warning">
          <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
            {keyFields(declaration)
              .filter((field) => item[field] !== null && item[field] !== undefined && item[field] !== '')
              .map((field) => text(field, item[field]))
              .join(' / ')}
            :{' '}
          </Typography>
          <Typography variant="body2" component="span">
            {changes.map((change) => `${translate(fieldLabel(declaration, change.field))} ${text(change.field, change.from)} → ${text(change.field, change.to)}`).join(' · ')}
          </Typography>
        </Section>
      ))}
      {diff.unchanged ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('machineConfiguration.diff.unchanged', { smart_count: diff.unchanged })}
        </Typography>
      ) : null}
    </Box>
  );
};
