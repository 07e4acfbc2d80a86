/**
 * A projection runner over a fresh store for engine tests (no Workbench): the monitor's positions table migrated,
 * the runner's catch-ups under a silent background guard, messages from a stand-in store.
 */
import pino from 'pino';
import { BackgroundGuard } from '../../kernel/background/background-guard.ts';
import { ServiceFaults } from '../../kernel/background/service-faults.ts';
import type { Storage } from '../../kernel/storage.ts';
import type { MonitorStore } from '../../plugins/monitor/api.ts';
import { projectionPositionsMigration } from '../../plugins/monitor/projections/projection-positions.ts';
import { ProjectionRunner } from '../../plugins/monitor/projections/projection-runner.ts';

/** Migrates the positions table of `storage` (once per store). */
export async function migratePositions(storage: Storage): Promise<void> {
  await storage.migrate('monitor', { '014_projection_positions': projectionPositionsMigration });
}

/** A runner over `storage` reading `store` (as one node of a team would: several may share one store). */
export function runnerOver(storage: Storage, store: Pick<MonitorStore, 'streamMessages'>): ProjectionRunner {
  return new ProjectionRunner({ db: storage.db, store, background: new BackgroundGuard(pino({ level: 'silent' }), new ServiceFaults()).forOwner('test') });
}
