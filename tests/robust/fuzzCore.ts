// Property-based fuzzing of every route from its own schemas (fast-check): a valid request is drawn
// from the body, querystring and params schemas, then (most of the time) spoiled: a field of the
// wrong type, missing or extra; a huge, deeply nested, NUL-bearing, odd-unicode or injection value;
// a body that is not JSON, empty, or of another content type. Properties of every answer: never a
// 5xx, never a stack trace or internal message, always the envelope with a catalogue code; and a
// refused call stores nothing (every table's checksum, session tables aside, is unchanged).
// Shared by tests/server/fuzz.test.ts (few runs) and tests/robust/fuzz.full.test.ts (many).
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { authenticate, issueToken } from '../../server/auth/tokens';
import { sysUser } from '../../server/db/schema';
import type { TestServer } from '../server/helpers';
import { watchTables } from './checksum';
import { answerProblems, codeOf, kindOfField, sampleParts, send, typesOf, VALID_PASSWORD, type ApiAnswer, type ApiRequest, type Targets } from './requests';
import type { JsonSchema, RouteInfo } from './routeTable';

/** A value sent as literal JSON text (deep nesting would overflow JSON.stringify on this side). */
class RawJson {
  constructor(readonly text: string) {}
}

const INJECTIONS = [
  "'; drop table sys_user; --",
  "' or '1'='1",
  '1; select pg_sleep(5)',
  "admin'--",
  '" union select null, null --',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '..\\..\\..\\boot.ini',
  '%2e%2e%2f%2e%2e%2f',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '#{7*7}',
  '%00',
  '%',
  '\\',
  '$where',
  '*',
  '%_%',
  'null',
  'NaN',
  '-0',
  '1e999',
  '0x10',
  ' 1',
  '\r\nX-Injected: yes',
];
const ODD_UNICODE = ['\u0000', 'a\u0000b', '😀👍🏽', '\u202Eevil', '\uFEFF', 'Z\u0351\u0360\u0361', '中文名字', '\ud800', 'x\udfffy', 'e\u0301', '\u2028\u2029', '\u{10FFFF}'];
/** Extra field names (fixed: an unknown field's name is echoed in the answer). */
const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'prototype', 'toString', '$gt', 'a.b', 'id ', '', 'resCode', 'superAdmin', 'licenseAccountId'];

const deepArray = (depth: number) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
const deepObject = (depth: number) => new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS),
  fc.constantFrom(...ODD_UNICODE),
  fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 65, max: 300_000 }).map((length) => 'x'.repeat(length)),
);

/** Anything but a value of the schema: other types, huge numbers, big arrays, deep nesting. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom<unknown>(null, true, false, 0, -1, -0, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, 1e308, -1e308, [], {}, [null], { '': '' }),
  fc.constantFrom<unknown>(deepArray(5_000), deepObject(5_000), deepArray(100_000)),
  fc.integer({ min: 1_000, max: 20_000 }).map((length) => Array.from({ length }, (_, i) => i)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom(...EXTRA_KEYS), hostileString, { maxKeys: 3 }),
);

/** One valid value of `schema`; reference fields take ids of real records (`ids`) most of the time. */
export const validValue = (schema: JsonSchema, route: RouteInfo, name: string, ids: Targets): fc.Arbitrary<unknown> => {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const kind = kindOfField(route, name);
  const variants = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const range = fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 2 ** 31 - 1 });
        return kind ? fc.oneof({ weight: 3, arbitrary: fc.constant(ids[kind]) }, range) : range;
      }
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case 'array': {
        const items = kind ? fc.constant(ids[kind]) : validValue(schema.items ?? {}, route, '', ids);
        return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
      }
      case 'object':
        return schema.properties ? validObject(schema, route, ids) : fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      default:
        if (/password/i.test(name)) return fc.constantFrom(VALID_PASSWORD, 'Other#2024');
        if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? 2000));
        if (['from', 'to', 'dayStart'].includes(name))
          return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
        return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) });
    }
  });
  return variants.length === 1 ? variants[0] : fc.oneof(...variants);
};

/** A valid object: the required properties and any of the optional ones. */
const validObject = (schema: JsonSchema, route: RouteInfo, ids: Targets) => {
  const properties = Object.entries<JsonSchema>(schema.properties ?? {});
  return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, validValue(property, route, name, ids)])), {
    requiredKeys: (schema.required ?? []).filter((name: string) => properties.some(([key]) => key === name)),
  }) as fc.Arbitrary<Record<string, unknown>>;
};

type Part = 'body' | 'querystring' | 'params';
type Mutation =
  | { kind: 'valid' }
  | { kind: 'replace' | 'extra'; part: Part; pick: number; value: unknown }
  | { kind: 'drop'; part: Part; pick: number }
  | { kind: 'wholeBody'; value: unknown }
  | { kind: 'rawBody'; payload: string; contentType: string };

