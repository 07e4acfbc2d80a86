/**
 * The container token of the admin plugin's SLA alert judgement run on demand: tests resolve it (through
 * testing.ts) to judge every SLA now instead of waiting for the monitor's next check. Not part of the contract
 * other plugins build on.
 */
import { createServiceRef } from '../../kernel/service-ref.ts';

/** Container token of {@link SlaAlertsHook}. */
export const SLA_ALERTS_HOOK = createServiceRef<SlaAlertsHook>('workbench.admin.sla-alerts');

/** Judges SLAs at once, as the monitor's alert rule does after commits and on every check. */
export interface SlaAlertsHook {
  /** Evaluates every SLA over the alert window (`slaAlerts.windowHours`) now; answers the alerted interfaces. */
  evaluateSlaAlerts(): Promise<string[]>;
}
