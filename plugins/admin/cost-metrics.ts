/**
 * What running the Workbench costs on this machine, measured, with a monthly estimate from configured rates:
 *
 *   cpuCoreShare      = process CPU seconds (user + system) / process uptime seconds
 *   cpu               = cpuCoreShare × 730 h × rates.cpuCoreHour
 *   memory            = RSS GiB × 730 h × rates.memoryGiBHour
 *   storageNextMonth  = storage GiB now + bytes per stored message × messages per day (last 7 days) × 30 / 2^30
 *   storage           = storageNextMonth × rates.storageGiBMonth
 *   monthly           = cpu + memory + storage
 *
 * Storage is the data directory (the embedded SQLite database lives there) plus, with PostgreSQL, the database's
 * size. 730 is the average number of hours in a month.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely, sql as SqlTag } from 'kysely';
import type { MonitorService } from '../monitor/api.ts';
import type { Clock } from '../../kernel/clock.ts';

/** Rates of the estimate (config `plugins.admin.costRates`). */
export interface CostRates {
  currency: string;
  cpuCoreHour: number;
  memoryGiBHour: number;
  storageGiBMonth: number;
}

/** The cost report. */
export interface CostMetrics {
  measuredAt: string;
  process: { cpuSeconds: number; uptimeSeconds: number; cpuCoreShare: number; rssBytes: number; heapUsedBytes: number };
  storage: { dialect: string; dataDirBytes: number; databaseBytes: number; totalBytes: number };
  messages: { stored: number; perDay: Array<{ day: string; messages: number }>; growthPerDay: number; bytesPerMessage: number | null };
  estimate: {
    currency: string;
    rates: CostRates;
    monthly: number;
    cpu: number;
    memory: number;
    storage: number;
    storageNextMonthBytes: number;
    formula: string;
  };
}

const HOURS_PER_MONTH = 730;
const GIB = 2 ** 30;
const GROWTH_DAYS = 7;
/** Most files counted in the data directory (it holds a handful; this bounds the walk if someone fills it). */
const MAX_FILES = 100_000;

/** The formula, as the report states it. */
export const COST_FORMULA =
  'monthly = cpuCoreShare × 730 h × cpuCoreHour + rssGiB × 730 h × memoryGiBHour + (storageGiB + bytesPerMessage × messagesPerDay × 30 / 2^30) × storageGiBMonth';

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  let files = 0;
  const pending = [dir];
  while (pending.length > 0 && files < MAX_FILES) {
    const current = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        files++;
        try {
          total += (await stat(path)).size;
        } catch {
          // removed meanwhile
        }
      }
    }
  }
  return total;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Measures the costs. */
export async function measureCosts(deps: {
  // the shared database, any tables
  db: Kysely<any>;
  /** Kysely's `sql` tag (from the plugin context, so kysely is not loaded at module scope). */
  sql: typeof SqlTag;
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
  monitor: MonitorService;
  clock: Clock;
  rates: CostRates;
}): Promise<CostMetrics> {
  const { sql } = deps;
  const now = deps.clock.now();
  const usage = process.cpuUsage();
  const memory = process.memoryUsage();
  const cpuSeconds = (usage.user + usage.system) / 1e6;
  const uptimeSeconds = process.uptime();
  const cpuCoreShare = uptimeSeconds > 0 ? cpuSeconds / uptimeSeconds : 0;

  const dataDirBytes = await directoryBytes(deps.dataDir);
  let databaseBytes: number;
  if (deps.dialect === 'postgres') {
    const result = await sql<{ size: string }>`select pg_database_size(current_database()) as size`.execute(deps.db);
    databaseBytes = Number(result.rows[0]?.size ?? 0);
  } else {
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(deps.db);
    const size = await sql<{ page_size: number }>`pragma page_size`.execute(deps.db);
    databaseBytes = Number(pages.rows[0]?.page_count ?? 0) * Number(size.rows[0]?.page_size ?? 0);
  }
  // SQLite lives inside the data directory; PostgreSQL adds its own size.
  const totalBytes = deps.dialect === 'postgres' ? dataDirBytes + databaseBytes : dataDirBytes;

  const counts = await deps.monitor.storedMessageCounts();
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 29 * 86_400_000);
  const perDay = (await deps.monitor.dailyMessageCounts({ since, until: now })).map((d) => ({ day: d.day, messages: d.messages }));
  const recentStart = new Date(now.getTime() - GROWTH_DAYS * 86_400_000).toISOString().slice(0, 10);
  const recent = perDay.filter((d) => d.day > recentStart).reduce((sum, d) => sum + d.messages, 0);
  const growthPerDay = recent / GROWTH_DAYS;
  const bytesPerMessage = counts.messages > 0 ? databaseBytes / counts.messages : null;

  const rates = deps.rates;
  const cpu = cpuCoreShare * HOURS_PER_MONTH * rates.cpuCoreHour;
  const memoryCost = (memory.rss / GIB) * HOURS_PER_MONTH * rates.memoryGiBHour;
  const storageNextMonthBytes = totalBytes + (bytesPerMessage ?? 0) * growthPerDay * 30;
  const storage = (storageNextMonthBytes / GIB) * rates.storageGiBMonth;
  return {
    measuredAt: now.toISOString(),
    process: {
      cpuSeconds: round(cpuSeconds, 3),
      uptimeSeconds: round(uptimeSeconds, 3),
      cpuCoreShare: round(cpuCoreShare, 6),
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
    },
    storage: { dialect: deps.dialect, dataDirBytes, databaseBytes, totalBytes },
    messages: {
      stored: counts.messages,
      perDay,
      growthPerDay: round(growthPerDay, 3),
      bytesPerMessage: bytesPerMessage === null ? null : round(bytesPerMessage, 1),
    },
    estimate: {
      currency: rates.currency,
      rates,
      monthly: round(cpu + memoryCost + storage, 4),
      cpu: round(cpu, 4),
      memory: round(memoryCost, 4),
      storage: round(storage, 4),
      storageNextMonthBytes: Math.round(storageNextMonthBytes),
      formula: COST_FORMULA,
    },
  };
}
