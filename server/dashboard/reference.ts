// The card table of docs/dashboard.md ("Card definitions"), written from the card catalogue
// (resources/dashboard.ts) and the English titles, so the document lists exactly the cards the server
// answers. `npm run docs:dashboard` writes it; tests/unit/dashboardCatalogue.test.ts fails
// when the document differs.
import { translate } from '../../i18n';
import { DASHBOARD_CARDS, type MachineFilter } from '../../resources/dashboard';

export const CARDS_START = '<!-- dashboard-cards:start (npm run docs:dashboard writes this part) -->';
export const CARDS_END = '<!-- dashboard-cards:end -->';

const RELATIVE = /^now-(\d+)([hd])$/;

/** `{ downSince: 'now-1h' }` as the document says it: `downSince: now − 1 h`. */
const filterText = (filter: MachineFilter): string => {
  const entries = Object.entries(filter);
  if (entries.length === 0) return "the saved filter's body";
  return entries
    .map(([name, value]) => {
      const relative = typeof value === 'string' ? RELATIVE.exec(value) : null;
      if (relative) return `\`${name}: now − ${relative[1]} ${relative[2]}\``;
      return `\`${name}: ${typeof value === 'string' ? `'${value}'` : JSON.stringify(value)}\``;
    })
    .join(', ');
};

/** The generated table, between its markers. */
export const cardsSection = (): string =>
  [
    CARDS_START,
    '| key | title | value | machine-list filter |',
    '|---|---|---|---|',
    ...DASHBOARD_CARDS.map((card) => {
      const filter = card.section === 'machines' ? filterText(card.filter) : '–';
      return `| \`${card.key}\` | ${translate('en', `dashboard.cards.${card.key}.title`)} | ${card.definition} | ${filter} |`;
    }),
    CARDS_END,
  ].join('\n');

/** The document with its generated table replaced; unchanged without the markers. */
export const withCardsSection = (document: string): string => {
  const start = document.indexOf(CARDS_START);
  const end = document.indexOf(CARDS_END);
  if (start < 0 || end < 0) return document;
  return document.slice(0, start) + cardsSection() + document.slice(end + CARDS_END.length);
};
