/**
 * `npm run fuzz`: drives mutated corpus messages through the HTTP routes of a real started service, one standard at
 * a time, and reports per standard the answers by status, 5xx answers (goal 0), crashes of the service (goal 0;
 * it is started again and the run goes on), requests without an answer within the hang limit, max and p99.9 time
 * per request, answers stopped at the time budget (422) and the service's peak resident memory. The last line is one JSON object with every figure.
 *
 * Options: `--count N` inputs per standard (default 100,000), `--standards hl7,fhir,ncpdp`, `--concurrency N`
 * (default 2, so the machine stays usable), `--seed S` (default 1: a seed replays a run), `--hang-ms N` (default
 * 60,000), `--findings DIR` (where inputs that got a 5xx, crashed or hung the service are written; default a new
 * folder in the temp directory). Without the shared corpus (`../shared/corpus`) it prints a notice and exits 0.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusDir } from '../test/helpers/shared-corpus.ts';
import { type FuzzAnswer, type FuzzRequest, closeFuzzConnections, nextRequest, sendFuzzRequest } from './fuzz-requests.ts';
import { type FuzzService, startFuzzService, stopAllFuzzServices } from './fuzz-service.ts';
import { createChooser, type FuzzStandard } from './mutations.ts';

/** Figures of one standard's run. */
export interface FuzzFigures {
  requests: number;
  statuses: Record<string, number>;
  serverErrors: number;
  /** 503 SERVER_BUSY: the designed answer when the heavy-request queue is full, not a failure. */
  busy: number;
  crashes: number;
  hangs: number;
  /** 422 PROCESSING_TIME_EXCEEDED: work stopped at its time budget (bounded, but a sign of slow validation). */
  overBudget: number;
  connectionErrors: number;
  maxMs: number;
  p999Ms: number;
  medianMs: number;
  peakRssMb: number;
  seconds: number;
  /** Files written for inputs that got a 5xx, crashed or hung the service. */
  findings: string[];
}

/** Options of a run. */
export interface FuzzOptions {
  count: number;
  standards: FuzzStandard[];
  concurrency: number;
  seed: number;
  hangMs: number;
  findingsDir?: string;
  /** Progress lines (default: stdout). */
  log?: (line: string) => void;
}

const CORPUS_FOLDERS: Record<FuzzStandard, 'hl7v2' | 'fhir' | 'ncpdp'> = { hl7: 'hl7v2', fhir: 'fhir', ncpdp: 'ncpdp' };

/** Most findings written per standard (the counts go on). */
const MAX_FINDINGS = 50;

