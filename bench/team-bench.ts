/**
 * Team bench (`npm run bench -- team`): several workbench nodes on one PostgreSQL store, each a real `workbench
 * start` process (scripts/team-nodes.ts), on the test server (WORKBENCH_TEST_POSTGRES_URL; skipped with a notice
 * without it), each scenario in a fresh schema.
 *
 * - Throughput: 10 interfaces of placement `any`, WORKBENCH_BENCH_TEAM_FILES files each (default 3,000, one ADT
 *   message per file), written beforehand beside the folders and renamed in once the interfaces are placed; the
 *   clock runs from the first file delivered to the store holding every message. Two nodes (the interfaces spread
 *   five and five) beside one node owning all ten, as a ratio of the medians of WORKBENCH_BENCH_TEAM_ROUNDS rounds
 *   (default 3; one node and two nodes take turns) (goal >= 1.2x on a 2-core machine where both nodes and the
 *   database share the cores).
 * - Failover: with two nodes, the owner of an interface is killed (kill -9) and files keep arriving in its folder;
 *   the time from the kill to the first of them counted by the new owner, beside the lease plus 5 s (the goal).
 *   Lease here WORKBENCH_BENCH_TEAM_LEASE_MS (default 10 s; the shipped default is 30 s).
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshPostgresSchema } from '../test/helpers/postgres-schema.ts';
import {
  callNode,
  killNode,
  startTeamNode,
  stopNode,
  until,
  writeMessageFiles,
  type TeamNode,
} from '../scripts/team-nodes.ts';
import { median, round } from './timing.ts';

const INTERFACES = 10;
const FILES = Number(process.env.WORKBENCH_BENCH_TEAM_FILES ?? 3_000);
const ROUNDS = Number(process.env.WORKBENCH_BENCH_TEAM_ROUNDS ?? 3);
const LEASE_MS = Number(process.env.WORKBENCH_BENCH_TEAM_LEASE_MS ?? 10_000);
const MONITOR = { settleMs: 100, checkIntervalMs: 1_000 };

interface Team {
  nodes: TeamNode[];
  storageUrl: string;
  root: string;
  ids: string[];
  folders: string[];
  /** The connection the counts are asked on. */
  counter?: Promise<pg.Client>;
  close(): Promise<void>;
}

/** Starts `count` nodes on a fresh schema and creates the interfaces on the first; waits until they are spread. */
async function startTeam(url: string, count: number): Promise<Team> {
  const schema = await freshPostgresSchema(url);
  const root = mkdtempSync(join(tmpdir(), 'wb-team-bench-'));
  const nodes: TeamNode[] = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => stopNode(node)));
    await schema.drop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) nodes.push(await startTeamNode({ root, name: `bench-${i}`, storageUrl: schema.url, leaseMs: LEASE_MS, monitor: MONITOR }));
    const ids: string[] = [];
    const folders: string[] = [];
    for (let i = 0; i < INTERFACES; i++) {
      const folder = join(root, 'folders', `feed-${i}`);
      mkdirSync(folder, { recursive: true });
      const created = await callNode(nodes[0], 'POST', '/api/monitor/interfaces', { name: `feed ${i}`, directoryPath: folder, placement: 'any' });
      if (created.status !== 201) throw new Error(`creating an interface: HTTP ${created.status}`);
      ids.push(created.data.id as string);
      folders.push(folder);
    }
    const share = Math.ceil(INTERFACES / count);
    await until('the interfaces to spread over the nodes', 60_000 + 3 * LEASE_MS, async () => {
      const listed = (await callNode(nodes[0], 'GET', '/api/monitor/nodes')).data as Array<{ live: boolean; interfaces: string[] }>;
      const owned = listed.filter((node) => node.live).map((node) => node.interfaces.length);
      return owned.length === count && owned.every((n) => n === share) && owned.reduce((a, b) => a + b, 0) === INTERFACES;
    });
    const team: Team = {
      nodes,
      storageUrl: schema.url,
      root,
      ids,
      folders,
      close: async () => {
        await (await team.counter)?.end();
        await close();
      },
    };
    return team;
  } catch (error) {
    await close();
    throw error;
  }
}

/** The connection the bench asks its counts on (one: polling must not load the database it measures). */
function counterOf(team: Team): Promise<pg.Client> {
  team.counter ??= (async () => {
    const client = new pg.Client({ connectionString: team.storageUrl });
    await client.connect();
    return client;
  })();
  return team.counter;
}

