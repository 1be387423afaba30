// Vendor connect (docs/api-hookups.md "Vendor connect"): a machine asks the vendorConnect app bound to it
// (its fleet's, else the nearest ancestor fleet's) and gets the app's answer; the call is signed like a
// webhook, has VENDOR_TIMEOUT_MS, and is recorded as a message of family `vendor` (notification list).
// Anything but a 2xx answer is 9000 'Third-party API error'.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { VENDOR_EVENT } from '../../resources/hookupCatalogue';
import { rowsOf, type Db } from '../db/client';
import { hookupMessage } from '../db/schema/hookups';
import { AppError } from '../lib/errors';
import { EXCERPT_CHARS } from './delivery';
import { signedHeaders } from './signing';

export const VENDOR_TIMEOUT_MS = 3_000;
/** The largest answer read from an app. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface VendorRequest {
  requestType: string;
  sessionId?: string;
  payload?: Record<string, unknown>;
}

interface VendorApp {
  id: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: string | Date | null;
  termNo: string;
  licenseAccountId: number;
}

const appFor = async (db: Db, rvmId: number): Promise<VendorApp | undefined> => {
  const result = await db.execute(sql`
    with recursive up(fleet_id, depth) as (
      select fleet_id, 0 from rvm where id = ${rvmId}
      union all
      select f.parent_id, up.depth + 1 from fleet f join up on f.id = up.fleet_id where f.parent_id is not null
    )
    select a.id, a.url, a.secret, a.previous_secret as "previousSecret", a.previous_secret_until as "previousSecretUntil",
      r.term_no as "termNo", r.license_account_id as "licenseAccountId"
    from up join hookup_app_fleet af on af.fleet_id = up.fleet_id join hookup_app a on a.id = af.app_id
      join rvm r on r.id = ${rvmId} and r.license_account_id = a.license_account_id
    where a.api_type = 'vendorConnect' and a.enabled
    order by up.depth, a.id limit 1`);
  return rowsOf<VendorApp>(result)[0];
};

/** Whether the machine has an enabled vendorConnect app now (the simulator asks before a session's call). */
export const hasVendorApp = async (db: Db, rvmId: number): Promise<boolean> => (await appFor(db, rvmId)) !== undefined;

const readAnswer = async (response: Response): Promise<string> => {
  const bytes = new Uint8Array(await response.arrayBuffer());
  return new TextDecoder().decode(bytes.subarray(0, MAX_ANSWER_BYTES));
};

export interface VendorAnswer {
  appId: number;
  status: number;
  body: unknown;
}

/** Asks the machine's vendorConnect app; answers its JSON (or text) answer, else throws 9000 after recording the call. */
export const callVendor = async (db: Db, rvmId: number, request: VendorRequest, timeoutMs = VENDOR_TIMEOUT_MS): Promise<VendorAnswer> => {
  const app = await appFor(db, rvmId);
  if (!app) throw new AppError('9000', { resData: { reason: 'no vendorConnect app is bound to this machine' } });
  const now = new Date();
  const messageId = `msg_${randomBytes(16).toString('base64url')}`;
  const payload = { type: VENDOR_EVENT, timestamp: now.toISOString(), data: { rvmId, termNo: app.termNo, ...request } };
  const body = JSON.stringify(payload);
  const keys = { ...app, previousSecretUntil: app.previousSecretUntil === null ? null : new Date(app.previousSecretUntil) };
  let status: number | null = null;
  let text = '';
  try {
    const response = await fetch(app.url, { method: 'POST', body, headers: signedHeaders(messageId, body, keys, now), signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    status = response.status;
    text = await readAnswer(response);
  } catch (error) {
    text =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `timeout after ${timeoutMs} ms`
        : String((error as { cause?: unknown })?.cause ?? error);
  }
  const ok = status !== null && status >= 200 && status < 300;
  await db.insert(hookupMessage).values({
    messageId,
    licenseAccountId: app.licenseAccountId,
    appId: app.id,
    rvmId,
    family: 'vendor',
    eventType: VENDOR_EVENT,
    eventTime: now,
    payload,
    status: ok ? 'success' : 'fail',
    attempts: 1,
    scheduleStep: 1,
    lastSendTime: now,
    lastResponseStatus: status,
    lastResponseExcerpt: text.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS),
  });
  if (!ok) throw new AppError('9000', { resData: { appId: app.id, status } });
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text as it came
  }
  return { appId: app.id, status: status as number, body: parsed };
};
