/**
 * Alerts, one per episode: while an alert of a rule is open for an interface (not cleared) the same condition
 * raises nothing new; once cleared, the next time the condition holds is a new episode and a new alert. An episode
 * whose condition grows worse (a warning error rate passing the critical level) stays the same alert: its severity
 * rises, its words follow, and `escalatedAt` records when (an acknowledgement stays). Every new, escalated, cleared
 * and acknowledged alert is announced on the kernel event bus. The store holds one open episode per interface and
 * rule at most (a unique index), so nodes sharing it never raise one condition twice.
 *
 * A system alert (about no interface: a report schedule's delivery, say) is stored with an empty interface id, so the
 * same unique index keeps one open episode per rule; it reads back with a null interface and is never among the open
 * alerts of an interface, so it never changes an interface's state.
 */
import { ALERT_SEVERITIES } from '../api.ts';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../kernel/clock.ts';
import type { EventBus } from '../../../kernel/events.ts';
import { decodeCursor, pageOf, type Page } from '../../../kernel/http/paging.ts';
import type { Alert, AlertFilter, AlertSeverity } from '../api.ts';
import type { AlertRow, MonitorDatabase } from '../monitor-tables.ts';

/** Alerts read per page when every alert of a filter is listed. */
const LIST_PAGE = 1_000;

/** What raising needs. */
export interface AlertDraft {
  /** Null for a system alert. */
  interfaceId: string | null;
  interfaceName: string | null;
  rule: string;
  severity: AlertSeverity;
  title: string;
  message: string;
}

/** What a system alert stores as its interface (the column is required). */
const NO_INTERFACE = '';

function toAlert(row: AlertRow): Alert {
  const system = row.interface_id === NO_INTERFACE;
  return {
    id: row.id,
    interfaceId: system ? null : row.interface_id,
    interfaceName: system ? null : row.interface_name,
    severity: row.severity as AlertSeverity,
    title: row.title,
    message: row.message,
    triggeredAt: row.triggered_at,
    acknowledgedAt: row.acknowledged_at,
    acknowledgedBy: row.acknowledged_by ?? null,
    rule: row.rule,
    clearedAt: row.cleared_at,
    escalatedAt: row.escalated_at ?? null,
  };
}

/** Rank of a severity: higher is worse. */
function rank(severity: string): number {
  return ALERT_SEVERITIES.length - ALERT_SEVERITIES.indexOf(severity as AlertSeverity);
}

/** Stores alert episodes and emits their events. */
export class AlertEpisodes {
  /** Raise and clear run one at a time, so two evaluations never open the same episode twice. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<MonitorDatabase>,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  /** The open alert of a rule for an interface (null: the system alert of the rule), if any. */
  async open(interfaceId: string | null, rule: string): Promise<Alert | undefined> {
    const row = await this.db
      .selectFrom('monitor_alerts')
      .selectAll()
      .where('interface_id', '=', interfaceId ?? NO_INTERFACE)
      .where('rule', '=', rule)
      .where('cleared_at', 'is', null)
      .executeTakeFirst();
    return row ? toAlert(row) : undefined;
  }

  /** Open alerts, of one interface or all, newest first. */
  async openAlerts(interfaceId?: string): Promise<Alert[]> {
    let query = this.db.selectFrom('monitor_alerts').selectAll().where('cleared_at', 'is', null);
    if (interfaceId) query = query.where('interface_id', '=', interfaceId);
    const rows = await query.orderBy('triggered_at', 'desc').execute();
    return rows.map(toAlert);
  }

  /** Raises an alert unless the rule's episode is already open; returns the alert and whether it is new. */
  raise(draft: AlertDraft, options: { oneOff?: boolean } = {}): Promise<{ alert: Alert; created: boolean }> {
    return this.serially(() => this.raiseNow(draft, options.oneOff === true));
  }

