// A team on one PostgreSQL store: real `workbench start` processes, each a node with its own name and data folder.
// Files of a shared interface are counted exactly once while several nodes run and when the owner is killed
// (kill -9) mid-ingest; an interface pinned to a node raises nothing on another; nodes starting together on an
// empty database all come up; a scheduled job runs once per occurrence across nodes.
//
// Each test starts its own nodes on a schema of its own and stops them when it ends: any one runs alone (-t). "Nothing
// more was counted" is asserted once every node reported two heartbeats (so an ownership round ran after the last
// file) and answered a rescan at rest (POST /api/monitor/rescan), never after a pause.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { slotOf } from '../../kernel/cluster/job-claims.ts';
import { callNode, killNode, startTeamNode, stopNode, storedCounts, writeMessageFiles, type TeamNode } from '../../scripts/team-nodes.ts';

if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: the team tests on PostgreSQL are skipped.');

const LEASE_MS = 3_000;
const MONITOR = { settleMs: 100, checkIntervalMs: 300, rescanIntervalMs: 2_000 };

interface NodeEntry {
  name: string;
  live: boolean;
  self: boolean;
  lastHeartbeatAt: string;
  interfaces: string[];
}

/** A fresh schema and folder of this test, removed with every node started on them when the test ends. */
async function freshTeam() {
  const schema = await freshPostgresSchema(testPostgresUrl!);
  const root = mkdtempSync(join(tmpdir(), 'wb-team-'));
  const nodes: TeamNode[] = [];
  onTestFinished(async () => {
    await Promise.all(nodes.map((node) => stopNode(node)));
    await schema.drop();
    rmSync(root, { recursive: true, force: true });
  });
  return {
    url: schema.url,
    async start(name: string): Promise<TeamNode> {
      const node = await startTeamNode({ root, name, storageUrl: schema.url, leaseMs: LEASE_MS, monitor: MONITOR });
      nodes.push(node);
      return node;
    },
    folder(name: string): string {
      const path = join(root, 'folders', name);
      mkdirSync(path, { recursive: true });
      return path;
    },
  };
}

async function nodesSeenBy(node: TeamNode): Promise<NodeEntry[]> {
  return (await callNode(node, 'GET', '/api/monitor/nodes')).data as NodeEntry[];
}

async function ownerOf(node: TeamNode, id: string): Promise<string | null> {
  return (await callNode(node, 'GET', `/api/monitor/interfaces/${id}`)).data.owner?.node ?? null;
}

async function ownHeartbeat(node: TeamNode): Promise<string> {
  const self = (await nodesSeenBy(node)).find((entry) => entry.self);
  if (!self) throw new Error(`${node.name} does not list itself`);
  return self.lastHeartbeatAt;
}

/**
 * Resolves once each node reported two heartbeats after the call (an ownership round, which follows a heartbeat, then
 * ran after everything before the call) and answered a rescan at rest: files present before are all counted, and
 * nothing is still settling, queued or being committed anywhere.
 */
async function atRest(nodes: TeamNode[]): Promise<void> {
  await Promise.all(
    nodes.map(async (node) => {
      for (let beat = 0; beat < 2; beat++) {
        const before = await ownHeartbeat(node);
        await vi.waitFor(async () => expect(await ownHeartbeat(node)).not.toBe(before), { timeout: LEASE_MS + 10_000, interval: 100 });
      }
    }),
  );
  for (const node of nodes) await quiesceMonitor(node.monitorUrl);
}

/** Waits until every node lists `count` interfaces. */
async function allSee(nodes: TeamNode[], count: number): Promise<void> {
  for (const node of nodes) {
    await vi.waitFor(async () => expect((await callNode(node, 'GET', '/api/monitor/interfaces')).data).toHaveLength(count), { timeout: 10_000, interval: 100 });
  }
}

async function waitForMessages(url: string, id: string, count: number, timeout: number): Promise<void> {
  await expect.poll(async () => (await storedCounts(url, id)).messages, { timeout, interval: 200 }).toBeGreaterThanOrEqual(count);
}

