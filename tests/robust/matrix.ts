// The authorization matrix: every token-protected route of the route table × every way a call must
// be refused. Requests are built from the route's schemas and aimed at real records (see world.ts),
// so a route that skipped its check would act on something; every table's checksum (session tables
// aside) must be the same after each call. tests/server/routeGuard.test.ts already sweeps "no token"
// and "no permission at all"; this adds the token states, the route's own permission and the
// records of another license account.
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { sysToken } from '../../server/db/schema';
import type { TestServer } from '../server/helpers';
import { watchTables } from './checksum';
import { answerProblems, codeOf, kindOfField, requestFor, send, type ApiAnswer, type ApiRequest, type Targets } from './requests';
import { tokenOnly, type RouteInfo } from './routeTable';
import { MARKER, type World } from './world';

export type MatrixCase =
  | 'noToken'
  | 'malformedToken'
  | 'unknownToken'
  | 'bearerToken'
  | 'hugeToken'
  | 'idleToken'
  | 'expiredToken'
  | 'revokedToken'
  | 'supersededToken'
  | 'missingPermission'
  | 'foreignRecord';

/** The fast sweep (npm test): no-token is routeGuard.test.ts's, superseded shares the revoked path. */
export const FAST_CASES: MatrixCase[] = ['malformedToken', 'unknownToken', 'idleToken', 'expiredToken', 'revokedToken', 'missingPermission', 'foreignRecord'];
export const FULL_CASES: MatrixCase[] = ['noToken', ...FAST_CASES, 'bearerToken', 'hugeToken', 'supersededToken'];

const TOKEN_CODES: Partial<Record<MatrixCase, string>> = {
  noToken: '11011',
  malformedToken: '11012',
  unknownToken: '11012',
  bearerToken: '11012',
  hugeToken: '11012',
  idleToken: '11013',
  expiredToken: '11014',
  revokedToken: '11015',
  supersededToken: '11016',
};

/** Codes that say "not yours" or "no such record" (1004: a referenced record that is not allowed). */
const REFUSED_FOREIGN = new Set(['2003', '6001', '4003', '1004']);

/** Routes that list or stream what matches (a foreign id is a filter that matches nothing). */
const LISTING = /\/(page|list|export|tree|search|stream)$|^GET \/test-api\/saved-filter$|^GET \/test-api\/license-account-user-relation$/;
const isListing = (route: RouteInfo) => LISTING.test(route.url) || LISTING.test(route.key);

export interface MatrixOutcome {
  /** Routes × cases actually sent. */
  cells: number;
  /** Observations that are not failures (e.g. what a per-machine refusal stored). */
  notes: string[];
  perCase: Record<string, number>;
  failures: string[];
  /** The foreign-record answers by code (what "refused" looked like). */
  foreignCodes: Record<string, number>;
  /** Listing routes that answered a foreign filter with success (and no foreign data). */
  emptyListings: string[];
  /** Routes the foreign-record case could not aim at any account's record (nothing to address). */
  notAddressing: string[];
}

/** A session in the given state (the admin's: a superAdmin, who would pass every check). */
const tokenIn = async (server: TestServer, world: World, state: MatrixCase): Promise<string | undefined> => {
  switch (state) {
    case 'noToken':
      return undefined;
    case 'malformedToken':
      return 'not a token';
    case 'unknownToken':
      return randomBytes(32).toString('base64url');
    case 'bearerToken':
      return `Bearer ${world.admin}`;
    case 'hugeToken':
      return world.admin.repeat(200);
    default: {
      const { config } = server.app.services;
      const { token, tokenId } = await world.session(world.adminId);
      const past = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      const change =
        state === 'idleToken'
          ? { lastSeenAt: past(config.tokenIdleMinutes + 5) }
          : state === 'expiredToken'
            ? { createdAt: past(config.tokenMaxHours * 60 + 5) }
            : { revokedAt: new Date(), revokeReason: state === 'supersededToken' ? 'superseded' : 'logout' };
      await server.db.update(sysToken).set(change).where(eq(sysToken.id, tokenId));
      return token;
    }
  }
};

/** What a refused batch may leave behind in the caller's own account: an empty batch (its audit says "refused"). */
const ATTEMPT_RECORDS = ['rvm_command_batch'];