const RAW_BODIES: Array<[string, string]> = [
  ['', 'application/json'],
  ['{', 'application/json'],
  ['{"a":}', 'application/json'],
  ['nul\u0000', 'application/json'],
  ['[1,2', 'application/json'],
  ['{"id":1}', 'text/plain'],
  ['id=1&name=x', 'application/x-www-form-urlencoded'],
  ['<a>1</a>', 'application/xml'],
  ['{"id":1}', 'application/json; charset=latin1'],
  ['{"__proto__":{"superAdmin":true}}', 'application/json'],
  ['{"constructor":{"prototype":{"x":1}}}', 'application/json'],
];

const partsOf = (route: RouteInfo) => (['body', 'querystring', 'params'] as Part[]).filter((part) => route[part]);

const mutationOf = (route: RouteInfo): fc.Arbitrary<Mutation> => {
  const parts = partsOf(route);
  const options: Array<fc.Arbitrary<Mutation>> = [
    fc.constant<Mutation>({ kind: 'valid' }),
    fc.constantFrom(...RAW_BODIES).map(([payload, contentType]): Mutation => ({ kind: 'rawBody', payload, contentType })),
  ];
  if (parts.length) {
    const part = fc.constantFrom(...parts);
    const pick = fc.nat(50);
    options.push(
      fc.record({ kind: fc.constantFrom('replace' as const, 'extra' as const), part, pick, value: hostileValue }),
      fc.record({ kind: fc.constant('drop' as const), part, pick }),
    );
  }
  if (route.body) options.push(fc.record({ kind: fc.constant('wholeBody' as const), value: hostileValue }));
  return fc.oneof(...options);
};

export interface Drawn {
  values: Partial<Record<Part, Record<string, unknown>>>;
  mutation: Mutation;
}

export const drawArbitrary = (route: RouteInfo, ids: Targets): fc.Arbitrary<Drawn> =>
  fc.record({
    values: fc.record(Object.fromEntries(partsOf(route).map((part) => [part, validObject(route[part]!, route, ids)])) as Record<Part, fc.Arbitrary<Record<string, unknown>>>),
    mutation: mutationOf(route),
  });

/** JSON text where RawJson values are spliced in as they are. */
const toJson = (value: unknown) => {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_, item) => (item instanceof RawJson ? `\u0001RAW${raws.push(item.text) - 1}\u0001` : item));
  return text === undefined ? '' : text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_, index: string) => raws[Number(index)]);
};

const asText = (value: unknown): string[] =>
  value instanceof RawJson ? [value.text] : Array.isArray(value) ? value.flatMap(asText) : value && typeof value === 'object' ? [toJson(value)] : [String(value)];

/** Fastify's maxParamLength (100): longer path values are one edge case (OVER_LONG), not every draw's. */
const MAX_PATH_VALUE = 100;
const OVER_LONG = '1'.repeat(300);
const wellFormed = (text: string) => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const pathSegment = (text: string, overLong: boolean) => {
  let raw = wellFormed(text);
  if (!overLong) while (encodeURIComponent(raw).length > MAX_PATH_VALUE) raw = wellFormed(raw.slice(0, Math.max(0, Math.floor(raw.length * 0.8)))); // a cut may split a surrogate pair
  return encodeURIComponent(raw);
};

/**
 * The drawn request as a client would send it. Random draws keep path values within Fastify's
 * parameter length and (streams, sent over HTTP) query strings within Node's header size: those
 * limits have edge cases of their own, and would otherwise hide everything behind them.
 */
export const toRequest = (route: RouteInfo, { values, mutation }: Drawn): ApiRequest => {
  const copy = { body: { ...values.body }, querystring: { ...values.querystring }, params: { ...values.params } } as Record<Part, Record<string, unknown>>;
  if (mutation.kind === 'replace' || mutation.kind === 'drop') {
    const names = Object.keys(route[mutation.part]?.properties ?? {});
    const name = names[mutation.pick % Math.max(names.length, 1)];
    if (name !== undefined) {
      if (mutation.kind === 'drop') delete copy[mutation.part][name];
      else copy[mutation.part][name] = mutation.value;
    }
  } else if (mutation.kind === 'extra') {
    copy[mutation.part][EXTRA_KEYS[mutation.pick % EXTRA_KEYS.length]] = mutation.value;
  }
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    pathSegment(asText(copy.params[name] ?? '').join(','), mutation.kind === 'replace' && mutation.value === OVER_LONG),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(copy.querystring)) for (const text of asText(value)) search.append(name, route.streaming ? text.slice(0, 1000) : text);
  let query = search.toString();
  if (route.streaming && query.length > 8_000) query = query.slice(0, query.lastIndexOf('&', 8_000));
  const url = `${path}${query ? `?${query}` : ''}`;
  if (mutation.kind === 'rawBody') return { method: route.method, url, raw: { payload: mutation.payload, contentType: mutation.contentType } };
  const body = mutation.kind === 'wholeBody' ? mutation.value : route.body ? copy.body : undefined;
  return body === undefined ? { method: route.method, url } : { method: route.method, url, raw: { payload: toJson(body), contentType: 'application/json' } };
};

