// The typed hits of GET /search?q= and where each opens (pure, unit-tested).
import { consumerSessionPath, machinePagePath } from '../pages/machinePaths';

export interface MachineHit {
  type: 'machine';
  id: number;
  termNo: string;
  serialNumber: string;
  address: string | null;
  termType: string;
  currentSts: string;
  matched: 'termNo' | 'serialNumber' | 'address';
}

export interface ConsumerSessionHit {
  type: 'consumerSession';
  id: number;
  rvmId: number;
  termNo: string;
  startTime: string | null;
  payoutMethod: string;
  totalRefund: number;
  voucherCode: string | null;
  userId: string | null;
  matched: 'voucherCode' | 'userId';
}

export type SearchHit = MachineHit | ConsumerSessionHit;

export interface SearchAnswer {
  q: string;
  hits: SearchHit[];
  truncated: boolean;
}

/** The console page a hit opens: the machine page, or the consumer session details. */
export const hitPath = (hit: SearchHit): string => (hit.type === 'machine' ? machinePagePath(hit.id) : consumerSessionPath(hit.rvmId, hit.id));

/**
 * The session to open straight away: the one hit whose voucher code IS the query (any case). A voucher
 * code names one session, so an exact match needs no list; a prefix or user-ID match (many sessions
 * of one user) still shows the list.
 */
export const directVoucherHit = (query: string, hits: readonly SearchHit[]): ConsumerSessionHit | null => {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return null;
  const exact = hits.filter((hit): hit is ConsumerSessionHit => hit.type === 'consumerSession' && hit.voucherCode?.toLowerCase() === wanted);
  return exact.length === 1 ? exact[0] : null;
};

/** Hits grouped by type, machines first (the list's sections). */
export const groupHits = (hits: readonly SearchHit[]) => ({
  machines: hits.filter((hit): hit is MachineHit => hit.type === 'machine'),
  sessions: hits.filter((hit): hit is ConsumerSessionHit => hit.type === 'consumerSession'),
});
