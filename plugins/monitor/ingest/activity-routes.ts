/**
 * Routes of this node's ingest activity: whether it is idle (nothing settling, queued, held or being committed) and
 * since when, and a rescan on demand that answers once the node is at rest. A caller that must know "nothing more
 * will arrive" (a script after copying files in, a test asserting that something was not counted) waits for this
 * state instead of for a time.
 */
import { z } from 'zod';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { MONITOR_EXAMPLES } from '../monitor-examples.ts';
import type { IngestActivity, WatchManager } from './watch-manager.ts';

/** How long a rescan waits for the node to come to rest before it answers with the activity as it is. */
const RESCAN_WAIT_MS = 30_000;

/** What the activity routes work with. */
export interface ActivityRouteDeps {
  /** The node answering (its name in the team). */
  node: string;
  watchManager: Pick<WatchManager, 'activity' | 'quiesce'>;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The answer of both routes. */
export const activitySchema = z.object({
  node: z.string(),
  idle: z.boolean(),
  settling: z.number().int(),
  queued: z.number().int(),
  held: z.number().int(),
  lastIngestEndedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
});

function answer(node: string, activity: IngestActivity): z.infer<typeof activitySchema> {
  const { idle, settling, queued, held } = activity;
  return { node, idle, settling, queued, held, lastIngestEndedAt: iso(activity.lastIngestEndedMs), checkedAt: iso(activity.checkedAtMs) };
}

/** Registers `GET /api/monitor/activity` and `POST /api/monitor/rescan`. */
export function registerActivityRoutes(routes: RouteRegistrar, deps: ActivityRouteDeps): void {
  const { node, watchManager } = deps;
  routes.route({
    method: 'GET',
    url: '/api/monitor/activity',
    examples: MONITOR_EXAMPLES.activity,
    summary: "This node's ingest: idle or not, files settling, queued and held, last ingest and last whole check",
    description:
      '`idle` is true when no file is settling, queued, held for its writer or being read or committed on this node. ' +
      '`lastIngestEndedAt` is when the ingest last finished its work; `checkedAt` when the last whole periodic check ' +
      '(reachability, minute rows, alert rules, due folder listings) ended. Each node answers for its own interfaces.',
    tags: ['monitor'],
    tier: 'professional',
    response: activitySchema,
    handler: () => answer(node, watchManager.activity()),
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/rescan',
    examples: MONITOR_EXAMPLES.rescan,
    summary: 'List every folder this node watches against the ledger now, read what was missed, answer once at rest',
    description:
      'Waits until nothing settles or is queued, lists every watched folder of this node once more against the ledger ' +
      '(reading what that finds), runs one whole periodic check and the rule evaluations the commits asked for, then ' +
      `answers the activity. After an \`idle: true\` answer, files present before the request are counted. When the ` +
      `node does not come to rest within ${RESCAN_WAIT_MS / 1000} s (files still being written) it answers \`idle: false\`.`,
    tags: ['monitor'],
    tier: 'professional',
    response: activitySchema,
    async handler() {
      try {
        await watchManager.quiesce(RESCAN_WAIT_MS);
      } catch {
        // not at rest in time: the activity answered says what it still waits on
      }
      return answer(node, watchManager.activity());
    },
  });
}
