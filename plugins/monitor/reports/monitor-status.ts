/**
 * Status of the monitor: per interface healthy / degraded / down / idle with the reason, and the overall state
 * (the worst of the interfaces'; idle when there are none).
 * - down: enabled, but its folder is missing or unreadable;
 * - degraded: an open alert other than silence (error rate, latency, unparsable file, or one another plugin raised);
 * - idle: disabled, silent past its silence limit, or no message yet;
 * - healthy: watched, messages arriving, no open alert.
 */
import { MONITOR_STATES, type Alert, type InterfaceStatus, type MonitoredInterface, type MonitorState } from '../api.ts';
import { RULES } from '../alerts/alert-rules.ts';

/** State names, worst first. */
export const STATES = MONITOR_STATES;

export type { InterfaceStatus, MonitorState };

/** Judges one interface. */
export function interfaceStatus(
  monitored: MonitoredInterface,
  facts: { problem: string | undefined; lastMessageAt: string | null; openAlerts: Alert[] },
): InterfaceStatus {
  const base = {
    interfaceId: monitored.id,
    name: monitored.name,
    enabled: monitored.enabled,
    lastMessageAt: facts.lastMessageAt,
    openAlerts: facts.openAlerts,
  };
  if (!monitored.enabled) return { ...base, state: 'idle', reason: 'disabled' };
  if (facts.problem) return { ...base, state: 'down', reason: `folder ${monitored.directoryPath}: ${facts.problem}` };
  // an info alert (files the pattern skips) says something, but not that the interface works worse
  const degrading = facts.openAlerts.filter((a) => a.rule !== RULES.silence && a.rule !== RULES.folder && a.severity !== 'info');
  if (degrading.length > 0) return { ...base, state: 'degraded', reason: degrading.map((a) => a.title).join('; ') };
  const silence = facts.openAlerts.find((a) => a.rule === RULES.silence);
  if (silence) return { ...base, state: 'idle', reason: silence.title };
  if (!facts.lastMessageAt) return { ...base, state: 'idle', reason: 'no message received yet' };
  return { ...base, state: 'healthy', reason: 'messages arriving, no open alert' };
}

/** The worst state of a list (idle for none). */
export function overallState(states: MonitorState[]): MonitorState {
  if (states.length === 0) return 'idle';
  return STATES.find((s) => states.includes(s)) ?? 'healthy';
}
