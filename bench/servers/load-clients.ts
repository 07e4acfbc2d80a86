// The load side of `npm run bench -- load`, in a process of its own so the health probe of the bench never shares
// its event loop: dashboard clients polling metrics, status and report, clients validating messages, and a writer
// dropping single-message files into the watched folder as fast as it can, all for a set time. Prints one JSON line.
import http from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadOutcome } from '../load-http.ts';

interface LoadPlan {
  monitorUrl: string;
  bridgeUrl: string;
  interfaceId: string;
  folder: string;
  seconds: number;
  pollers: number;
  validators: number;
  /** Files per second at most; 0 writes as fast as the disk takes them. */
  filesPerSecond: number;
  /** Prefix of the files' names and control ids (a soak runs one writer per phase). */
  prefix?: string;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as LoadPlan;
const REQUEST_TIMEOUT_MS = 30_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: plan.pollers + plan.validators + 4 });

/** An ADT^A01 message with its own control id. */
function loadMessage(controlId: string): string {
  return [
    `MSH|^~\\&|LOAD|BENCH|RECV|FAC|20260101120000||ADT^A01^ADT_A01|${controlId}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||P${controlId}^^^HOSP^MR||DOE^JANE||19800101|F|||1 MAIN ST^^BOSTON^MA^02110`,
    'PV1|1|I|WARD^101^1',
    'OBX|1|NM|8867-4^Heart rate^LN||72|/min|60-100|N|||F',
  ].join('\r');
}

const outcomes: Record<string, LoadOutcome> = {};
/** Width (ms) of the time buckets failures are counted in. */
const FAILURE_BUCKET_MS = 100;

/**
 * Failed requests counted by when they were sent and when they failed (each rounded down to FAILURE_BUCKET_MS), kind
 * and cause (key: `<sent> <failed> <kind> <status | reset | timeout>`, epoch ms), every one of them, so a caller can
 * tell the requests a planned outage caught from the rest and say what failed: bounded by the run's length, not by
 * how many requests failed.
 */
const failuresByBucket: Record<string, number> = {};

const bucketOf = (epochMs: number) => Math.floor(epochMs / FAILURE_BUCKET_MS) * FAILURE_BUCKET_MS;

function failedNow(record: LoadOutcome, sentAt: number, kind: string, cause: string): void {
  record.failed++;
  const key = `${bucketOf(sentAt)} ${bucketOf(Date.now())} ${kind} ${cause}`;
  failuresByBucket[key] = (failuresByBucket[key] ?? 0) + 1;
}

function outcome(kind: string): LoadOutcome {
  outcomes[kind] ??= { ok: 0, failed: 0, timeouts: 0, resets: 0, non2xx: 0, maxMs: 0 };
  return outcomes[kind];
}

function request(base: string, path: string, kind: string, body?: string): Promise<void> {
  const url = new URL(path, base);
  const started = performance.now();
  const sentAt = Date.now();
  const record = outcome(kind);
  return new Promise((resolve) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: body === undefined ? 'GET' : 'POST',
        agent,
        headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          record.maxMs = Math.max(record.maxMs, performance.now() - started);
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) record.ok++;
          else {
            failedNow(record, sentAt, kind, String(status));
            record.non2xx++;
          }
          resolve();
        });
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      failedNow(record, sentAt, kind, 'timeout');
      record.timeouts++;
      req.destroy(new Error('timeout'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.message !== 'timeout') {
        failedNow(record, sentAt, kind, 'reset');
        record.resets++;
      }
      resolve();
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const deadline = performance.now() + plan.seconds * 1000;
const pollPaths = [
  [`/api/monitor/interfaces/${plan.interfaceId}/metrics?sinceHours=24`, 'metrics'],
  ['/api/monitor/status', 'status'],
  ['/api/monitor/report?format=json&sinceHours=24', 'report'],
] as const;

async function poller(index: number): Promise<void> {
  for (let i = index; performance.now() < deadline; i++) {
    const [path, kind] = pollPaths[i % pollPaths.length];
    await request(plan.monitorUrl, path, kind);
  }
}

async function validator(index: number): Promise<void> {
  for (let i = 0; performance.now() < deadline; i++) {
    await request(plan.bridgeUrl, '/api/validate', 'validate', JSON.stringify({ standard: 'hl7', messageContent: loadMessage(`V${index}-${i}`) }));
  }
}

let filesWritten = 0;
async function writer(): Promise<void> {
  const started = performance.now();
  while (performance.now() < deadline) {
    if (plan.filesPerSecond > 0) {
      const due = ((performance.now() - started) / 1000) * plan.filesPerSecond;
      if (filesWritten >= due) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
    }
    const name = `${plan.prefix ?? 'load'}-${filesWritten}`;
    await writeFile(join(plan.folder, `${name}.hl7`), loadMessage(name));
    filesWritten++;
  }
}

await Promise.all([
  ...Array.from({ length: plan.pollers }, (_, i) => poller(i)),
  ...Array.from({ length: plan.validators }, (_, i) => validator(i)),
  writer(),
]);
agent.destroy();
process.stdout.write(`${JSON.stringify({ filesWritten, outcomes, failuresByBucket, failureBucketMs: FAILURE_BUCKET_MS })}\n`);