describe.skipIf(!testPostgresUrl)('a team on one PostgreSQL store', () => {
  it('two nodes starting together on an empty database both come up; 2,000 files of a shared interface are counted once', async () => {
    const team = await freshTeam();
    const [a, b] = await Promise.all([team.start('node-a'), team.start('node-b')]);
    const listed = await nodesSeenBy(a);
    expect(listed.filter((node) => node.live).map((node) => node.name).sort()).toEqual(['node-a', 'node-b']);
    expect(listed.find((node) => node.self)?.name).toBe('node-a');

    const dir = team.folder('shared');
    const created = await callNode(a, 'POST', '/api/monitor/interfaces', { name: 'shared feed', directoryPath: dir, placement: 'any' });
    expect(created.status).toBe(201);
    expect(created.data.placement).toBe('any');
    expect(created.data.owner.node).toBe('node-a');
    const id = created.data.id as string;
    // node b learns of the interface at its next heartbeat; both then run while the files arrive
    await allSee([b], 1);
    for (let i = 0; i < 2_000; i += 200) writeMessageFiles(dir, 'n', i, 200);
    await waitForMessages(team.url, id, 2_000, 180_000);
    // both nodes at rest after another ownership round: nothing was counted again
    await atRest([a, b]);
    expect(await storedCounts(team.url, id)).toEqual({ messages: 2_000, files: 2_000, paths: 2_000 });
    // both nodes name the same single owner
    const owner = await ownerOf(a, id);
    expect(owner).not.toBeNull();
    expect(await ownerOf(b, id)).toBe(owner);
    expect((await nodesSeenBy(b)).flatMap((node) => node.interfaces)).toEqual([id]);
    // nothing was logged as a failed batch or a duplicate key
    expect(a.output()).not.toMatch(/duplicate key|could not commit a batch/);
    expect(b.output()).not.toMatch(/duplicate key|could not commit a batch/);
  }, 300_000);

  it('kill -9 of the owner mid-ingest: another node takes over within the lease and every file is counted once', async () => {
    const team = await freshTeam();
    const first = await team.start('node-c');
    const second = await team.start('node-d');
    const dir = team.folder('failover');
    const created = await callNode(first, 'POST', '/api/monitor/interfaces', { name: 'failover feed', directoryPath: dir, placement: 'any' });
    expect(created.status).toBe(201);
    const id = created.data.id as string;
    await allSee([first, second], 1);
    writeMessageFiles(dir, 'f', 0, 600);
    await waitForMessages(team.url, id, 100, 120_000);
    const ownerName = await ownerOf(first, id);
    expect([first.name, second.name]).toContain(ownerName);
    const [owner, survivor] = ownerName === first.name ? [first, second] : [second, first];
    await killNode(owner);
    const killedAt = Date.now();
    writeMessageFiles(dir, 'f', 600, 600);
    await expect.poll(() => ownerOf(survivor, id), { timeout: LEASE_MS + 10_000, interval: 100 }).toBe(survivor.name);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 10_000);
    await waitForMessages(team.url, id, 1_200, 180_000);
    await atRest([survivor]);
    expect(await storedCounts(team.url, id)).toEqual({ messages: 1_200, files: 1_200, paths: 1_200 });
    expect((await nodesSeenBy(survivor)).find((node) => node.name === ownerName)?.live).toBe(false);
  }, 420_000);

  it('an interface pinned to one node is watched and alerted on by that node only', async () => {
    const team = await freshTeam();
    const home = await team.start('node-e');
    const other = await team.start('node-f');
    const dir = team.folder('pinned');
    const created = await callNode(home, 'POST', '/api/monitor/interfaces', { name: 'pinned feed', directoryPath: dir });
    expect(created.data).toMatchObject({ placement: 'pinned', pinnedNode: home.name, owner: { node: home.name } });
    const id = created.data.id as string;
    await vi.waitFor(async () => expect((await callNode(other, 'GET', `/api/monitor/interfaces/${id}`)).status).toBe(200), { timeout: 10_000, interval: 100 });
    // the folder goes away: one critical alert, raised by its own node
    rmSync(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: team.url });
    await client.connect();
    try {
      const openAlerts = async () =>
        Number((await client.query<{ n: string }>("select count(*) as n from monitor_alerts where interface_id = $1 and rule = 'folder-unreachable'", [id])).rows[0].n);
      await expect.poll(openAlerts, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(1);
      // both nodes ran an ownership round, a whole check and its rule evaluations since: still the one alert
      await atRest([home, other]);
      expect(await openAlerts()).toBe(1);
    } finally {
      await client.end();
    }
    expect(await ownerOf(other, id)).toBe(home.name);
    // every node answers its status from the owner's record; once its node is gone, nobody takes it over
    const statusOn = async (node: TeamNode) =>
      ((await callNode(node, 'GET', '/api/monitor/status')).data.interfaces as Array<{ interfaceId: string; state: string; reason: string }>).find((entry) => entry.interfaceId === id);
    await vi.waitFor(
      async () => {
        const status = await statusOn(other);
        expect(status?.state).toBe('down');
        expect(status?.reason).toContain('does not exist');
      },
      { timeout: 10_000, interval: 100 },
    );
    await stopNode(home);
    await expect.poll(async () => (await statusOn(other))?.reason, { timeout: 10_000, interval: 100 }).toContain(`pinned to node ${home.name}`);
    expect(await ownerOf(other, id)).toBeNull();
  }, 120_000);
});

describe.skipIf(!testPostgresUrl)('scheduled jobs on a team', () => {
  it('a job scheduled on two nodes runs once per occurrence', async () => {
    const schema = await freshPostgresSchema(testPostgresUrl!);
    const started: TestWorkbench[] = [];
    try {
      for (const name of ['jobs-a', 'jobs-b']) {
        started.push(await startTestWorkbench({ config: { storage: { url: schema.url }, node: { name, leaseMs: LEASE_MS } } }));
      }
      // each run records the occurrence (the second) it belongs to
      const runs: string[] = [];
      for (const wb of started) {
        resolveService(wb.workbench.container, TOKENS.Scheduler).schedule('team-test:tick', '* * * * * *', () => {
          runs.push(slotOf('* * * * * *', Date.now()));
        });
      }
      await expect.poll(() => runs.length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(3);
      // no occurrence ran on both nodes
      expect(new Set(runs).size).toBe(runs.length);
      // the job keeps ticking: the runs so far, each claimed before it ran, are all in the table by now
      const ranSoFar = runs.length;
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      const claimed = await client.query<{ node: string }>("select node from kernel_job_runs where job = 'team-test:tick'");
      await client.end();
      expect(claimed.rows.length).toBeGreaterThanOrEqual(ranSoFar);
    } finally {
      for (const wb of started) await wb.stop();
      await schema.drop();
    }
  }, 60_000);
});
