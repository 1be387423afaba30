// The home card catalogue (resources/dashboard.ts) against everything that depends on it: the server's
// machine-fact computations, the machine declaration's flags and filters, the labels in both languages,
// and the generated card table of docs/dashboard.md. A card added to the catalogue alone fails here
// with what is missing, not at run time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogues, translate } from '../../i18n';
import { CARD_FACTS, CARD_KEYS, cardKeysOf, DASHBOARD_CARDS, MACHINE_CARD_DEFINITIONS } from '../../resources/dashboard';
import { machine } from '../../resources/machine';
import { FACTS } from '../../server/dashboard/definitions';
import { withCardsSection } from '../../server/dashboard/reference';

const LANGUAGES = ['en', 'zh'] as const;
const filterNames: ReadonlySet<string> = new Set(machine.list.filters.map((filter) => filter.name));

describe('the dashboard card catalogue', () => {
  it('names each card once, and every card is in one of the console sections', () => {
    expect(new Set(CARD_KEYS).size).toBe(CARD_KEYS.length);
    expect([...cardKeysOf('machines'), ...cardKeysOf('usage'), ...cardKeysOf('reports')].sort()).toEqual([...CARD_KEYS].sort());
  });

  it('has a server computation for exactly the machine facts its cards count (FACTS, server/dashboard/definitions.ts)', () => {
    expect(Object.keys(FACTS).sort()).toEqual([...CARD_FACTS].sort());
  });

  it('filters machines only with filters the machine list has (a fact also as a read-only flag field)', () => {
    for (const card of MACHINE_CARD_DEFINITIONS) {
      for (const name of Object.keys(card.filter)) expect(filterNames.has(name), `${card.key}: filter ${name}`).toBe(true);
    }
    for (const fact of CARD_FACTS) {
      const fields = machine.fields as Record<string, { type: string; readOnly?: boolean } | undefined>;
      expect({ fact, field: fields[fact]?.type, readOnly: fields[fact]?.readOnly }).toEqual({ fact, field: 'boolean', readOnly: true });
    }
  });

  it('labels every card, and every fact as a machine field and filter, in both languages', () => {
    for (const locale of LANGUAGES) {
      const cards = catalogues[locale].dashboard.cards as Record<string, { title?: string; hint?: string } | undefined>;
      for (const key of CARD_KEYS) expect({ locale, key, title: Boolean(cards[key]?.title), hint: Boolean(cards[key]?.hint) }).toEqual({ locale, key, title: true, hint: true });
      for (const fact of CARD_FACTS) {
        for (const part of ['fields', 'filters']) {
          const key = `resources.machine.${part}.${fact}`;
          expect(translate(locale, key), `${locale} ${key}`).not.toBe(key);
        }
      }
    }
  });

  it('is the card table of docs/dashboard.md (npm run docs:dashboard)', () => {
    const document = readFileSync('docs/dashboard.md', 'utf8');
    expect(withCardsSection(document)).toBe(document);
    for (const card of DASHBOARD_CARDS) expect(document).toContain(`| \`${card.key}\` |`);
  });
});
