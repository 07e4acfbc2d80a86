// A team on one PostgreSQL store: real `workbench start` processes, each a node with its own name and data folder.
// Files of a shared interface are counted exactly once while several nodes run and when the owner is killed
// (kill -9) mid-ingest; an interface pinned to a node raises nothing on another; nodes starting together on an
// empty database all come up; a scheduled job runs once per occurrence across nodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { slotOf } from '../../kernel/cluster/job-claims.ts';
import {
  callNode,
  killNode,
  startTeamNode,
  stopNode,
  storedCounts,
  until,
  writeMessageFiles,
  type TeamNode,
} from '../../scripts/team-nodes.ts';

if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: the team tests on PostgreSQL are skipped.');

const LEASE_MS = 3_000;
const MONITOR = { settleMs: 100, checkIntervalMs: 300, rescanIntervalMs: 2_000 };

describe.skipIf(!testPostgresUrl)('a team on one PostgreSQL store', () => {
  let schema: { url: string; drop(): Promise<void> };
  let root: string;
  const nodes: TeamNode[] = [];

  const start = async (name: string) => {
    const node = await startTeamNode({ root, name, storageUrl: schema.url, leaseMs: LEASE_MS, monitor: MONITOR });
    nodes.push(node);
    return node;
  };
  const folder = (name: string) => {
    const path = join(root, 'folders', name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const ownerOf = async (node: TeamNode, id: string): Promise<string | null> => (await callNode(node, 'GET', `/api/monitor/interfaces/${id}`)).data.owner?.node ?? null;

  beforeAll(async () => {
    schema = await freshPostgresSchema(testPostgresUrl!);
    root = mkdtempSync(join(tmpdir(), 'wb-team-'));
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => stopNode(node)));
    await schema.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('two nodes starting together on an empty database both come up; 2,000 files of a shared interface are counted once', async () => {
    const [a, b] = await Promise.all([start('node-a'), start('node-b')]);
    const listed = (await callNode(a, 'GET', '/api/monitor/nodes')).data as Array<{ name: string; live: boolean; self: boolean }>;
    expect(listed.filter((node) => node.live).map((node) => node.name).sort()).toEqual(['node-a', 'node-b']);
    expect(listed.find((node) => node.self)?.name).toBe('node-a');

    const dir = folder('shared');
    const created = await callNode(a, 'POST', '/api/monitor/interfaces', { name: 'shared feed', directoryPath: dir, placement: 'any' });
    expect(created.status).toBe(201);
    expect(created.data.placement).toBe('any');
    expect(created.data.owner.node).toBe('node-a');
    const id = created.data.id as string;
    // node b learns of the interface at its next heartbeat; both then run while the files arrive
    await until('node b to see the interface', 10_000, async () => (await callNode(b, 'GET', '/api/monitor/interfaces')).data.length === 1);
    for (let i = 0; i < 2_000; i += 200) writeMessageFiles(dir, 'n', i, 200);
    await until('2,000 messages', 120_000, async () => (await storedCounts(schema.url, id)).messages >= 2_000);
    // a few rounds more: nothing is counted again
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    expect(await storedCounts(schema.url, id)).toEqual({ messages: 2_000, files: 2_000, paths: 2_000 });
    // both nodes name the same single owner
    const owners = [await ownerOf(a, id), await ownerOf(b, id)];
    expect(owners[0]).not.toBeNull();
    expect(owners[1]).toBe(owners[0]);
    const fromB = (await callNode(b, 'GET', '/api/monitor/nodes')).data as Array<{ name: string; interfaces: string[] }>;
    expect(fromB.flatMap((node) => node.interfaces)).toEqual([id]);
    // nothing was logged as a failed batch or a duplicate key
    for (const node of [a, b]) expect(node.output()).not.toMatch(/duplicate key|could not commit a batch/);
  }, 240_000);

  it('kill -9 of the owner mid-ingest: another node takes over within the lease and every file is counted once', async () => {
    const c = await start('node-c');
    const alive = nodes.filter((node) => node.child.exitCode === null && node.child.signalCode === null);
    const dir = folder('failover');
    const created = await callNode(c, 'POST', '/api/monitor/interfaces', { name: 'failover feed', directoryPath: dir, placement: 'any' });
    const id = created.data.id as string;
    await until('all three nodes to see the interface', 10_000, async () => {
      for (const node of alive) if ((await callNode(node, 'GET', '/api/monitor/interfaces')).data.length !== 2) return false;
      return true;
    });
    writeMessageFiles(dir, 'f', 0, 600);
    await until('part of the files counted', 60_000, async () => (await storedCounts(schema.url, id)).messages >= 100);
    const ownerName = await ownerOf(c, id);
    const owner = alive.find((node) => node.name === ownerName)!;
    await killNode(owner);
    const killedAt = Date.now();
    writeMessageFiles(dir, 'f', 600, 600);
    const survivor = alive.find((node) => node !== owner)!;
    await until('another node to own the interface', LEASE_MS + 10_000, async () => {
      const now = await ownerOf(survivor, id);
      return now !== null && now !== ownerName;
    });
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 10_000);
    await until('1,200 messages', 120_000, async () => (await storedCounts(schema.url, id)).messages >= 1_200);
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    expect(await storedCounts(schema.url, id)).toEqual({ messages: 1_200, files: 1_200, paths: 1_200 });
    const listed = (await callNode(survivor, 'GET', '/api/monitor/nodes')).data as Array<{ name: string; live: boolean }>;
    expect(listed.find((node) => node.name === ownerName)?.live).toBe(false);
  }, 300_000);

  it('an interface pinned to one node is watched and alerted on by that node only', async () => {
    const alive = nodes.filter((node) => node.child.exitCode === null && node.child.signalCode === null);
    const [home, other] = alive;
    const dir = folder('pinned');
    const created = await callNode(home, 'POST', '/api/monitor/interfaces', { name: 'pinned feed', directoryPath: dir });
    expect(created.data).toMatchObject({ placement: 'pinned', pinnedNode: home.name, owner: { node: home.name } });
    const id = created.data.id as string;
    await until('the other node to see it', 10_000, async () => (await callNode(other, 'GET', `/api/monitor/interfaces/${id}`)).status === 200);
    // the folder goes away: one critical alert, raised by its own node
    rmSync(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      const openAlerts = async () =>
        Number((await client.query<{ n: string }>("select count(*) as n from monitor_alerts where interface_id = $1 and rule = 'folder-unreachable'", [id])).rows[0].n);
      await until('the unreachable-folder alert', 20_000, async () => (await openAlerts()) >= 1);
      await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
      expect(await openAlerts()).toBe(1);
    } finally {
      await client.end();
    }
    expect(await ownerOf(other, id)).toBe(home.name);
    // every node answers its status from the owner's record; once its node is gone, nobody takes it over
    const statusOn = async (node: TeamNode) =>
      ((await callNode(node, 'GET', '/api/monitor/status')).data.interfaces as Array<{ interfaceId: string; state: string; reason: string }>).find((entry) => entry.interfaceId === id);
    await until('the other node to show it down with the owner\'s reason', 10_000, async () => {
      const status = await statusOn(other);
      return status?.state === 'down' && status.reason.includes('does not exist');
    });
    await stopNode(home);
    await until('the other node to say its node is gone', 10_000, async () => (await statusOn(other))?.reason.includes(`pinned to node ${home.name}`) === true);
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
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      expect(runs.length).toBeGreaterThanOrEqual(3);
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
