// Concrete requests built from a route's own JSON schemas: every required field gets a valid value,
// every field that names a record (id, ids, rvmId, fleetId, roles, ...) gets the id of a chosen
// record, so a call that passed the guard would really act on that record. Also: sending a request
// to an in-process app and reading the answer, and the envelope checks the suites share.
import type { FastifyInstance } from 'fastify';
import { errors } from '../../i18n/en/errors';
import type { JsonSchema, RouteInfo } from './routeTable';

/** Records a route can address, by kind. */
export type TargetKind =
  | 'user'
  | 'role'
  | 'permission'
  | 'fleet'
  | 'machine'
  | 'event'
  | 'eventNotification'
  | 'command'
  | 'pendingCommand'
  | 'batch'
  | 'file'
  | 'consumerSession'
  | 'savedFilter'
  | 'licenseAccount';

export type Targets = Record<TargetKind, number>;

/** The kind of record `id` means on a route, from its URL. */
export const kindOfRoute = (url: string): TargetKind | undefined => {
  const path = url.replace('/test-api', '');
  const rules: Array<[RegExp, TargetKind]> = [
    [/^\/user\b/, 'user'],
    [/^\/role\b/, 'role'],
    [/^\/permission\b/, 'permission'],
    [/^\/fleet\b/, 'fleet'],
    [/^\/rvm\/command\/batch\b/, 'batch'],
    [/^\/rvm\/command\/[^/]+\/cancel$/, 'pendingCommand'],
    [/^\/rvm\/command\b/, 'command'],
    [/^\/rvm\/file\b/, 'file'],
    [/^\/rvmpage\/consumerSessionDetails\b/, 'consumerSession'],
    [/^\/(rvm|rvmpage)\b/, 'machine'],
    [/^\/eventNotification\b/, 'eventNotification'],
    [/^\/event\b/, 'event'],
    [/^\/license-account/, 'licenseAccount'],
    [/^\/saved-filter\b/, 'savedFilter'],
  ];
  return rules.find(([pattern]) => pattern.test(path))?.[1];
};

/** The kind of record a field names (undefined: not a reference). */
export const kindOfField = (route: RouteInfo, name: string): TargetKind | undefined => {
  switch (name) {
    case 'ids':
      // a batch command names machines; a batch delete the route's records
      return route.url.endsWith('/rvm/command/batch') ? 'machine' : kindOfRoute(route.url);
    case 'id':
    case 'parentId':
      return kindOfRoute(route.url);
    case 'rvmId':
      return 'machine';
    case 'batchId':
      return 'batch';
    case 'fleetId':
    case 'fleets':
      return 'fleet';
    case 'roles':
      return 'role';
    case 'licenseAccounts':
      return 'licenseAccount';
    case 'permissions':
      return 'permission';
    default:
      return undefined;
  }
};

export const typesOf = (schema: JsonSchema): string[] => {
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((value: unknown) => (value === null ? 'null' : typeof value)))] as string[];
  return [schema.type ?? 'string'].flat();
};

const PASSWORD_FIELDS = new Set(['password', 'confirmPassword', 'oldPassword']);
export const VALID_PASSWORD = 'Matrix@123';

/** One valid value for `schema` (field `name`), record references resolved by `resolve`. */
export const sampleValue = (schema: JsonSchema, name: string, resolve: (name: string) => number | undefined): unknown => {
  const reference = resolve(name);
  if (Array.isArray(schema.enum)) return schema.enum.find((value: unknown) => value !== null) ?? null;
  const type = typesOf(schema).find((candidate) => candidate !== 'null') ?? 'null';
  switch (type) {
    case 'integer':
    case 'number':
      return reference ?? (typeof schema.default === 'number' ? schema.default : Math.max(schema.minimum ?? 1, 1));
    case 'boolean':
      return true;
    case 'array':
      if (reference !== undefined) return [reference];
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleValue(schema.items ?? {}, '', () => undefined));
    case 'object':
      return sampleObject(schema, resolve, false);
    case 'null':
      return null;
    default: {
      if (PASSWORD_FIELDS.has(name)) return VALID_PASSWORD;
      if (schema.pattern === '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$') return String(reference ?? 1);
      if (schema.format === 'date-time' || name === 'from' || name === 'to' || name === 'dayStart') return new Date().toISOString();
      // a declared `date` field's request schema is plain text (its own check answers in the caller's language)
      if (name.endsWith('Date')) return new Date().toISOString().slice(0, 10);
      const text = `Matrix ${name}`.slice(0, schema.maxLength ?? 64);
      return text.padEnd(schema.minLength ?? 0, 'x');
    }
  }
};

/** Required properties, plus (`references`) every optional one that names a record, plus (`withChange`) one field to change. */
export const sampleObject = (schema: JsonSchema, resolve: (name: string) => number | undefined, withChange: boolean, references = true) => {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || (references && resolve(name) !== undefined)) out[name] = sampleValue(property, name, resolve);
  }
  if (withChange) {
    const change = Object.entries(properties).find(([name, property]) => !(name in out) && typesOf(property).includes('string') && !property.enum && !property.pattern);
    if (change) out[change[0]] = sampleValue(change[1], change[0], resolve);
  }
  return out;
};

export interface ApiRequest {
  method: string;
  /** Path and query string, with the /test-api prefix. */
  url: string;
  body?: unknown;
  /** A raw payload instead of JSON (with its content type). */
  raw?: { payload: string | Buffer; contentType?: string };
}