function corpusOf(standard: FuzzStandard): string[] | undefined {
  const dir = corpusDir(CORPUS_FOLDERS[standard]);
  if (!dir) return undefined;
  return readdirSync(dir)
    .filter((name) => !name.endsWith('.md') && !name.startsWith('.'))
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/** Fuzzes one standard against a service, starting it again after a crash. */
async function fuzzStandard(standard: FuzzStandard, corpus: string[], options: FuzzOptions, findingsDir: string): Promise<FuzzFigures> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const choose = createChooser(options.seed * 7919 + standard.length);
  const times = new Float64Array(options.count);
  const figures: FuzzFigures = {
    requests: 0,
    statuses: {},
    serverErrors: 0,
    busy: 0,
    crashes: 0,
    hangs: 0,
    overBudget: 0,
    connectionErrors: 0,
    maxMs: 0,
    p999Ms: 0,
    medianMs: 0,
    peakRssMb: 0,
    seconds: 0,
    findings: [],
  };
  const started = performance.now();
  let service: FuzzService = await startFuzzService();
  let restarting: Promise<void> | undefined;
  let issued = 0;
  let lastReport = started;

  const keep = (kind: string, request: FuzzRequest, answer: FuzzAnswer | undefined, detail = '') => {
    if (figures.findings.length >= MAX_FINDINGS) return;
    const file = join(findingsDir, `${standard}-${figures.findings.length + 1}-${kind}.json`);
    writeFileSync(file, JSON.stringify({ kind, route: request.route, path: request.path, contentType: request.contentType, mutations: request.mutations, answer, detail, body: request.body }));
    figures.findings.push(file);
  };

  const restartAfterCrash = async (request: FuzzRequest, answer: FuzzAnswer) => {
    figures.crashes++;
    keep('crash', request, answer, service.crashed);
    log(`[fuzz] ${standard}: the service crashed on ${request.route} (${request.mutations.join(', ')}); starting it again`);
    figures.peakRssMb = Math.max(figures.peakRssMb, service.peakRssMb());
    await service.stop();
    service = await startFuzzService();
  };

  const worker = async () => {
    for (;;) {
      if (restarting) await restarting;
      const index = issued++;
      if (index >= options.count) return;
      const request = nextRequest(standard, corpus, choose);
      const answer = await sendFuzzRequest(service.bridge, request, options.hangMs);
      times[index] = answer.ms;
      figures.requests++;
      const status = answer.hung ? 'hang' : answer.connectionError ? 'connection error' : String(answer.status);
      figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
      if (answer.hung) {
        figures.hangs++;
        keep('hang', request, answer);
      } else if (answer.status === 503 && answer.code === 'SERVER_BUSY') figures.busy++;
      else if (answer.code === 'PROCESSING_TIME_EXCEEDED') {
        figures.overBudget++;
        keep('time-budget', request, answer);
      }
      else if (answer.status >= 500) {
        figures.serverErrors++;
        keep(`status-${answer.status}`, request, answer);
      }
      if ((answer.connectionError || answer.status >= 500 || answer.hung) && service.crashed === undefined) {
        // Give an exit a moment to be seen before judging the connection error.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (service.crashed !== undefined) {
        if (!restarting) restarting = restartAfterCrash(request, answer).finally(() => (restarting = undefined));
        await restarting;
      } else if (answer.connectionError) {
        figures.connectionErrors++;
        keep('connection-error', request, answer);
      }
      const now = performance.now();
      if (now - lastReport > 15_000) {
        lastReport = now;
        log(`[fuzz] ${standard}: ${figures.requests} / ${options.count} requests, ${figures.serverErrors} 5xx, ${figures.crashes} crashes, peak RSS ${Math.round(service.peakRssMb())} MB`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    figures.peakRssMb = Math.round(Math.max(figures.peakRssMb, service.peakRssMb()));
    await service.stop();
  }
  const sorted = times.slice(0, figures.requests).sort();
  figures.maxMs = Math.round((sorted[sorted.length - 1] ?? 0) * 10) / 10;
  figures.p999Ms = Math.round(percentile(sorted, 0.999) * 10) / 10;
  figures.medianMs = Math.round(percentile(sorted, 0.5) * 100) / 100;
  figures.seconds = Math.round((performance.now() - started) / 100) / 10;
  return figures;
}

/** Runs the fuzzer; returns the figures by standard (standards without a corpus are left out with a notice). */
export async function runFuzz(options: FuzzOptions): Promise<Partial<Record<FuzzStandard, FuzzFigures>>> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const findingsDir = options.findingsDir ?? mkdtempSync(join(tmpdir(), 'workbench-fuzz-'));
  mkdirSync(findingsDir, { recursive: true });
  const results: Partial<Record<FuzzStandard, FuzzFigures>> = {};
  try {
    // One standard at a time: the service and this process share the machine with whoever else works on it.
    for (const standard of options.standards) {
      const corpus = corpusOf(standard);
      if (!corpus || corpus.length === 0) {
        log(`[notice] no shared corpus for ${standard}: not fuzzed.`);
        continue;
      }
      const figures = await fuzzStandard(standard, corpus, options, findingsDir);
      results[standard] = figures;
      log(
        `[fuzz] ${standard}: ${figures.requests} requests in ${figures.seconds} s; 5xx ${figures.serverErrors}, crashes ${figures.crashes}, hangs ${figures.hangs}, busy ${figures.busy}, over the time budget ${figures.overBudget}; ` +
          `median ${figures.medianMs} ms, p99.9 ${figures.p999Ms} ms, max ${figures.maxMs} ms; peak RSS ${figures.peakRssMb} MB; statuses ${JSON.stringify(figures.statuses)}` +
          (figures.findings.length > 0 ? `; findings in ${findingsDir}` : ''),
      );
    }
  } finally {
    closeFuzzConnections();
  }
  return results;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Interrupted, the run stops the service it started instead of leaving it holding its ports.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void stopAllFuzzServices().finally(() => process.exit(130));
    });
  }
  const args = process.argv.slice(2);
  const standards = (option(args, 'standards') ?? 'hl7,fhir,ncpdp').split(',').filter((s): s is FuzzStandard => s === 'hl7' || s === 'fhir' || s === 'ncpdp');
  const results = await runFuzz({
    count: Number(option(args, 'count') ?? 100_000),
    standards,
    concurrency: Number(option(args, 'concurrency') ?? 2),
    seed: Number(option(args, 'seed') ?? 1),
    hangMs: Number(option(args, 'hang-ms') ?? 60_000),
    ...(option(args, 'findings') ? { findingsDir: option(args, 'findings') as string } : {}),
  });
  const figures = Object.fromEntries(Object.entries(results).map(([standard, f]) => [standard, { ...f, findings: f.findings.length }]));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  const failed = Object.values(results).some((f) => f.serverErrors > 0 || f.crashes > 0 || f.hangs > 0);
  process.exitCode = failed ? 1 : 0;
}
