/**
 * The upgrade detector as a monitor alert rule (`vendor-upgrade`): after commits and on periodic checks it judges
 * the interface's last `hours`, raising a warning episode while an upgrade is detected. A verdict is reused for a
 * while per interface (`upgradeAlertReuseSeconds`, a minute by default), so a busy feed does not re-read a week of
 * facts after every file.
 */
import type { AlertRule } from '../../monitor/api.ts';
import type { InterfaceAnalysis } from './interface-analysis.ts';

/** Builds the rule; a verdict is reused for `reuseSeconds` per interface. */
export function createUpgradeAlertRule(analysis: InterfaceAnalysis, hours: number, reuseSeconds: number): AlertRule {
  const reuseMs = reuseSeconds * 1_000;
  const recent = new Map<string, { atMs: number; active: boolean; message: string }>();
  return {
    key: 'vendor-upgrade',
    async evaluate(monitored, context) {
      let verdict = recent.get(monitored.id);
      if (!verdict || context.nowMs - verdict.atMs >= reuseMs) {
        const result = await analysis.upgradeOf(monitored, hours);
        verdict = { atMs: context.nowMs, active: result.upgradeDetected, message: result.explanation };
        recent.set(monitored.id, verdict);
      }
      if (!verdict.active) return { active: false };
      return { active: true, severity: 'warning', title: `Sender of ${monitored.name} changed (possible vendor upgrade)`, message: verdict.message };
    },
  };
}
