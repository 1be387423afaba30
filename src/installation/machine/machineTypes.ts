// Answers of the machine page calls (server/fleet/machinePage.ts, history.ts, consumerSessions.ts),
// date-times as the http client shows them ('yyyy-MM-dd HH:mm:ss', local).

export interface MachineEvent {
  id: number;
  code: string;
  category: string;
  severity: string;
  blocking: boolean;
  raisedTime: string | null;
  clearedTime: string | null;
  detail: string | null;
}

export interface MachineOverview {
  machine: {
    id: number;
    termNo: string;
    serialNumber: string;
    termType: string;
    sts: string;
    currentSts: string;
    statusSince: string | null;
    online: boolean;
    fleetId: number;
    fleetPath: Array<{ id: number; name: string; level: number }>;
    localAreaId: string | null;
    address: string | null;
    longitude: number | null;
    latitude: number | null;
    softwareVersion: string | null;
    macAddress: string | null;
    simNo: string | null;
    installDate: string | null;
    activationDate: string | null;
    onTime: string | null;
    offTime: string | null;
    lastSessionTime: string | null;
  };
  bins: Array<{
    binNo: number;
    itemType: string;
    fillPercent: number;
    currentHeight: number | null;
    itemCount: number;
    lastEmptiedTime: string | null;
    state: 'ok' | 'almostFull' | 'full';
  }>;
  today: { from: string; sessions: number; items: number; accepted: number; rejected: number; refund: number; rejectRate: number };
  openAlarms: MachineEvent[];
  lastEvents: MachineEvent[];
}

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface IntervalRow {
  id: number;
  startTime: string | null;
  endTime: string | null;
  durationSeconds: number;
  [valueKey: string]: unknown;
}

export interface IntervalPage extends Page<IntervalRow> {
  from: string;
  to: string;
  timeline: Array<{ startTime: string; endTime: string; seconds: number; [valueKey: string]: unknown }>;
  secondsBy: Record<string, number>;
}

export interface ServiceSessionRow {
  id: number;
  technician: string;
  startTime: string | null;
  endTime: string | null;
  durationSeconds: number;
  cleaningOutcome: string;
  binsEmptied: number;
  note: string | null;
  /** The person of the machine's personnel package who signed in (docs/service-personnel.md#service-sessions). */
  personnel: { realName: string; company: string | null; accessLevel: string } | null;
}

export interface ConsumerSessionRow {
  id: number;
  rvmId: number;
  startTime: string | null;
  endTime: string | null;
  payoutMethod: string;
  totalRefund: number;
  itemCount: number;
  acceptedCount: number;
  rejectedCount: number;
  userId: string | null;
  voucherCode: string | null;
  /** Until when the voucher can be redeemed, as the machine reported it. */
  voucherValidUntil: string | null;
  cardNo: string | null;
  /** `banned`: refused by the machine (docs/service-personnel.md#bans). */
  refusal: string | null;
  donationInstituteId: number | null;
}

export interface ConsumerSessionItem {
  seq: number;
  itemType: string;
  barcode: string | null;
  category: string | null;
  refund: number;
  accepted: boolean;
  rejectReason: number | null;
  picture: string | null;
  pictureUrl: string | null;
}

export interface ConsumerSessionDetails {
  session: ConsumerSessionRow & { termNo: string; serialNumber: string; termType: string; donationInstitute: string | null };
  items: ConsumerSessionItem[];
}
