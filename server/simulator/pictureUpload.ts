// Item pictures of simulated machines (docs/machine-protocol.md "Item pictures"): after a session a machine
// uploads the pictures of a sampled share of its items over HTTP (PUT with its gateway credentials), never
// through MQTT. The share (`rate`, 0..1) keeps the demo from filling the file storage: a real machine keeps
// what the operator's sampling setting asks for too.
import type { ItemType } from '../../resources/fleetCatalogue';
import type { Random } from '../seed/random';
import { drawItemPicture } from './itemPicture';

export const PICTURE_PATH = '/test-api/gateway/picture';
/** The share of items whose picture a simulated machine uploads by default. */
export const DEFAULT_PICTURE_RATE = 0.05;

export type PictureTransport = (authorization: string, query: string, body: Buffer) => Promise<{ status: number; resCode: string }>;

/** Over HTTP, to a server at `baseUrl` (the simulator's `--url`). */
export const httpPictureTransport =
  (baseUrl: string): PictureTransport =>
  async (authorization, query, body) => {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}${PICTURE_PATH}?${query}`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'image/png' },
      body: new Uint8Array(body),
    });
    const envelope = (await response.json().catch(() => ({}))) as { resCode?: unknown };
    return { status: response.status, resCode: String(envelope.resCode ?? '') };
  };

export interface PictureItem {
  seq: number;
  itemType: ItemType;
  rejectReason?: number;
}

/** What the machine's recogniser says about an item: low for reason 4, middling for 3 and 5, high otherwise. */
export const confidenceOf = (random: Random, rejectReason: number | undefined) =>
  rejectReason === 4 ? 0.25 + random.next() * 0.3 : rejectReason === 3 || rejectReason === 5 ? 0.45 + random.next() * 0.35 : 0.8 + random.next() * 0.19;

export class PictureUploader {
  uploaded = 0;
  failed = 0;

  constructor(private readonly options: { transport: PictureTransport; rate: number; log?: (line: string) => void }) {}

  /** Uploads the sampled items' pictures of one session; failures are counted and logged, never thrown. */
  async afterSession(credentials: { serialNumber: string; secret: string }, sessionId: string, items: readonly PictureItem[], random: Random) {
    if (this.options.rate <= 0) return;
    const authorization = `Basic ${Buffer.from(`${credentials.serialNumber}:${credentials.secret}`).toString('base64')}`;
    for (const item of items) {
      if (random.next() >= this.options.rate) continue;
      const query = new URLSearchParams({
        sessionId,
        seq: String(item.seq),
        itemType: item.itemType,
        ...(item.rejectReason === undefined ? {} : { rejectReason: String(item.rejectReason) }),
        confidence: confidenceOf(random, item.rejectReason).toFixed(3),
        ts: new Date().toISOString(),
      });
      try {
        const picture = await drawItemPicture(() => random.next(), item.itemType);
        const answer = await this.options.transport(authorization, query.toString(), picture);
        if (answer.resCode === '00000') this.uploaded++;
        else {
          this.failed++;
          this.options.log?.(`${credentials.serialNumber}: picture refused (${answer.status} ${answer.resCode})`);
        }
      } catch (error) {
        this.failed++;
        this.options.log?.(`${credentials.serialNumber}: picture upload failed (${(error as Error).message})`);
      }
    }
  }
}
