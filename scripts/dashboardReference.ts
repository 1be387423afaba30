// `npm run docs:dashboard`: writes the card table of docs/dashboard.md from the card
// catalogue (server/dashboard/reference.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { withCardsSection } from '../server/dashboard/reference';

const DOCUMENT = 'docs/dashboard.md';
writeFileSync(DOCUMENT, withCardsSection(readFileSync(DOCUMENT, 'utf8')));
console.log(`${DOCUMENT} written`);
