/**
 * Fills a dashboard template: every panel is one read of the monitor's contract (roll-up totals, series and top-N,
 * the alert list, and for error examples one bounded page of failed messages per error code), run side by side.
 * The cost grows with buckets and panels, never with stored messages.
 */
import { interfaceNotFound } from '../monitor/api.ts';
import type { AnalyticsSource } from './analytics-source.ts';
import { analyticsErrors } from './analytics-errors.ts';
import type { DashboardResult, ErrorExample, PanelResult } from './analytics-schemas.ts';
import type { DashboardPanel, DashboardTemplate } from './dashboard-templates.ts';
import type { TimeWindow as Window } from '../../kernel/lib/time/time-window.ts';
import { autoGranularity, stepOf, type Granularity } from './time-window.ts';

/** Fills templates from the monitor's contract. */
export class DashboardEngine {
  constructor(
    private readonly source: AnalyticsSource,
    private readonly templates: ReadonlyMap<string, DashboardTemplate>,
  ) {}

  /** Names of the known templates, sorted. */
  known(): string[] {
    return [...this.templates.keys()].sort();
  }

  /** Fills `name` for the window (and interface, when the template takes one). */
  async fill(name: string, window: Window, parameters: { interfaceId?: string }): Promise<DashboardResult> {
    const template = this.templates.get(name);
    if (!template) throw analyticsErrors.create('ANALYTICS_TEMPLATE_NOT_FOUND', { template: name, known: this.known().join(', ') });
    for (const parameter of template.parameters) {
      if (parameters[parameter] === undefined) {
        throw analyticsErrors.create('ANALYTICS_TEMPLATE_PARAMETER_MISSING', { template: name, parameter });
      }
    }
    const interfaceId = parameters.interfaceId ?? null;
    if (interfaceId !== null && !(await this.source.interfaceExists(interfaceId))) {
      throw interfaceNotFound(interfaceId);
    }
    const interfaceIds = interfaceId === null ? undefined : [interfaceId];
    const granularity = autoGranularity(window);
    const panels = await Promise.all(template.panels.map((panel) => this.panel(panel, window, granularity, interfaceIds)));
    return {
      template: name,
      title: template.title,
      description: template.description,
      interfaceId,
      since: window.since.toISOString(),
      until: window.until.toISOString(),
      granularity,
      panels,
    };
  }

  private async panel(panel: DashboardPanel, window: Window, granularity: Granularity, interfaceIds?: string[]): Promise<PanelResult> {
    const { id, title } = panel;
    const scope = interfaceIds ? { interfaceIds } : {};
    switch (panel.kind) {
      case 'totals':
        return { id, title, kind: 'totals', data: await this.source.totals(window, interfaceIds) };
      case 'series': {
        const points = await this.source.series({ ...scope, ...window, step: stepOf(granularity), metric: panel.metric });
        return { id, title, kind: 'series', data: { metric: panel.metric, granularity, points } };
      }
      case 'topN': {
        const rows = await this.source.topN({ ...scope, ...window, by: panel.by, metric: panel.metric, n: panel.n });
        return { id, title, kind: 'topN', data: { by: panel.by, metric: panel.metric, rows } };
      }
      case 'alerts':
        return { id, title, kind: 'alerts', data: await this.alerts(window, interfaceIds, panel.open, panel.limit) };
      case 'errorExamples':
        return { id, title, kind: 'errorExamples', data: { errors: await this.errorExamples(window, scope, panel.n, panel.examples) } };
    }
  }

  private async alerts(window: Window, interfaceIds: string[] | undefined, open: boolean, limit: number) {
    // Open alerts are shown whenever they were triggered; the rest only when triggered in the window.
    const since = open ? new Date(0) : window.since;
    const all = await this.source.listAlerts({ since, ...(interfaceIds ? { interfaceId: interfaceIds[0] } : {}) });
    const matching = all.filter((alert) =>
      open ? alert.acknowledgedAt === null && alert.clearedAt === null : new Date(alert.triggeredAt) < window.until,
    );
    return { total: matching.length, alerts: matching.slice(0, limit) };
  }

  private async errorExamples(window: Window, scope: { interfaceIds?: string[] }, n: number, examples: number): Promise<ErrorExample[]> {
    const rows = await this.source.topN({ ...scope, ...window, by: 'errorCode', metric: 'messagesFailed', n });
    return Promise.all(
      rows.map(async (row) => {
        // One bounded page per code: the newest examples are not needed, any few of the window will do.
        const page = await this.source.queryMessages(
          { ...scope, since: window.since, until: window.until, errorCodes: [row.key], isValid: false },
          { limit: examples },
        );
        const fields = new Set<string>();
        for (const message of page.messages) for (const issue of message.errors) if (issue.code === row.key) fields.add(issue.field);
        return {
          code: row.key,
          failedMessages: row.value ?? row.failed,
          share: row.share,
          fields: [...fields].sort(),
          controlIds: page.messages.map((message) => message.controlId).filter((id): id is string => id !== null),
        };
      }),
    );
  }
}
