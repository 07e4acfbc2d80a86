/**
 * What analytics reads, all through the monitor's service contract (plugins/monitor/api.ts): interfaces, alerts,
 * the roll-up reads (series, topN, totals), stored-message pages and the report builder. Analytics never
 * opens a monitor table.
 */
import type { MonitorService, MonitorStore } from '../monitor/api.ts';

/** The monitor's service as analytics uses it. */
export type AnalyticsSource = Pick<
  MonitorService,
  'listInterfaces' | 'getInterface' | 'interfaceExists' | 'listAlerts' | 'raiseAlert' | 'clearAlert'
> &
  Pick<MonitorStore, 'queryMessages' | 'countMessages' | 'series' | 'topN' | 'totals'>;