/**
 * Valid params, querystring and body of `route`, their reference fields naming the records `targets`
 * names; `minimal`: the required fields only (no optional reference, no field to change).
 */
export const sampleParts = (route: RouteInfo, targets: Partial<Targets>, minimal = false) => {
  const resolve = (name: string) => {
    const kind = kindOfField(route, name);
    return kind ? targets[kind] : undefined;
  };
  return {
    params: route.params ? sampleObject(route.params, resolve, false) : undefined,
    querystring: route.querystring ? sampleObject(route.querystring, resolve, false, !minimal) : undefined,
    body: route.body ? sampleObject(route.body, resolve, !minimal && route.method === 'PUT', !minimal) : undefined,
  };
};

/** The request a client would send to `route`, addressing the records `targets` names. */
export const requestFor = (route: RouteInfo, targets: Partial<Targets>): ApiRequest => {
  const { params = {}, querystring = {}, body } = sampleParts(route, targets);
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? 1)));
  const search = new URLSearchParams(Object.entries(querystring).map(([name, value]) => [name, String(value)])).toString();
  return { method: route.method, url: `${path}${search ? `?${search}` : ''}`, body };
};

export interface ApiAnswer {
  status: number;
  contentType: string;
  text: string;
  json?: { resCode?: unknown; resMsg?: unknown; resData?: unknown };
  /** The answer was a stream (cut after its headers). */
  streamed?: boolean;
}

const addresses = new WeakMap<FastifyInstance, Promise<string>>();

/** The app on a loopback port (once): a stream's answer is known at its headers, which app.inject cannot tell. */
const addressOf = (app: FastifyInstance) => {
  let address = addresses.get(app);
  if (!address) {
    address = app.listen({ port: 0, host: '127.0.0.1' });
    addresses.set(app, address);
  }
  return address;
};

const readAnswer = (status: number, contentType: string, text: string): ApiAnswer => {
  let json: ApiAnswer['json'];
  if (contentType.includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status, contentType, text, json };
};

/** Sends through app.inject, or over HTTP (a route answering a stream: cut after its headers; Node's own limits). */
export const send = async (app: FastifyInstance, request: ApiRequest, token?: string, overHttp = false): Promise<ApiAnswer> => {
  const headers: Record<string, string> = {
    ...(token === undefined ? {} : { 'rvm-token': token }),
    ...(request.raw?.contentType ? { 'content-type': request.raw.contentType } : request.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const payload = request.raw ? request.raw.payload : request.body === undefined ? undefined : JSON.stringify(request.body);
  if (overHttp) {
    const abort = new AbortController();
    const bodyless = request.method === 'GET' || request.method === 'HEAD'; // fetch cannot send one
    const response = await fetch(`${await addressOf(app)}${request.url}`, {
      method: request.method,
      headers,
      body: bodyless ? undefined : (payload as string | undefined),
      signal: abort.signal,
    });
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('event-stream')) {
      abort.abort();
      return { status: response.status, contentType, text: '', streamed: true };
    }
    return readAnswer(response.status, contentType, await response.text());
  }
  const answer = await app.inject({ method: request.method as 'GET', url: request.url, headers, ...(payload === undefined ? {} : { payload }) });
  return readAnswer(answer.statusCode, String(answer.headers['content-type'] ?? ''), answer.body);
};

/** Catalogue codes the server may answer (i18n/en/errors.ts keys that are codes). */
export const CATALOGUE_CODES = new Set(Object.keys(errors).filter((key) => /^[0-9A-Z]+$/.test(key)));

/** Traces of internals that must never reach the wire. */
const INTERNALS = [
  /\n\s+at .+:\d+:\d+/,
  /node_modules/,
  // a Windows path as JSON writes it (C:\\dir\\), not an echoed key such as A:\" (a quote escaped after a colon)
  /\/work\/|\/home\/|\/usr\/|\b[A-Z]:\\\\[\w.-]+\\\\/,
  /\b(TypeError|ReferenceError|RangeError|SyntaxError)\b/,
  /Maximum call stack/i,
  /Failed query|syntax error at|violates|duplicate key|relation "|column "|invalid input syntax|drizzle|pglite|PostgresError/i,
  /FST_ERR|ERR_[A-Z_]{4,}/,
];

/** The internal detail an answer's text gives away, if any. */
export const leakedInternals = (text: string) => INTERNALS.find((pattern) => pattern.test(text));

/** What is wrong with an answer (empty: nothing): no 5xx, the envelope with a catalogue code, no internals. */
export const answerProblems = (answer: ApiAnswer): string[] => {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`HTTP ${answer.status}`);
  // (a success may echo what was stored, which is the caller's own text)
  const leaked = answer.json?.resCode === '00000' ? undefined : leakedInternals(answer.text);
  if (leaked) problems.push(`internal detail on the wire (${leaked}): ${answer.text.slice(0, 200)}`);
  const fileOrStream = answer.status === 200 && !answer.contentType.includes('json');
  if (fileOrStream) return problems;
  const body = answer.json;
  if (!body || typeof body.resCode !== 'string' || typeof body.resMsg !== 'string' || !('resData' in body)) {
    problems.push(`not the envelope (${answer.contentType}): ${answer.text.slice(0, 200)}`);
  } else if (body.resCode !== '00000' && !CATALOGUE_CODES.has(body.resCode)) {
    problems.push(`code ${body.resCode} is not in the catalogue`);
  }
  return problems;
};

export const codeOf = (answer: ApiAnswer) => (typeof answer.json?.resCode === 'string' ? answer.json.resCode : `HTTP ${answer.status}`);
