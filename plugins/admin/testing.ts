/** For tests only, outside the public contract (no service code imports this module): judge every SLA now. */
import type { DependencyContainer } from 'tsyringe';
import { resolveService } from '../../kernel/service-ref.ts';
import { SLA_ALERTS_HOOK } from './sla-alerts-hook.ts';

/** Evaluates every SLA of a running workbench over the alert window now; answers the interfaces alerted. */
export function evaluateSlaAlertsNow(workbench: { container: DependencyContainer }): Promise<string[]> {
  return resolveService(workbench.container, SLA_ALERTS_HOOK).evaluateSlaAlerts();
}
