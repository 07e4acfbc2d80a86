/**
 * `npm run soak` (`node --import tsx scripts/soak.ts`): the shared process for a set time under everything at once.
 * A real `workbench start` child on a PostgreSQL store of its own (a cluster this script creates, never the
 * machine's server) watches a folder while files arrive at full speed and dashboard clients poll and validate (the
 * load child of `npm run bench -- load`); meanwhile the service is killed with SIGKILL and started again several
 * times, and the PostgreSQL server is stopped for a while and started again. Faults beside them (scripts/soak-faults.ts):
 * a file with a NUL in MSH-10 and PID-3 on an interface of its own (counted, and gaps keep answering), an interface
 * deleted while the load runs, and a minute with the data folder's disk full (a small tmpfs, when mounting is allowed)
 * while refused credentials make the audit trail write. This process only probes
 * `GET /api/health`. At the end every file must be counted exactly once. Prints one JSON line: files written,
 * counted, lost, double-counted, failed requests (outside the planned kills and outage, and during them: a request
 * counts as caught by one when the time from sending it to its failure overlaps it, every failure counted), health
 * p99 outside them, restarts needed beyond the planned kills (a process that ended on its own), and the outcome of
 * each fault. Failures outside the windows are also logged by kind, cause and time.
 *
 * Settings (environment): SOAK_SECONDS (180), SOAK_KILLS (3), SOAK_OUTAGE_SECONDS (20), SOAK_POLLERS (50),
 * SOAK_VALIDATORS (10), SOAK_FILES_PER_SECOND (0: full speed), SOAK_FULL_DISK_SECONDS (60; 0 skips it). Exit code 1
 * when a file was lost or counted twice, a restart was needed, the NUL file was not counted or stopped gaps answering,
 * the deleted interface stayed, or the full disk was not reported in health or not recovered from.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { serviceCliArgs } from '../test/helpers/cli-process.ts';
import { startOwnPostgres, type OwnPostgres } from '../test/helpers/own-postgres.ts';
import { envNumber, percentile, postJson, timedGet, type LoadOutcome } from '../bench/load-http.ts';
import { adtMessage, call, fillDisk, healthConditions, mountSmallDisk, writeNulFile } from './soak-faults.ts';

const here = dirname(fileURLToPath(import.meta.url));

const seconds = envNumber('SOAK_SECONDS', 180);
const kills = envNumber('SOAK_KILLS', 3);
const outageSeconds = envNumber('SOAK_OUTAGE_SECONDS', 20);
const pollers = envNumber('SOAK_POLLERS', 50);
const validators = envNumber('SOAK_VALIDATORS', 10);
const filesPerSecond = envNumber('SOAK_FILES_PER_SECOND', 0);
const fullDiskSeconds = envNumber('SOAK_FULL_DISK_SECONDS', 60);
const log = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The service child: started, killed, and restarted when it ended on its own. */
class Service {
  child: ChildProcess | undefined;
  /** Exits nobody asked for. */
  unplannedExits = 0;
  private planned = false;
  output = '';

  constructor(private readonly configPath: string) {}

  start(): void {
    this.planned = false;
    const child = spawn(process.execPath, [...serviceCliArgs, 'start', '--config', this.configPath], {
      env: { ...process.env, WORKBENCH_LOG_LEVEL: process.env.WORKBENCH_LOG_LEVEL ?? 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-65_536);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code, signal) => {
      if (this.planned || this.child !== child) return;
      this.unplannedExits++;
      log(`the service ended on its own (${signal ?? code}); starting it again. Log tail:\n${this.output.slice(-2000)}`);
      this.start();
    });
    this.child = child;
  }

