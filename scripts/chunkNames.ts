// Readable names for the console's lazy chunks (screens load by chunk name: docs/ARCHITECTURE.md#console-http-client): a chunk whose
// entry module lives in an area's folder is named after the menu area (`area-search-<hash>.js`),
// the console shell `console`, the signed-out pages `public-pages`; shared chunks `shared-<module>`.
import type { PreRenderedChunk } from 'rolldown';

const MENU_AREAS = ['search', 'installation', 'reports', 'service', 'promotion', 'apis', 'systemSettings', 'quarantine'];

const NAMED: Array<[RegExp, string]> = [
  [/\/src\/App\.tsx$/, 'console'],
  [/\/src\/auth\/PublicPages\.tsx$/, 'public-pages'],
  [/\/src\/providers\/messagesEn\.ts$/, 'messages-en'],
  [/\/src\/providers\/messagesZh\.ts$/, 'messages-zh'],
  [/\/i18n\/en\/index\.ts$/, 'messages-en-screens'],
  [/\/i18n\/zh\/index\.ts$/, 'messages-zh-screens'],
  [/\/src\/auth\/publicTextsEn\.ts$/, 'public-texts-en'],
  [/\/src\/auth\/publicTextsZh\.ts$/, 'public-texts-zh'],
  [/\/src\/dashboard\/DashboardCharts\.tsx$/, 'home-charts'],
  [/\/src\/dashboard\//, 'home'],
  [/\/src\/generic\//, 'generic-views'],
  [/\/src\/resources\//, 'area-systemSettings'],
  [/\/src\/performance\/PerformanceCharts\.tsx$/, 'area-service-charts'],
  [/\/src\/performance\//, 'area-service'],
];

export const chunkName = (chunk: Pick<PreRenderedChunk, 'facadeModuleId' | 'name'>): string => {
  const id = chunk.facadeModuleId?.replace(/\\/g, '/');
  if (!id || id.includes('/node_modules/')) return `shared-${chunk.name}`;
  const named = NAMED.find(([pattern]) => pattern.test(id));
  if (named) return named[1];
  const area = MENU_AREAS.find((key) => id.includes(`/src/${key}/`) || id.includes(`/src/screens/${key}/`));
  return area ? `area-${area}` : chunk.name;
};

export const chunkFileNames = (chunk: PreRenderedChunk) => `assets/${chunkName(chunk)}-[hash].js`;
