// Machines and secrets from a running console, over its HTTP API (what `npm run simulate` uses):
// sign in, page the active machines, and rotate each simulated machine's secret
// (POST /rvm/{id}/credential answers it once).
import type { Provision, SimulatedMachine } from './fleet';

export interface HttpSourceOptions {
  /** The console, e.g. http://localhost:8080 (the API is under /test-api). */
  url: string;
  user: string;
  password: string;
  machines: number;
  /** Where machines connect, when the server's own `machineUrl` is not reachable from here. */
  brokerUrl?: string;
}

interface Envelope<T> {
  resCode?: string;
  code?: string;
  resMsg?: string;
  resData?: T;
  data?: T;
}

interface MachineRecord {
  id: number;
  serialNumber: string;
  termType: string;
  fleetId: number | null;
  sts: string;
  binCount: number | null;
  binEmptyHeight: number | null;
  binFullHeight: number | null;
  binAlmostFull: number | null;
  binAlreadyFull: number | null;
  onTime: string | null;
  offTime: string | null;
  softwareVersion: string | null;
}

const PAGE_SIZE = 500;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** A server that says "127.0.0.1" means itself: seen from another host, that is the console's host name. */
const reachableFromHere = (machineUrl: string, consoleUrl: string) => {
  const broker = new URL(machineUrl);
  const site = new URL(consoleUrl);
  if (LOOPBACK.has(broker.hostname) && !LOOPBACK.has(site.hostname)) broker.hostname = site.hostname;
  return broker.toString().replace(/\/$/, '');
};

export const createApiClient = (baseUrl: string) => {
  const api = `${baseUrl.replace(/\/+$/, '')}/test-api`;
  let token: string | null = null;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${api}${path}`, {
      method,
      // No content type without a body: Fastify refuses an empty JSON body.
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), lang: 'en', ...(token ? { 'rvm-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json().catch(() => ({}))) as Envelope<T>;
    const code = envelope.resCode ?? envelope.code;
    if (code !== '00000' && code !== '0') throw new Error(`${method} ${path}: ${code ?? response.status} ${envelope.resMsg ?? response.statusText}`);
    return (envelope.resData ?? envelope.data) as T;
  };
  return {
    call,
    login: async (username: string, password: string) => {
      const answer = await call<{ tokenInfo: { tokenValue: string }; firstLogin?: boolean; passwordExpired?: boolean }>('POST', '/login/login', { username, password });
      token = answer.tokenInfo.tokenValue;
      return answer;
    },
  };
};

/** The first `machines` active machines of the user's current license account, and how to provision them. */
export const httpSource = async (options: HttpSourceOptions): Promise<{ machines: SimulatedMachine[]; provision: Provision }> => {
  const client = createApiClient(options.url);
  await client.login(options.user, options.password);
  const records: MachineRecord[] = [];
  for (let pageNum = 1; records.length < options.machines; pageNum++) {
    const page = await client.call<{ list: MachineRecord[]; total: number }>('POST', '/rvm/page', { pageNum, pageSize: PAGE_SIZE, sts: 'active' });
    // The filter is the server's; the check keeps the promise "active only" if a server ignores it.
    records.push(...page.list.filter((record) => record.sts === 'active'));
    if (page.list.length < PAGE_SIZE || pageNum * PAGE_SIZE >= page.total) break;
  }
  const machines: SimulatedMachine[] = records.slice(0, options.machines).map((record) => ({
    id: record.id,
    serialNumber: record.serialNumber,
    termType: record.termType,
    fleetId: record.fleetId,
    binCount: record.binCount ?? 1,
    binEmptyHeight: record.binEmptyHeight,
    binFullHeight: record.binFullHeight,
    binAlmostFull: record.binAlmostFull,
    binAlreadyFull: record.binAlreadyFull,
    onTime: record.onTime,
    offTime: record.offTime,
    softwareVersion: record.softwareVersion,
  }));
  const provision: Provision = async (machine) => {
    const answer = await client.call<{ serialNumber: string; secret: string; machineUrl: string | null }>('POST', `/rvm/${machine.id}/credential`);
    const brokerUrl = options.brokerUrl ?? (answer.machineUrl && reachableFromHere(answer.machineUrl, options.url));
    if (!brokerUrl) throw new Error('the server has no machine gateway (machineUrl is empty); pass --broker');
    return { serialNumber: answer.serialNumber, secret: answer.secret, brokerUrl };
  };
  return { machines, provision };
};
