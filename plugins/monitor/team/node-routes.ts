/**
 * Routes of the team sharing the store: the nodes with their heartbeats and the interfaces each watches, and
 * removing a dead node (administrators).
 */
import { z } from 'zod';
import { kernelErrors } from '../../../kernel/errors.ts';
import type { ClusterMembership } from '../../../kernel/cluster/cluster.ts';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { monitorErrors } from '../errors.ts';
import type { InterfaceOwnership } from './interface-ownership.ts';
import { MONITOR_EXAMPLES } from '../monitor-examples.ts';
import { nodeNameParams, nodeSchema } from '../monitor-schemas.ts';

/** What the node routes work with. */
export interface NodeRouteDeps {
  /** The nodes sharing the store, with their heartbeats. */
  cluster: ClusterMembership;
  /** Which node watches which interface. */
  ownership: InterfaceOwnership;
}

/** Registers the node routes. */
export function registerNodeRoutes(routes: RouteRegistrar, deps: NodeRouteDeps): void {
  const { cluster, ownership } = deps;
  routes.route({
    method: 'GET',
    url: '/api/monitor/nodes',
    examples: MONITOR_EXAMPLES.listNodes,
    summary: 'Nodes sharing the store: heartbeat, version, liveness and the interfaces each watches',
    description:
      'A node whose heartbeat is older than the lease (`node.leaseMs`, default 30 s) is dead: its interfaces pass to ' +
      'the live nodes. On an embedded SQLite store the answering node is the only one.',
    tags: ['monitor'],
    tier: 'professional',
    response: z.array(nodeSchema),
    async handler() {
      await ownership.refresh();
      const owned = ownership.ownersByNode();
      return (await cluster.nodes()).map((node) => ({ ...node, interfaces: node.live ? (owned.get(node.name) ?? []) : [] }));
    },
  });

  routes.route({
    method: 'DELETE',
    url: '/api/monitor/nodes/:name',
    examples: MONITOR_EXAMPLES.removeNode,
    policy: 'MonitorAdmin',
    summary: 'Remove a dead node from the list (a live node is refused with 409)',
    tags: ['monitor'],
    tier: 'professional',
    params: nodeNameParams,
    errors: ['NODE_ALIVE'],
    response: z.object({ name: z.string(), removed: z.boolean() }),
    async handler({ params }) {
      const outcome = await cluster.remove(params.name);
      if (outcome === 'unknown') throw kernelErrors.create('NOT_FOUND', { what: `Node ${params.name}` });
      if (outcome === 'live') throw monitorErrors.create('NODE_ALIVE', { name: params.name, leaseSeconds: String(Math.round(cluster.leaseMs / 1000)) });
      return { name: params.name, removed: true };
    },
  });
}
