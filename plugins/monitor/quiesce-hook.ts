/**
 * The container token of the monitor's quiesce hook: tests and tools resolve it (through testing.ts) to wait until
 * the monitor is at rest instead of sleeping. Not part of the contract other plugins build on.
 */
import { createServiceRef } from '../../kernel/service-ref.ts';

/** Container token of {@link QuiesceHook}. */
export const MONITOR_QUIESCE = createServiceRef<QuiesceHook>('workbench.monitor.quiesce');

/** Waits until nothing settles or waits, one rescan and one whole check ran, and the rule evaluations ended. */
export interface QuiesceHook {
  quiesce(): Promise<void>;
}
