/**
 * Nodes of a team on one PostgreSQL store, each a real `workbench start` process with its own data folder and node
 * name: used by the team tests (test/monitor/team-postgres.test.ts) and the team bench (bench/team-bench.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { killed, startServiceProcess } from './monitor-crash-scenario.ts';

/** A running node. */
export interface TeamNode {
  readonly name: string;
  readonly child: ChildProcess;
  /** The monitor base address. */
  readonly monitorUrl: string;
  /** What it printed so far (the end of it). */
  output(): string;
}

/** Options of a node. */
export interface TeamNodeOptions {
  /** Folder for the node's config and data folder. */
  root: string;
  name: string;
  storageUrl: string;
  leaseMs: number;
  /** The monitor's config section. */
  monitor?: Record<string, unknown>;
}

/** Starts a node; resolves once it listens (rejects with its output when it exits first or takes over 60 s). */
export async function startTeamNode(options: TeamNodeOptions): Promise<TeamNode> {
  const folder = join(options.root, options.name);
  mkdirSync(folder, { recursive: true });
  const configPath = join(folder, 'config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      dataDir: join(folder, 'data'),
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
      storage: { url: options.storageUrl },
      node: { name: options.name, leaseMs: options.leaseMs },
      plugins: { monitor: options.monitor ?? {} },
    }),
  );
  const started = startServiceProcess(configPath);
  const monitorUrl = await started.monitorUrl;
  return { name: options.name, child: started.child, monitorUrl, output: started.output };
}

/** Kills a node with SIGKILL and resolves once it is gone. */
export function killNode(node: TeamNode): Promise<void> {
  return killed(node.child);
}

/** Stops a node with SIGTERM (a clean stop) and resolves once it exited. */
export function stopNode(node: TeamNode): Promise<void> {
  return new Promise((resolve) => {
    if (node.child.exitCode !== null || node.child.signalCode !== null) return resolve();
    node.child.once('exit', () => resolve());
    node.child.kill('SIGTERM');
  });
}

/** Calls a JSON route of a node's monitor base; answers the status and the envelope's data. */
export async function callNode(node: TeamNode, method: string, path: string, body?: unknown): Promise<{ status: number; data: any }> {
  const response = await fetch(`${node.monitorUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: unknown };
  return { status: response.status, data: json.data };
}

/** What the shared store holds of an interface: messages, counted ledger rows and distinct paths among them. */
export async function storedCounts(storageUrl: string, interfaceId: string): Promise<{ messages: number; files: number; paths: number }> {
  const client = new pg.Client({ connectionString: storageUrl });
  await client.connect();
  try {
    const messages = await client.query<{ n: string }>('select count(*) as n from monitor_messages where interface_id = $1', [interfaceId]);
    const files = await client.query<{ n: string; paths: string }>(
      "select count(*) as n, count(distinct path) as paths from monitor_files where interface_id = $1 and state <> 'replaced'",
      [interfaceId],
    );
    return { messages: Number(messages.rows[0].n), files: Number(files.rows[0].n), paths: Number(files.rows[0].paths) };
  } finally {
    await client.end();
  }
}

/** An HL7 v2.5 ADT^A01 message with the control id given. */
export function teamMessage(controlId: string): string {
  return [
    `MSH|^~\\&|TEAM|TEST|RECV|FAC|20260101120000||ADT^A01^ADT_A01|${controlId}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||P${controlId}^^^HOSP^MR||DOE^JANE||19800101|F`,
    'PV1|1|I|WARD^101^1',
  ].join('\r');
}

/** Writes `count` message files `<prefix><i>.hl7` into a folder. */
export function writeMessageFiles(folder: string, prefix: string, from: number, count: number): void {
  for (let i = from; i < from + count; i++) writeFileSync(join(folder, `${prefix}${i}.hl7`), teamMessage(`${prefix}${i}`));
}

/** Polls `check` every 100 ms until it answers true, or throws naming `what` after `timeoutMs`. */
export async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