  /** Ends the open episode of a rule (of an interface, or the system alert of the rule); returns whether one was open. */
  clear(interfaceId: string | null, rule: string): Promise<boolean> {
    return this.serially(() => this.clearNow(interfaceId, rule));
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async raiseNow(draft: AlertDraft, oneOff: boolean): Promise<{ alert: Alert; created: boolean }> {
    const existing = oneOff ? undefined : await this.open(draft.interfaceId, draft.rule);
    if (existing && rank(draft.severity) > rank(existing.severity)) {
      const escalatedAt = this.clock.now().toISOString();
      await this.db
        .updateTable('monitor_alerts')
        .set({ severity: draft.severity, title: draft.title, message: draft.message, escalated_at: escalatedAt })
        .where('id', '=', existing.id)
        .execute();
      const alert: Alert = { ...existing, severity: draft.severity, title: draft.title, message: draft.message, escalatedAt };
      this.events.emit('alert.escalated', { alert });
      return { alert, created: false };
    }
    if (existing) return { alert: existing, created: false };
    const now = this.clock.now().toISOString();
    const row: AlertRow = {
      id: randomUUID(),
      interface_id: draft.interfaceId ?? NO_INTERFACE,
      interface_name: draft.interfaceId === null ? NO_INTERFACE : (draft.interfaceName ?? NO_INTERFACE),
      rule: draft.rule,
      severity: draft.severity,
      title: draft.title,
      message: draft.message,
      triggered_at: now,
      cleared_at: oneOff ? now : null,
      acknowledged_at: null,
      escalated_at: null,
    };
    // one open episode per interface and rule is enforced by the store (monitor_alerts_one_open): when another node
    // opened it first, this raise finds that episode instead of making a second
    const inserted = await this.db
      .insertInto('monitor_alerts')
      .values(row)
      .onConflict((oc) => oc.columns(['interface_id', 'rule']).where('cleared_at', 'is', null).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
      const opened = await this.open(draft.interfaceId, draft.rule);
      if (opened) return { alert: opened, created: false };
    }
    const alert = toAlert(row);
    this.events.emit('alert.raised', { alert });
    return { alert, created: true };
  }

  private async clearNow(interfaceId: string | null, rule: string): Promise<boolean> {
    const existing = await this.open(interfaceId, rule);
    if (!existing) return false;
    const clearedAt = this.clock.now().toISOString();
    await this.db.updateTable('monitor_alerts').set({ cleared_at: clearedAt }).where('id', '=', existing.id).execute();
    this.events.emit('alert.cleared', { alert: { ...existing, clearedAt } });
    return true;
  }

  /** Ends every open episode of an interface (it was deleted); answers how many were open. */
  closeAll(interfaceId: string): Promise<number> {
    return this.serially(async () => {
      let closed = 0;
      for (const alert of await this.openAlerts(interfaceId)) {
        if (await this.clearNow(interfaceId, alert.rule)) closed++;
      }
      return closed;
    });
  }

  /**
   * Sets acknowledgedAt and who acknowledged once (a second call keeps the first time and person); undefined for an
   * unknown id.
   */
  async acknowledge(id: string, by: string | null = null): Promise<Alert | undefined> {
    const at = this.clock.now().toISOString();
    const result = await this.db
      .updateTable('monitor_alerts')
      .set({ acknowledged_at: at, acknowledged_by: by })
      .where('id', '=', id)
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    const row = await this.db.selectFrom('monitor_alerts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const alert = toAlert(row);
    if (Number(result.numUpdatedRows) > 0) this.events.emit('alert.acknowledged', { alert });
    return alert;
  }

  /**
   * One keyset page of the alerts triggered since an instant, newest first (ties by id), optionally of one severity
   * or interface: at most `limit`, and `next` when more follow.
   */
  async page(filter: AlertFilter, request: { limit: number; cursor?: string | undefined }): Promise<Page<Alert>> {
    let query = this.db.selectFrom('monitor_alerts').selectAll().where('triggered_at', '>=', filter.since.toISOString());
    if (filter.severity) query = query.where('severity', '=', filter.severity);
    if (filter.interfaceId) query = query.where('interface_id', '=', filter.interfaceId);
    if (request.cursor !== undefined) {
      const [at, id] = decodeCursor(request.cursor, ['string', 'string']) as [string, string];
      query = query.where((eb) => eb.or([eb('triggered_at', '<', at), eb.and([eb('triggered_at', '=', at), eb('id', '>', id)])]));
    }
    const rows = await query.orderBy('triggered_at', 'desc').orderBy('id').limit(request.limit + 1).execute();
    return pageOf(rows.map(toAlert), request.limit, (alert) => [alert.triggeredAt, alert.id]);
  }

  /** Every alert of {@link page}'s filter, newest first, read a page at a time. */
  async list(filter: AlertFilter): Promise<Alert[]> {
    const all: Alert[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.page(filter, { limit: LIST_PAGE, cursor });
      all.push(...page.items);
      cursor = page.next ?? undefined;
    } while (cursor !== undefined);
    return all;
  }
}
