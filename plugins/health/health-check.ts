/**
 * The health report: `healthy` only when the database answers and no condition is open; `degraded` when the database
 * answers but the cache does not or a condition of the service is open (a full disk, a failing background job, a
 * tampered audit trail; each listed with its reason); `unhealthy` when the database does not answer.
 */
import type { Clock } from '../../kernel/clock.ts';
import type { ServiceFault } from '../../kernel/background/service-faults.ts';

/** The bare health report (no envelope, per the contract). */
export interface HealthReport {
  status: 'healthy' | 'degraded' | 'unhealthy';
  timestamp: string;
  version: string;
  uptimeSeconds: number;
  checks: { database: 'healthy' | 'unhealthy'; cache: 'healthy' | 'unhealthy' };
  /** Open conditions that make the service degraded, oldest first (empty when there are none). */
  conditions: ServiceFault[];
}

/** What the check needs. */
export interface HealthProbes {
  pingDatabase(): Promise<boolean>;
  probeCache(): boolean;
  /** The open conditions of the service. */
  conditions(): ServiceFault[];
  clock: Clock;
  startedAtMs: number;
  version: string;
}

/** Runs the probes and builds the report. */
export async function checkHealth(probes: HealthProbes): Promise<HealthReport> {
  // Sequential on purpose: the database answer is usually reused (see Storage.ping) and the cache probe is
  // synchronous, so a Promise.all and its closures would cost more per request than they save.
  let database: boolean;
  try {
    database = await probes.pingDatabase();
  } catch {
    database = false;
  }
  let cache: boolean;
  try {
    cache = probes.probeCache();
  } catch {
    cache = false;
  }
  const conditions = probes.conditions();
  const status = !database ? 'unhealthy' : cache && conditions.length === 0 ? 'healthy' : 'degraded';
  const now = probes.clock.nowMs();
  return {
    status,
    timestamp: new Date(now).toISOString(),
    version: probes.version,
    uptimeSeconds: Math.max(0, Math.floor((now - probes.startedAtMs) / 1000)),
    checks: { database: database ? 'healthy' : 'unhealthy', cache: cache ? 'healthy' : 'unhealthy' },
    conditions,
  };
}
