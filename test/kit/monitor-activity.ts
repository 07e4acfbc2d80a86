/**
 * Test kit: waits for the monitor's own report that it is at rest, through its HTTP interface, instead of sleeping.
 * `rescanMonitor` asks a node to list its folders once more and answers once nothing settles, waits or is committed
 * (`POST /api/monitor/rescan`); after it, "nothing more arrived" holds for the files present before the call.
 */
import type { Workbench } from '../../kernel/workbench.ts';

/** The answer of `GET /api/monitor/activity` and `POST /api/monitor/rescan`. */
export interface MonitorActivity {
  node: string;
  idle: boolean;
  settling: number;
  queued: number;
  held: number;
  lastIngestEndedAt: string | null;
  checkedAt: string | null;
}

/** Where a node's monitor base answers: an in-process workbench or the base URL of a started process. */
export type MonitorNode = Pick<Workbench, 'servers'> | string;

function baseUrl(node: MonitorNode): string {
  return typeof node === 'string' ? node : node.servers.monitor.url();
}

async function activityCall(node: MonitorNode, method: 'GET' | 'POST', path: string): Promise<MonitorActivity> {
  const response = await fetch(`${baseUrl(node)}${path}`, { method });
  const body = (await response.json()) as { data: MonitorActivity };
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** This node's ingest activity now (`GET /api/monitor/activity`). */
export function monitorActivity(node: MonitorNode): Promise<MonitorActivity> {
  return activityCall(node, 'GET', '/api/monitor/activity');
}

/**
 * Rescans every folder the node watches and resolves once it is at rest (`POST /api/monitor/rescan`): nothing
 * settling, queued or held, one more listing against the ledger read, one whole check and its rule evaluations run.
 * Throws when the node answers that it did not come to rest.
 */
export async function quiesceMonitor(node: MonitorNode): Promise<MonitorActivity> {
  const activity = await activityCall(node, 'POST', '/api/monitor/rescan');
  if (!activity.idle) throw new Error(`The monitor did not come to rest: ${JSON.stringify(activity)}`);
  return activity;
}
