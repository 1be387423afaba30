// The answers of the report calls (docs/reports.md "The calls").
import type { ReportKind } from '../../resources/reports';

export type ReportRow = Record<string, string | number | null>;

export interface ReportAnswer {
  report: ReportKind;
  from: string;
  to: string;
  total: number;
  pageNum: number;
  pageSize: number;
  rows: ReportRow[];
  totals: Record<string, number | null>;
  chart: ReportRow[];
}

export interface ReportSelection {
  report: ReportKind;
  from: string;
  to: string;
  utcOffsetMinutes: number;
  fleetIds: number[];
  machineIds: number[];
}

export interface GeneratedReportRow {
  id: number;
  report: ReportKind;
  params: { from?: string; to?: string; utcOffsetMinutes?: number };
  format: string;
  fileName: string;
  size: number;
  createdTime: string;
  producedBy: { kind: 'user' | 'subscription'; userId: number | null; userName: string | null; subscriptionId: number | null };
}