  /** SIGKILL, then waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.planned = true;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.planned = true;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

async function waitHealthy(url: string, limitMs = 180_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if ((await timedGet(url, undefined, 5_000)).status === 200) return;
    await sleep(200);
  }
  throw new Error(`no healthy answer from ${url} within ${limitMs / 1000} s`);
}

let server: OwnPostgres | undefined;
let service: Service | undefined;
const root = mkdtempSync(join(tmpdir(), 'wb-soak-'));
// The data folder on a disk of its own that the full-disk minute fills (the store is PostgreSQL, elsewhere).
const smallDisk = fullDiskSeconds > 0 ? mountSmallDisk(root, 16) : undefined;
if (fullDiskSeconds > 0 && !smallDisk) log('[notice] mounting a tmpfs is not allowed here: the full-disk minute is skipped');
try {
  server = await startOwnPostgres();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query('create database store');
  await admin.end();
  const storeUrl = server.url.replace(/\/postgres$/, '/store');
  const folder = join(root, 'watched');
  mkdirSync(folder);
  // Fixed ports, so the addresses stay the same across restarts.
  const ports = { bridge: await freePort(), monitor: await freePort(), population: await freePort() };
  const configPath = join(root, 'config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      dataDir: join(smallDisk?.folder ?? root, 'data'),
      storage: { url: storeUrl },
      servers: { bridge: { port: ports.bridge }, monitor: { port: ports.monitor }, population: { port: ports.population } },
      plugins: { monitor: { settleMs: 200, checkIntervalMs: 500 } },
    }),
  );
  const monitorUrl = `http://127.0.0.1:${ports.monitor}`;
  const bridgeUrl = `http://127.0.0.1:${ports.bridge}`;
  const healthUrl = `${monitorUrl}/api/health`;
  service = new Service(configPath);
  service.start();
  await waitHealthy(healthUrl);
  const created = await postJson(`${monitorUrl}/api/monitor/interfaces`, { name: 'soak', directoryPath: folder });
  if (created.status !== 201) throw new Error(`interface not created: ${JSON.stringify(created.json)}`);
  const interfaceId = created.json.data.id as string;
  // The NUL file, on an interface of its own so the main count stays exact.
  const nulFolder = join(root, 'nul');
  mkdirSync(nulFolder);
  const nulInterface = await postJson(`${monitorUrl}/api/monitor/interfaces`, { name: 'soak-nul', directoryPath: nulFolder });
  const nulInterfaceId = nulInterface.json?.data?.id as string;
  writeNulFile(nulFolder);
  // An interface deleted while the load runs, once its files are counted.
  const doomedFolder = join(root, 'deleted');
  mkdirSync(doomedFolder);
  const doomed = await postJson(`${monitorUrl}/api/monitor/interfaces`, { name: 'soak-deleted', directoryPath: doomedFolder });
  const doomedId = doomed.json?.data?.id as string;
  for (let n = 0; n < 3; n++) writeFileSync(join(doomedFolder, `doomed-${n}.hl7`), `${adtMessage(`doomed-${n}`, `PAT-DOOMED-${n}`)}\r`);
  log(`service up, ${seconds} s with ${kills} kills and a ${outageSeconds} s store outage; files at ${filesPerSecond || 'full'} speed`);

  // The load: its own process, for the whole run, through every kill and the outage.
  const plan = { monitorUrl, bridgeUrl, interfaceId, folder, seconds, pollers, validators, filesPerSecond, prefix: 'soak' };
  const load = spawn(process.execPath, ['--import', 'tsx', join(here, '..', 'bench', 'servers', 'load-clients.ts'), JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let loadOutput = '';
  load.stdout.on('data', (chunk: Buffer) => (loadOutput += chunk.toString()));
  const loadEnded = new Promise<void>((resolve) => load.once('exit', () => resolve()));
  const started = Date.now();

  // Planned disruptions: windows during which failures are expected.
  const windows: Array<{ from: number; to: number }> = [];
  const faults = { interfaceDeleted: false, fullDisk: smallDisk ? { degraded: false, recovered: false } : ('skipped' as const) };
  const disruptions = (async () => {
    // the deletion first, while the load runs
    const doomedCounted = Date.now() + 60_000;
    while (Date.now() < doomedCounted) {
      const metrics = await call('GET', `${monitorUrl}/api/monitor/interfaces/${doomedId}/metrics?sinceHours=2`);
      if ((metrics.json?.data?.messagesTotal ?? 0) >= 3) break;
      await sleep(500);
    }
    const deleted = await call('DELETE', `${monitorUrl}/api/monitor/interfaces/${doomedId}`);
    const gone = await call('GET', `${monitorUrl}/api/monitor/interfaces/${doomedId}`);
    faults.interfaceDeleted = deleted.status < 300 && gone.status === 404;
    log(`interface deleted during the load: ${deleted.status}, then ${gone.status}`);
    const slots = kills + 2;
    for (let k = 0; k < kills; k++) {
      await sleep(Math.max(0, started + ((k + 1) * seconds * 1000) / slots - Date.now()));
      const from = Date.now();
      log(`kill -9 number ${k + 1}`);
      await service?.kill();
      service?.start();
      await waitHealthy(healthUrl);
      windows.push({ from, to: Date.now() });
    }
    if (outageSeconds > 0) {
      await sleep(Math.max(0, started + ((kills + 1) * seconds * 1000) / slots - Date.now()));
      const from = Date.now();
      log('PostgreSQL store stopped');
      await server?.stop('immediate');
      await sleep(outageSeconds * 1000);
      await server?.start();
      log('PostgreSQL store started again');
      await waitHealthy(healthUrl);
      windows.push({ from, to: Date.now() });
    }
    if (smallDisk && typeof faults.fullDisk === 'object') {
      // The full-disk minute: refused credentials are audited, whose checkpoint cannot be written.
      log(`data folder's disk full for ${fullDiskSeconds} s`);
      const filler = fillDisk(smallDisk.folder);
      const until = Date.now() + fullDiskSeconds * 1000;
      while (Date.now() < until) {
        await call('GET', `${monitorUrl}/api/monitor/audit/verify`, { authorization: 'Bearer wbk_soakfull_0000000000000000' });
        const health = await healthConditions(healthUrl);
        if (health.status === 'degraded' && health.keys.includes('storage-full')) faults.fullDisk.degraded = true;
        await sleep(1_000);
      }
      rmSync(filler, { force: true });
      log('space returned');
      const recovery = Date.now() + 60_000;
      while (Date.now() < recovery && !faults.fullDisk.recovered) {
        faults.fullDisk.recovered = (await healthConditions(healthUrl)).status === 'healthy';
        if (!faults.fullDisk.recovered) await sleep(500);
      }
    }
  })();

  // Health, one probe at a time, for the whole run.
  const probes: Array<{ at: number; ms: number; ok: boolean }> = [];
  let loadDone = false;
  void loadEnded.then(() => (loadDone = true));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (!loadDone) {
    const answer = await timedGet(healthUrl, agent, 10_000);
    probes.push({ at: Date.now(), ms: answer.ms, ok: answer.status === 200 });
    await sleep(50);
  }
  agent.destroy();
  await disruptions;
  const result = JSON.parse(loadOutput.trim().split('\n').at(-1) ?? '{}') as {
    filesWritten: number;
    outcomes: Record<string, LoadOutcome>;
    /** Failed requests by when sent and when failed, kind and cause (key: `<sent> <failed> <kind> <cause>`, epoch ms). */
    failuresByBucket: Record<string, number>;
    failureBucketMs: number;
  };

  // Counting catches up after the load (up to five minutes).
  const store = new pg.Client({ connectionString: storeUrl });
  await store.connect();
  const count = async () =>
    (
      await store.query(
        `select count(*)::int as rows, count(distinct path)::int as paths from monitor_files where interface_id = $1`,
        [interfaceId],
      )
    ).rows[0] as { rows: number; paths: number };
  const catchUp = Date.now() + 300_000;
  let counted = await count();
  while (counted.paths < result.filesWritten && Date.now() < catchUp) {
    await sleep(1_000);
    counted = await count();
  }
  const nulCounted = (
    await store.query(`select count(*)::int as messages from monitor_messages where interface_id = $1`, [nulInterfaceId])
  ).rows[0] as { messages: number };
  const gapsStatus = (await call('GET', `${monitorUrl}/api/monitor/gaps`)).status;
  const nulTraced = (await call('GET', `${monitorUrl}/api/monitor/traces?patient_id=PAT-NUL-CLEAN`)).status;
  const messages = (
    await store.query(`select count(*)::int as rows, count(distinct control_id)::int as ids from monitor_messages where control_id like 'soak-%'`)
  ).rows[0] as { rows: number; ids: number };
  await store.end();

  const inWindow = (at: number) => windows.some((w) => at >= w.from && at <= w.to + 2_000);
  const steady = probes.filter((p) => !inWindow(p.at));
  const latencies = steady.map((p) => p.ms).sort((a, b) => a - b);
  const requests = Object.values(result.outcomes).reduce((n, o) => n + o.ok + o.failed, 0);
  // A request a planned window caught is one whose time from sending to failing (bucketed) overlaps the window: one
  // in flight when the service was killed fails just after, one sent during the outage may time out long after it.
  let failedOutside = 0;
  let failedInside = 0;
  const outsideBy = new Map<string, number>();
  for (const [key, failed] of Object.entries(result.failuresByBucket)) {
    const [sent, ended, kind, cause] = key.split(' ');
    const from = Number(sent);
    const to = Number(ended) + result.failureBucketMs;
    if (windows.some((w) => from <= w.to + 2_000 && to >= w.from)) {
      failedInside += failed;
      continue;
    }
    failedOutside += failed;
    // where it fell: seconds after the start of the run, or after the end of the last window before it
    const before = windows.filter((w) => w.from <= from).at(-1);
    const where = before ? `sent ${((from - before.to) / 1000).toFixed(1)} s after a window` : `sent ${((from - started) / 1000).toFixed(1)} s into the run`;
    const what = `${kind} ${cause}, ${where}`;
    outsideBy.set(what, (outsideBy.get(what) ?? 0) + failed);
  }
  for (const [what, failed] of [...outsideBy].sort((a, b) => b[1] - a[1]).slice(0, 20)) log(`failed outside the planned windows: ${failed} x ${what}`);
  for (const [kind, o] of Object.entries(result.outcomes)) {
    log(`${kind}: ${o.ok} answered, ${o.failed} failed (${o.resets} resets, ${o.timeouts} time-outs, ${o.non2xx} not 2xx), slowest ${Math.round(o.maxMs)} ms`);
  }
  const figures = {
    seconds,
    kills,
    outageSeconds,
    filesWritten: result.filesWritten,
    filesCounted: counted.paths,
    lost: Math.max(0, result.filesWritten - counted.paths),
    doubleCounted: counted.rows - counted.paths + (messages.rows - messages.ids),
    requests,
    failedRequests: failedOutside,
    failedDuringKillsAndOutage: failedInside,
    healthProbes: steady.length,
    healthFailed: steady.filter((p) => !p.ok).length,
    healthP50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
    healthP99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
    restartsNeeded: service.unplannedExits,
    nulFileMessages: nulCounted.messages,
    gapsStatus,
    nulTracedStatus: nulTraced,
    interfaceDeleted: faults.interfaceDeleted,
    fullDisk: faults.fullDisk,
  };
  const faultsHeld =
    figures.nulFileMessages === 2 &&
    gapsStatus === 200 &&
    nulTraced === 200 &&
    faults.interfaceDeleted &&
    (faults.fullDisk === 'skipped' || (faults.fullDisk.degraded && faults.fullDisk.recovered));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exitCode = figures.lost === 0 && figures.doubleCounted === 0 && figures.restartsNeeded === 0 && faultsHeld ? 0 : 1;
} finally {
  await service?.stop();
  await server?.destroy();
  smallDisk?.release();
  rmSync(root, { recursive: true, force: true });
}
// The TypeScript loader's helper process would keep this one waiting.
process.exit(process.exitCode ?? 0);