/**
 * Requests every run sends, whatever the draw: the minimal valid request (required fields only),
 * NUL in each text field, null in each field the schema lets be null, deep nesting in the body and
 * in each object field, an over-long path parameter, and (routes without a body) an empty JSON body
 * as the console sends it.
 */
export const edgeCases = (route: RouteInfo, ids: Targets): Array<{ label: string; request: ApiRequest; emptyBody?: boolean }> => {
  // On the minimal request, so nothing else in it is refused before the value under test is looked at.
  const minimal = sampleParts(route, ids, true);
  const values = { body: minimal.body, querystring: minimal.querystring, params: minimal.params } as Drawn['values'];
  const cases: Array<{ label: string; request: ApiRequest; emptyBody?: boolean }> = [
    { label: 'required fields only', request: toRequest(route, { values, mutation: { kind: 'valid' } }) },
  ];
  for (const part of partsOf(route)) {
    Object.entries<JsonSchema>(route[part]!.properties ?? {}).forEach(([name, property], pick) => {
      const types = typesOf(property);
      const replace = (label: string, value: unknown) =>
        cases.push({ label: `${label} in ${part}.${name}`, request: toRequest(route, { values, mutation: { kind: 'replace', part, pick, value } }) });
      if (types.includes('string') && !property.enum) replace('NUL', 'Matrix\u0000x');
      if (part === 'body' && (types.includes('null') || property.nullable)) replace('null', null);
      if (types.includes('object') || types.includes('array')) replace('deep nesting', deepObject(20_000));
      if (part === 'params') replace('over-long value', OVER_LONG);
    });
  }
  if (route.body) cases.push({ label: 'deeply nested body', request: toRequest(route, { values, mutation: { kind: 'wholeBody', value: deepArray(100_000) } }) });
  if (!route.body && route.method !== 'GET') {
    const request = toRequest(route, { values, mutation: { kind: 'rawBody', payload: '', contentType: 'application/json' } });
    cases.push({ label: 'empty JSON body', request, emptyBody: true });
  }
  return cases;
};

const TRANSPORT_CASES: Array<[string, ApiRequest]> = [
  ["URL over Node's 16 KB header limit", { method: 'GET', url: `/test-api/login/current?pad=${'x'.repeat(20_000)}` }],
  ['malformed percent-encoding in the path', { method: 'GET', url: '/test-api/user/%E0%A4%A' }],
  ['malformed percent-encoding in the query', { method: 'GET', url: '/test-api/user/list?nameLike=%E0%A4%A' }],
  [
    'body over the 1 MB limit',
    { method: 'POST', url: '/test-api/role/page', raw: { payload: JSON.stringify({ nameLike: 'x'.repeat(1_100_000) }), contentType: 'application/json' } },
  ],
  ['unknown address', { method: 'GET', url: '/test-api/no/such/route' }],
];

export interface FuzzFailure {
  route: string;
  problems: string[];
  request: string;
  answer: string;
}

export interface FuzzOutcome {
  requests: number;
  failures: FuzzFailure[];
  /** Seconds spent per route, slowest first (where the time goes). */
  slowest: Array<[string, number]>;
}

const describeRequest = (request: ApiRequest) =>
  `${request.method} ${request.url.length > 300 ? `${request.url.slice(0, 300)}…(${request.url.length})` : request.url}` +
  (request.raw
    ? ` [${request.raw.contentType}] ${String(request.raw.payload).slice(0, 300)}${String(request.raw.payload).length > 300 ? `…(${String(request.raw.payload).length} chars)` : ''}`
    : '');

/**
 * Fuzzes every route with `runs` drawn requests (fast-check shrinks each failure to a small one),
 * as the superAdmin (who reaches every handler). A call that ended the session or forced a password
 * change is followed by a fresh session, so the run keeps reaching the handlers.
 */
