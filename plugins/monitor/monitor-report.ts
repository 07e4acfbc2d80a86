/**
 * The report of a window: overall state, per interface its status, totals, hourly breakdown and top errors, and the
 * alerts triggered in the window. The types live in the contract (api.ts); report-builder.ts builds it from the
 * roll-ups; text and HTML render the same facts (report-text.ts, report-html.ts), JSON is the facts themselves.
 */
export type { InterfaceReport, MonitorReport } from './api.ts';
