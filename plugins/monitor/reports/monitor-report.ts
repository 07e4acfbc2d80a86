/**
 * The report of a window: overall state, per interface its status, totals, hourly breakdown and top errors, and the
 * alerts triggered in the window. The types live in the contract (api.ts); report-builder.ts builds it from the
 * roll-ups; report-rendering.ts renders the same facts as HTML, text, CSV or JSON for every caller.
 */
export type { InterfaceReport, MonitorReport } from '../api.ts';