/** A batch answer that queued nothing and refused the foreign machine with 6001 (the contract's per-machine refusal). */
const refusedPerMachine = (answer: ApiAnswer, world: World) => {
  const data = answer.json?.resData as { queued?: number; refused?: Array<{ rvmId: number; code: string }> } | undefined;
  return answer.json?.resCode === '00000' && data?.queued === 0 && Boolean(data.refused?.some((item) => item.rvmId === world.foreign.machine && item.code === '6001'));
};

/** The foreign request, when the route addresses records that belong to a license account. */
const foreignRequest = (route: RouteInfo, world: World): ApiRequest | undefined => {
  const fields = [route.params, route.querystring, route.body].flatMap((schema) => Object.keys(schema?.properties ?? {}));
  const scoped = fields.some((name) => {
    const kind = kindOfField(route, name);
    return kind !== undefined && kind !== 'permission';
  });
  if (!scoped) return undefined;
  const targets: Targets = { ...world.foreign, permission: world.home.permission };
  return requestFor(route, targets);
};

export const runMatrix = async (server: TestServer, world: World, routes: RouteInfo[], cases: MatrixCase[]): Promise<MatrixOutcome> => {
  const guarded = routes.filter((route) => !route.public);
  const outcome: MatrixOutcome = { cells: 0, notes: [], perCase: {}, failures: [], foreignCodes: {}, emptyListings: [], notAddressing: [] };
  const tokens = new Map<MatrixCase, string | undefined>();
  for (const state of cases) if (state in TOKEN_CODES) tokens.set(state, await tokenIn(server, world, state));
  const watch = await watchTables(server.db);

  const check = async (route: RouteInfo, state: MatrixCase, request: ApiRequest, token: string | undefined, expect: (answer: ApiAnswer) => string | undefined) => {
    const answer = await send(server.app, request, token, route.streaming);
    outcome.cells++;
    outcome.perCase[state] = (outcome.perCase[state] ?? 0) + 1;
    if (state === 'foreignRecord') outcome.foreignCodes[codeOf(answer)] = (outcome.foreignCodes[codeOf(answer)] ?? 0) + 1;
    let changed = await watch.changed();
    if (state === 'foreignRecord' && refusedPerMachine(answer, world) && changed.every((table) => ATTEMPT_RECORDS.includes(table))) {
      if (changed.length) outcome.notes.push(`${route.key}: every machine refused (6001), yet stored ${changed.join(', ')} (the attempt)`);
      changed = [];
    }
    const problems = [...answerProblems(answer), expect(answer), changed.length ? `changed ${changed.join(', ')}` : undefined].filter(Boolean);
    if (answer.text.includes(MARKER)) problems.push('served a record of another license account');
    if (problems.length)
      outcome.failures.push(
        `${state} ${route.key} (${request.method} ${request.url} ${JSON.stringify(request.body ?? '')}) -> ${answer.status} ${codeOf(answer)}: ${problems.join('; ')}`,
      );
  };

  for (const route of guarded) {
    for (const state of cases) {
      const code = TOKEN_CODES[state];
      if (code) {
        await check(route, state, requestFor(route, world.home), tokens.get(state), (answer) =>
          answer.status === 401 && codeOf(answer) === code ? undefined : `expected 401 ${code}`,
        );
      } else if (state === 'missingPermission') {
        const token = world.lacking(route);
        if (tokenOnly(route) || !token) continue;
        await check(route, state, requestFor(route, world.home), token, (answer) => (answer.status === 403 && codeOf(answer) === '4003' ? undefined : 'expected 403 4003'));
      } else if (state === 'foreignRecord') {
        const request = foreignRequest(route, world);
        if (!request) {
          outcome.notAddressing.push(route.key);
          continue;
        }
        await check(route, state, request, world.full, (answer) => {
          const code = codeOf(answer);
          if (REFUSED_FOREIGN.has(code) || refusedPerMachine(answer, world)) return undefined;
          if (code === '00000' || answer.streamed || (answer.status === 200 && !answer.json)) {
            if (!isListing(route)) return 'served (expected a refusal: 2003, 6001, 4003 or 1004)';
            outcome.emptyListings.push(route.key);
            return undefined;
          }
          return `expected a refusal (2003, 6001, 4003 or 1004), not ${code}`;
        });
      }
    }
  }
  return outcome;
};
