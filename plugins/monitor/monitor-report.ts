/**
 * The report of a window: overall state, per interface its status, totals, hourly breakdown and top errors, and the
 * alerts triggered in the window. One builder; text and HTML render the same facts (report-text.ts,
 * report-html.ts), JSON is the facts themselves.
 */
import type { Alert } from './api.ts';
import type { InterfaceMetrics } from './interface-metrics.ts';
import type { InterfaceStatus, MonitorState } from './monitor-status.ts';
import type { ErrorCount } from './top-errors.ts';

/** One interface in a report. */
export interface InterfaceReport {
  status: InterfaceStatus;
  metrics: InterfaceMetrics;
  topErrors: ErrorCount[];
  /** How many failed messages the top errors were counted from, and whether that hit the scan cap. */
  failedMessagesScanned: number;
  topErrorsCapped: boolean;
}

/** A whole report. */
export interface MonitorReport {
  generatedAt: string;
  sinceHours: number;
  windowStart: string;
  windowEnd: string;
  overallState: MonitorState;
  totals: { messages: number; failed: number; interfaces: number };
  interfaces: InterfaceReport[];
  alerts: Alert[];
}
