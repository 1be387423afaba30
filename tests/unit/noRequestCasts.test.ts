// Route handlers read request.body, query, params and headers typed by their TypeBox route schemas
// (server/lib/typedApp.ts). A cast such as `request.body as X` would claim a type no schema checks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = 'server';

// The generic engine's routes (server/crud/routes.ts, server/configuredTypes/recordRoutes.ts) derive their
// schemas at start: they type bodies with route generics, which a cast would bypass just the same.
const CAST = /\brequest\.(body|query|params|headers)\s+as\b/g;

/** `file:line  text` of every cast in `source`. */
const castsIn = (file: string, source: string) => source.split('\n').flatMap((line, index) => (line.match(CAST) ? [`${file}:${index + 1}  ${line.trim()}`] : []));

const serverFiles = () =>
  readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
    .map((path) => join(SERVER, path).split('\\').join('/'))
    .filter((path) => path.endsWith('.ts'));

describe('request casts', () => {
  it('are recognised, however written', () => {
    const source = [
      'const a = request.body as A;',
      'f((request.params as { id: number }).id);',
      'const b = request.query  as B;',
      'const c = request.headers as C;',
      'const d = request.body;',
    ].join('\n');
    expect(castsIn('x.ts', source)).toHaveLength(4);
  });

  it('appear nowhere under server/ (handlers take the types of their route schemas)', () => {
    const files = serverFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((path) => castsIn(path, readFileSync(path, 'utf8')))).toEqual([]);
  });
});
