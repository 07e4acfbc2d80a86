/**
 * The monitor alert rule `tracing-gaps`: after each commit on an interface (and on the monitor's periodic check) it
 * judges the sequences marked `alert` over the last `alertWindowMinutes`, and keeps a warning open on the interface
 * while gaps concerning it are found there.
 */
import type { AlertCondition, AlertRule } from '../monitor/api.ts';
import type { TracingService } from './tracing-service.ts';

/** Rule key of the gap alerts. */
export const GAP_ALERT_RULE = 'tracing-gaps';

/** Builds the rule over the tracing service. */
export function createGapAlertRule(service: TracingService): AlertRule {
  return {
    key: GAP_ALERT_RULE,
    async evaluate(monitored): Promise<AlertCondition | undefined> {
      const gaps = await service.alertingGaps(monitored.id);
      if (gaps.length === 0) return { active: false };
      const first = gaps[0]!;
      const more = gaps.length > 1 ? ` (and ${gaps.length - 1} more)` : '';
      return {
        active: true,
        severity: 'warning',
        title: `${gaps.length} sequence gap${gaps.length === 1 ? '' : 's'} on ${monitored.name}`,
        message: `${first.sequenceName ?? first.sequence}: ${first.kind} — expected ${first.expected}${first.patientId ? ` for patient ${first.patientId}` : ''}${more}`,
      };
    },
  };
}
