/**
 * The extension point of the monitor's alerting: rules other plugins register ({@link AlertRule}: admin's SLA rule,
 * AI triage's upgrade rule) judge each watched interface whenever the monitor's own traffic rules do (after a commit
 * that touched it, and on every periodic check), and their episodes are kept like the monitor's own: one alert per
 * episode, its severity raised when the condition escalates. A rule that throws is logged and skipped; the others
 * still run.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../../kernel/clock.ts';
import type { AlertRule, MonitoredInterface, MonitorStore } from '../api.ts';
import type { AlertEpisodes } from './alert-episodes.ts';

/** Rule keys: letters, digits and dashes, up to 100 characters (they are stored with each alert). */
const RULE_KEY = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** Registered rules and their evaluation. */
export class AlertRuleRegistry {
  private readonly rules = new Map<string, AlertRule>();
  private store: MonitorStore | undefined;

  constructor(
    private readonly episodes: AlertEpisodes,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Keys of the monitor's own rules, which no registered rule may take. */
    private readonly reserved: ReadonlySet<string>,
  ) {}

  /** The store the rules read (the service, created after the registry). */
  bind(store: MonitorStore): void {
    this.store = store;
  }

  /** Adds a rule; refuses a malformed key or one already taken. */
  register(rule: AlertRule): void {
    if (!RULE_KEY.test(rule.key)) throw new Error(`Alert rule key "${rule.key}" must be lower-case letters, digits and dashes (at most 100).`);
    if (this.reserved.has(rule.key) || this.rules.has(rule.key)) throw new Error(`An alert rule with key "${rule.key}" is registered already.`);
    this.rules.set(rule.key, rule);
  }

  /** Keys of the registered rules, in registration order. */
  keys(): string[] {
    return [...this.rules.keys()];
  }

  /** Judges an interface by every registered rule and keeps their episodes. */
  async evaluate(monitored: MonitoredInterface): Promise<void> {
    const store = this.store;
    if (!store || this.rules.size === 0) return;
    for (const rule of this.rules.values()) {
      try {
        const condition = await rule.evaluate(monitored, { nowMs: this.clock.nowMs(), store });
        if (!condition) continue;
        if (condition.active) {
          await this.episodes.raise({
            interfaceId: monitored.id,
            interfaceName: monitored.name,
            rule: rule.key,
            severity: condition.severity,
            title: condition.title,
            message: condition.message,
          });
        } else {
          await this.episodes.clear(monitored.id, rule.key);
        }
      } catch (error) {
        this.logger.error({ err: error, rule: rule.key, interface: monitored.name }, 'an alert rule failed; its episode is left as it was');
      }
    }
  }
}
