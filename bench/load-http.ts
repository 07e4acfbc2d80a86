/**
 * What the load bench (`npm run bench -- load`), its load child (bench/servers/load-clients.ts) and the soak
 * (scripts/soak.ts) share: plain node:http requests that never throw on a failed GET (a failure under load is a
 * figure, not an error), percentiles of sorted latencies, numeric settings from the environment, and the tally of
 * one kind of request the load child reports.
 */
import http from 'node:http';

/** The tally of one kind of request under load. */
export interface LoadOutcome {
  ok: number;
  failed: number;
  timeouts: number;
  resets: number;
  non2xx: number;
  maxMs: number;
}

/** A numeric setting from the environment; `fallback` when it is unset, empty or not a number. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = Number(raw);
  return raw !== undefined && raw !== '' && Number.isFinite(value) ? value : fallback;
}

/** One GET; resolves with status, milliseconds and body, status 0 for a failure or a time-out (never rejects). */
export function timedGet(url: string, agent?: http.Agent, timeoutMs = 30_000): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, agent ? { agent } : {}, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, text: Buffer.concat(chunks).toString() }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, text: '' }));
  });
}

/** One POST of a JSON body; answers the status and the parsed JSON answer (null for an empty one). */
export function postJson(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The `p`-th percentile (nearest rank) of latencies sorted ascending; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