/** Messages stored, of one interface or all. */
async function counted(team: Team, interfaceId?: string): Promise<number> {
  const client = await counterOf(team);
  const result = interfaceId
    ? await client.query<{ n: string }>('select count(*) as n from monitor_messages where interface_id = $1', [interfaceId])
    : await client.query<{ n: string }>('select count(*) as n from monitor_messages');
  return Number(result.rows[0].n);
}

/**
 * Files per second from the first file delivered to every message stored. The files are written beforehand into a
 * staging folder beside each watched one and delivered by renaming them in (one cheap call each, the way many
 * senders deliver: write elsewhere, then move in), so the clock measures the nodes' ingest, not this process
 * creating and writing 10,000 files on the same two cores.
 */
async function ingest(team: Team): Promise<number> {
  const staged = team.folders.map((folder) => {
    const staging = `${folder}.staging`;
    mkdirSync(staging, { recursive: true });
    writeMessageFiles(staging, 'm', 0, FILES);
    return { staging, folder, names: readdirSync(staging) };
  });
  const started = performance.now();
  for (let i = 0; i < FILES; i += 100) {
    for (const { staging, folder, names } of staged) {
      for (const name of names.slice(i, i + 100)) renameSync(join(staging, name), join(folder, name));
    }
  }
  const expected = INTERFACES * FILES;
  await until(`${expected} messages`, 600_000, async () => (await counted(team)) >= expected);
  const seconds = (performance.now() - started) / 1000;
  const stored = await counted(team);
  if (stored !== expected) throw new Error(`${stored} messages stored for ${expected} files`);
  return expected / seconds;
}

/** Seconds from kill -9 of an interface's owner to the first new file of it counted by another node. */
async function failover(team: Team): Promise<number> {
  const id = team.ids[0];
  const owner = (await callNode(team.nodes[0], 'GET', `/api/monitor/interfaces/${id}`)).data.owner.node as string;
  const victim = team.nodes.find((node) => node.name === owner)!;
  const before = await counted(team, id);
  await killNode(victim);
  const killedAt = performance.now();
  let next = FILES;
  // a file every 100 ms, as a live feed would keep arriving
  const feed = setInterval(() => writeMessageFiles(team.folders[0], 'm', next++, 1), 100);
  try {
    await until('the first file counted by the new owner', LEASE_MS + 60_000, async () => (await counted(team, id)) > before);
  } finally {
    clearInterval(feed);
  }
  return (performance.now() - killedAt) / 1000;
}

/** Runs the bench; figures as named in the file comment. */
export async function runTeamBench(): Promise<Record<string, number>> {
  const url = process.env.WORKBENCH_TEST_POSTGRES_URL;
  if (!url) {
    console.log('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: the team bench needs a PostgreSQL server; skipped.');
    return {};
  }
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const oneRates: number[] = [];
  const twoRates: number[] = [];
  let failoverSeconds = 0;
  // one node and two nodes take turns, so a disturbance of the shared machine falls on both alike
  for (let roundNo = 1; roundNo <= ROUNDS; roundNo++) {
    const one = await startTeam(url, 1);
    try {
      oneRates.push(await ingest(one));
    } finally {
      await one.close();
    }
    const two = await startTeam(url, 2);
    try {
      twoRates.push(await ingest(two));
      if (roundNo === ROUNDS) failoverSeconds = await failover(two);
    } finally {
      await two.close();
    }
    console.log(`round ${roundNo}: one node ${round(oneRates.at(-1)!, 0)} files/s, two nodes ${round(twoRates.at(-1)!, 0)} files/s (load ${load()})`);
  }
  const oneRate = median(oneRates);
  const twoRate = median(twoRates);
  console.log(`one node, ${INTERFACES} interfaces x ${FILES} files: ${round(oneRate, 0)} files/s, median of ${ROUNDS}`);
  console.log(`two nodes, five interfaces each: ${round(twoRate, 0)} files/s, median of ${ROUNDS}; ratio ${round(twoRate / oneRate, 2)}x (goal >= 1.2x)`);
  console.log(
    `failover, kill -9 to the first file counted by the new owner: ${round(failoverSeconds, 1)} s beside lease + 5 s = ${round(LEASE_MS / 1000 + 5, 1)} s (load ${load()})`,
  );
  return {
    oneNodeFilesPerSecond: round(oneRate, 0),
    twoNodesFilesPerSecond: round(twoRate, 0),
    twoNodesRatio: round(twoRate / oneRate, 2),
    failoverSeconds: round(failoverSeconds, 1),
    leaseSeconds: LEASE_MS / 1000,
  };
}
