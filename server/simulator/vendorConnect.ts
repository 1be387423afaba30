// Vendor connect from virtual machines (docs/api-hookups.md "Vendor connect", "Simulator"): during a consumer
// session a machine whose fleet (or an ancestor fleet) has an enabled vendorConnect app asks it through the
// server, as a real machine would: POST /test-api/gateway/vendor-connect with HTTP Basic
// `<serial number>:<gateway secret>`. A loyalty-account payout asks whether the account is valid, any other
// session whether its containers' tracing codes are redeemable. The answer (or 9000) is only logged: the
// session goes on either way, and the server records every call on the notification list.
import type { SessionDraft } from './world';

export const VENDOR_CONNECT_PATH = '/test-api/gateway/vendor-connect';
/** Real ms a machine with no vendorConnect app waits before asking again (the CLI learns it from 9000). */
export const UNBOUND_RETRY_MS = 5 * 60_000;
/** Real ms the in-process check that a machine is bound is trusted. */
export const BOUND_CHECK_MS = 15_000;
const MAX_CODES = 20;

export interface VendorConnectRequest {
  requestType: 'loyaltyAccount' | 'tracingCodes';
  sessionId: string;
  payload: Record<string, unknown>;
}

/** Sends one request; answers the HTTP status and the envelope. */
export type VendorConnectTransport = (authorization: string, request: VendorConnectRequest) => Promise<{ status: number; resCode: string; resData?: unknown }>;

export interface VendorConnectOptions {
  transport: VendorConnectTransport;
  /**
   * Whether the machine (by serial number) has a vendorConnect app now (in the server process: the
   * database says). Without it a machine asks, and an answer of "no app bound" keeps it quiet for a while.
   */
  isBound?: (serialNumber: string) => Promise<boolean>;
  log?: (line: string) => void;
}

export interface VendorConnectStats {
  calls: number;
  answered: number;
  failed: number;
}

/** What a session asks its scheme's app, or null when it has nothing to ask. */
export const vendorRequestOf = (sessionId: string, draft: Pick<SessionDraft, 'payoutMethod' | 'userId' | 'items'>): VendorConnectRequest | null => {
  if (draft.payoutMethod === 'loyaltyAccount' && draft.userId) return { requestType: 'loyaltyAccount', sessionId, payload: { account: draft.userId } };
  const codes = draft.items.flatMap((item) => (item.barcode && item.rejectReason === undefined ? [item.barcode] : [])).slice(0, MAX_CODES);
  return codes.length ? { requestType: 'tracingCodes', sessionId, payload: { codes } } : null;
};

/** One per fleet: the machines' calls, with what each machine knows about being bound. */
export class VendorConnectClient {
  readonly stats: VendorConnectStats = { calls: 0, answered: 0, failed: 0 };
  private readonly quietUntil = new Map<string, number>();

  constructor(private readonly options: VendorConnectOptions) {}

  /** During a session: asks the machine's vendorConnect app, if it has one. Never throws. */
  async duringSession(credentials: { serialNumber: string; secret: string }, sessionId: string, draft: Pick<SessionDraft, 'payoutMethod' | 'userId' | 'items'>) {
    const request = vendorRequestOf(sessionId, draft);
    const { serialNumber } = credentials;
    if (!request || (this.quietUntil.get(serialNumber) ?? 0) > Date.now()) return;
    try {
      if (this.options.isBound && !(await this.options.isBound(serialNumber))) return;
      this.stats.calls++;
      const authorization = `Basic ${Buffer.from(`${serialNumber}:${credentials.secret}`).toString('base64')}`;
      const answer = await this.options.transport(authorization, request);
      if (answer.resCode === '00000') {
        this.stats.answered++;
        return;
      }
      this.stats.failed++;
      // 9000 without an app id: none is bound to this machine (the server records nothing), ask again later
      if (!this.options.isBound && answer.resCode === '9000' && !(answer.resData as { appId?: number } | undefined)?.appId)
        this.quietUntil.set(serialNumber, Date.now() + UNBOUND_RETRY_MS);
      this.options.log?.(`${serialNumber}: vendor connect ${request.requestType} answered ${answer.resCode} (HTTP ${answer.status})`);
    } catch (error) {
      this.stats.failed++;
      this.options.log?.(`${serialNumber}: vendor connect failed: ${(error as Error).message}`);
    }
  }
}

/** Over HTTP to a console at `baseUrl` (the CLI). */
export const httpVendorTransport =
  (baseUrl: string): VendorConnectTransport =>
  async (authorization, request) => {
    const response = await fetch(new URL(VENDOR_CONNECT_PATH, baseUrl), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(15_000),
    });
    const envelope = (await response.json().catch(() => ({}))) as { resCode?: string; code?: string; resData?: unknown };
    return { status: response.status, resCode: String(envelope.resCode ?? envelope.code ?? ''), resData: envelope.resData };
  };

/** Remembers a yes/no per key for `ms` real milliseconds (a bound check per session would be a query per session). */
export const cachedCheck = (check: (key: string) => Promise<boolean>, ms = BOUND_CHECK_MS) => {
  const known = new Map<string, { value: boolean; until: number }>();
  return async (key: string) => {
    const hit = known.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = await check(key);
    known.set(key, { value, until: Date.now() + ms });
    return value;
  };
};