export const fuzzRoutes = async (
  server: TestServer,
  routes: RouteInfo[],
  ids: Targets,
  adminId: number,
  { runs, seed, shrinkSeconds = 10 }: { runs: number; seed?: number; shrinkSeconds?: number },
): Promise<FuzzOutcome> => {
  const { db } = server;
  const { config } = server.app.services;
  let token = await issueToken(db, config, adminId);
  const watch = await watchTables(db);
  const outcome: FuzzOutcome = { requests: 0, failures: [], slowest: [] };
  const keepSession = async () => {
    const alive = await authenticate(db, config, token).then(
      () => true,
      () => false,
    );
    const [admin] = await db.select({ mustChange: sysUser.mustChangePassword, enabled: sysUser.enabled }).from(sysUser).where(eq(sysUser.id, adminId));
    if (admin.mustChange || !admin.enabled)
      await db.update(sysUser).set({ mustChangePassword: false, enabled: true, passwordChangedAt: new Date() }).where(eq(sysUser.id, adminId));
    if (!alive || admin.mustChange || !admin.enabled) token = await issueToken(db, config, adminId);
  };
  const probe = async (route: RouteInfo, request: ApiRequest): Promise<{ problems: string[]; answer: ApiAnswer }> => {
    const answer: ApiAnswer = await send(server.app, request, route.public ? undefined : token, route.streaming);
    outcome.requests++;
    const problems = answerProblems(answer);
    const refused = answer.status >= 400 || (answer.json?.resCode !== undefined && answer.json.resCode !== '00000');
    if (refused) {
      const changed = await watch.changed();
      if (changed.length) problems.push(`refused (${codeOf(answer)}) but changed ${changed.join(', ')}`);
    } else {
      await keepSession();
      await watch.rebase(); // a success may change anything: the next refusal compares with the state after it
    }
    if (problems.length) problems.push(`answer: ${answer.status} ${answer.text.slice(0, 240)}`);
    return { problems, answer };
  };

  // Deleting routes last: they take away the records the other routes' requests name.
  const destructive = (route: RouteInfo) => route.method === 'DELETE' || route.url.endsWith('/batchDelete');
  for (const route of [...routes.filter((route) => !destructive(route)), ...routes.filter(destructive)]) {
    const started = performance.now();
    for (const edge of edgeCases(route, ids)) {
      const { problems, answer } = await probe(route, edge.request);
      // The console sends `content-type: application/json` even without a body: routes without one take it.
      const issues = (answer.json?.resData as { issues?: Array<{ field: string }> } | null)?.issues ?? [];
      if (edge.emptyBody && issues.some((issue) => issue.field === '(body)')) problems.push(`an empty JSON body is refused (${codeOf(answer)})`);
      if (problems.length) outcome.failures.push({ route: route.key, problems, request: `${edge.label}: ${describeRequest(edge.request)}`, answer: '' });
    }
    const property = fc.asyncProperty(drawArbitrary(route, ids), async (drawn) => {
      const { problems } = await probe(route, toRequest(route, drawn));
      if (problems.length) throw new Error(problems.join('\n'));
    });
    // Find a failure without shrinking, then shrink it from where it was found, for a bounded time.
    let result: fc.RunDetails<[Drawn]> = await fc.check(property, { numRuns: runs, seed, endOnFailure: true });
    if (result.failed && result.counterexamplePath) {
      const shrunk = await fc.check(property, { seed: result.seed, path: result.counterexamplePath, plugins: [fc.interruptAfterTimeLimit(shrinkSeconds * 1000)] });
      if (shrunk.failed && shrunk.counterexample) result = shrunk as fc.RunDetails<[Drawn]>;
    }
    if (result.failed && result.counterexample) {
      const request = toRequest(route, result.counterexample[0]);
      outcome.failures.push({
        route: route.key,
        problems: String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance).split('\n'),
        request: describeRequest(request),
        answer: `fast-check seed ${result.seed}, path ${result.counterexamplePath}`,
      });
    }
    outcome.slowest.push([route.key, (performance.now() - started) / 1000]);
  }
  // Over HTTP, what Node and Fastify refuse before any route: the answer is still the envelope.
  for (const [label, request] of TRANSPORT_CASES) {
    const answer = await send(server.app, request, token, true);
    outcome.requests++;
    const problems = answerProblems(answer);
    if (problems.length)
      outcome.failures.push({
        route: '(HTTP)',
        problems: [...problems, `answer: ${answer.status} ${answer.text.slice(0, 200)}`],
        request: `${label}: ${describeRequest(request)}`,
        answer: '',
      });
  }
  outcome.slowest.sort((a, b) => b[1] - a[1]);
  return outcome;
};

/** A readable report of the failures, one block per route. */
export const reportFailures = (failures: FuzzFailure[]) =>
  failures.map((failure) => `${failure.route}\n  request: ${failure.request}\n  ${failure.problems.join('\n  ')}\n  ${failure.answer}`).join('\n\n');
