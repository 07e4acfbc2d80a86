/**
 * Shared setup of the analytics tests: the monitor harness (real Workbench, watched folders, HL7 files) with a
 * manual clock, plus HL7 messages that fail validation with a known error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from '../monitor/monitor-harness.ts';

export { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from '../monitor/monitor-harness.ts';

/** An ADT^A01 whose PID-3 (patient identifier list, required) is empty, from a given sending facility. */
export function failingMessage(controlId: string, time: string, facility = 'SENDFAC'): string {
  return adtMessage(controlId, { time })
    .replace(/^PID\|1\|\|[^|]*\|/m, 'PID|1|||')
    .replace('|SENDAPP|SENDFAC|', `|SENDAPP|${facility}|`);
}

/** Total messages the monitor counts for an interface in the last day (through its public metrics route). */
export async function storedTotal(h: MonitorHarness, id: string): Promise<number> {
  return (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=48`)).json.data.messagesTotal;
}

/** Writes files into a folder and waits until the interface has counted `expected` messages in all. */
export async function ingest(h: MonitorHarness, id: string, dir: string, files: Record<string, string>, expected: number): Promise<void> {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  await waitFor(async () => (await storedTotal(h, id)) === expected, 20_000, `${expected} messages on ${id}`);
}

/** Boots a Workbench with the monitor's short test timings plus an `analytics` config section. */
export async function startAnalyticsHarness(
  options: { clock?: import('../../kernel/clock.ts').Clock; analytics?: Record<string, unknown>; config?: Record<string, unknown>; dataDir?: string } = {},
): Promise<MonitorHarness> {
  return startMonitorHarness({
    ...(options.clock ? { clock: options.clock } : {}),
    config: { ...(options.config ?? {}), ...(options.dataDir ? { dataDir: options.dataDir } : {}) },
    ...(options.analytics ? { plugins: { analytics: options.analytics } } : {}),
  });
}
