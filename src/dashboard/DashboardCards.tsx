// The home cards (docs/product-rules.md#home-dashboard): one MUI card per figure of the catalogue (resources/dashboard.ts). A machine
// card opens the machine list with the card's filter (its total is the card's number); a card with
// problems to look at (the entry's `attention`) is tinted.
import type { ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { Box, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import type { Locale } from '../../i18n';
import type { AppMessages } from '../../i18n/en';
import { formatCount, formatCurrency, formatPercent } from './format';
import { machineListUrl } from './machineList';
import { cardValueFormat, MACHINE_CARDS, needsAttention, type Card as DashboardCard, type CardKey, type Report } from '../../resources/dashboard';
import { visuallyHidden } from '../layout/visuallyHidden';

// CardBody reads `dashboard.cards.<key>.title|hint` for every card of the catalogue: the English
// catalogue (the Chinese one is typed against it) must label exactly those cards, else this fails to compile.
type CardLabels = AppMessages['dashboard']['cards'];
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const EVERY_CARD_LABELLED: [SameKeys<keyof CardLabels, CardKey>, CardLabels extends Record<CardKey, { title: string; hint: string }> ? true : false] = [true, true];
void EVERY_CARD_LABELLED;

/** Machine cards: in rows of 4 on a desktop (12: 3 rows). */
export const CARD_GRID_SX = {
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
  gap: 1.5,
} as const;
/** Consumer figures: 6 in rows of 3. */
export const USAGE_GRID_SX = { ...CARD_GRID_SX, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' } } as const;

export interface CardFormat {
  locale: Locale;
  currency: string;
}

export const cardValueText = (card: DashboardCard, { locale, currency }: CardFormat): string => {
  const format = cardValueFormat(card.key);
  if (format === 'money') return formatCurrency(card.value, currency, locale);
  if (format === 'ratio') return formatPercent(card.value, locale);
  return formatCount(card.value, locale);
};

const averageText = (card: DashboardCard, { locale, currency }: CardFormat): string =>
  cardValueFormat(card.key) === 'money' ? formatCurrency(card.average, currency, locale) : formatCount(card.average, locale, 1);

const CardBody = ({ card, format, children }: { card: DashboardCard; format: CardFormat; children?: ReactNode }) => {
  const translate = useTranslate();
  const attention = needsAttention(card.key) && (card.value ?? 0) > 0;
  return (
    <CardContent sx={{ height: '100%', display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      <Typography component="h2" variant="subtitle2" color="text.secondary" sx={{ lineHeight: 1.3 }}>
        {translate(`dashboard.cards.${card.key}.title`)}
      </Typography>
      <Typography variant="h4" component="p" sx={{ fontWeight: 600, color: attention ? 'warning.main' : 'text.primary' }} data-testid="card-value">
        {cardValueText(card, format)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {translate(`dashboard.cards.${card.key}.hint`)}
      </Typography>
      {card.average !== undefined && (
        <Typography variant="caption" color="text.secondary" data-testid="card-average">
          {translate('dashboard.average', { value: averageText(card, format) })}
        </Typography>
      )}
      {children}
    </CardContent>
  );
};

export const StatCard = ({ card, format }: { card: DashboardCard; format: CardFormat }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const attention = needsAttention(card.key) && (card.value ?? 0) > 0;
  const sx = { height: '100%', borderLeft: 4, borderLeftColor: attention ? 'warning.main' : 'transparent' } as const;
  if (!card.filter) {
    return (
      <Card variant="outlined" sx={sx} data-testid={`card-${card.key}`}>
        <CardBody card={card} format={format} />
      </Card>
    );
  }
  const filter = card.filter;
  // Named by what it shows, then what it does (WCAG 2.5.3: the accessible name starts with the visible text).
  return (
    <Card variant="outlined" sx={sx} data-testid={`card-${card.key}`}>
      <CardActionArea sx={{ height: '100%', alignItems: 'stretch' }} onClick={() => navigate(machineListUrl(filter))}>
        <CardBody card={card} format={format} />
        <Box component="span" sx={visuallyHidden}>
          {translate('dashboard.opensList')}
        </Box>
      </CardActionArea>
    </Card>
  );
};

const REPORT_ROWS: ReadonlyArray<keyof Report> = ['sessions', 'items', 'accepted', 'rejected', 'rejectRate', 'refund'];

export const ReportCard = ({ card, format }: { card: DashboardCard; format: CardFormat }) => {
  const translate = useTranslate();
  const report = card.report;
  const text = (name: keyof Report) => {
    if (!report) return '–';
    if (name === 'refund') return formatCurrency(report.refund, format.currency, format.locale);
    if (name === 'rejectRate') return formatPercent(report.rejectRate, format.locale);
    return formatCount(report[name], format.locale);
  };
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={`card-${card.key}`}>
      <CardBody card={card} format={format}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 0.25, m: 0, mt: 1 }}>
          {REPORT_ROWS.map((name) => (
            <Box key={name} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {translate(`dashboard.report.${name}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                {text(name)}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardBody>
    </Card>
  );
};

/** Placeholders of the machine grid while the answer loads (one per machine card by default). */
export const CardSkeletons = ({ count = MACHINE_CARDS.length }: { count?: number }) => (
  <Box sx={CARD_GRID_SX} aria-hidden>
    {Array.from({ length: count }, (_, index) => (
      <Card key={index} variant="outlined">
        <CardContent>
          <Skeleton width="70%" />
          <Skeleton variant="text" sx={{ fontSize: '2.2rem' }} width="40%" />
          <Skeleton width="90%" />
        </CardContent>
      </Card>
    ))}
  </Box>
);
