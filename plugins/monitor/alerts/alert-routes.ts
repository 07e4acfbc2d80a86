/** Routes of alerts: list by window and severity, acknowledge (professional tier). */
import { z } from 'zod';
import { kernelErrors } from '../../../kernel/errors.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import type { AlertEpisodes } from './alert-episodes.ts';
import { pagedAnswer } from '../../../kernel/http/paging.ts';
import { windowOfHours } from '../../../kernel/lib/time/time-window.ts';
import { alertSchema, interfaceNotFound } from '../api.ts';
import { alertsQuery, idParams } from '../monitor-schemas.ts';
import { MONITOR_EXAMPLES } from '../monitor-examples.ts';

/** What the alert routes work with. */
export interface AlertRouteDeps {
  /** The alert episodes: listed and acknowledged. */
  alerts: AlertEpisodes;
  /** The clock the listing window and acknowledgements read. */
  clock: Clock;
  /** Whether an interface of this id is monitored (an unknown one answers 404, not an empty list). */
  interfaceExists: (id: string) => Promise<boolean>;
}

/** Registers the alert routes. */
export function registerAlertRoutes(routes: RouteRegistrar, deps: AlertRouteDeps): void {
  const { alerts, clock, interfaceExists } = deps;
  routes.route({
    method: 'GET',
    url: '/api/monitor/alerts',
    examples: MONITOR_EXAMPLES.listAlerts,
    summary: 'Alerts triggered in the last sinceHours hours (default 24), newest first, optionally of one severity or interface (404 for an unknown one), a keyset page at a time',
    description:
      'At most limit alerts (1..1,000, default 100); the envelope\'s page.next is the cursor of the following page and page.truncated says the limit cut the list.',
    tags: ['monitor'],
    tier: 'professional',
    query: alertsQuery,
    errors: ['INTERFACE_NOT_FOUND', 'CURSOR_INVALID'],
    paged: true,
    response: z.array(alertSchema),
    async handler({ query }) {
      // an interface nobody has would answer an empty list, which reads as "no alerts" rather than "wrong id"
      if (query.interfaceId !== undefined && !(await interfaceExists(query.interfaceId))) {
        throw interfaceNotFound(query.interfaceId);
      }
      const window = windowOfHours(query.sinceHours, clock.nowMs());
      const page = await alerts.page(
        { since: window.since, ...(query.severity ? { severity: query.severity } : {}), ...(query.interfaceId ? { interfaceId: query.interfaceId } : {}) },
        { limit: query.limit, cursor: query.cursor },
      );
      return pagedAnswer(page.items, page);
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/alerts/:id/acknowledge',
    examples: MONITOR_EXAMPLES.acknowledgeAlert,
    minimumRole: 'MonitorOperator',
    summary: 'Acknowledge an alert; acknowledgedAt and acknowledgedBy are set once (a second call keeps the first)',
    tags: ['monitor'],
    tier: 'professional',
    params: idParams,
    errors: ['NOT_FOUND'],
    response: alertSchema,
    async handler({ params, principal, sourceAddress }) {
      // who: the credential's kind and subject, or the local address of a caller who sent none
      const by = principal ? `${principal.kind} ${principal.subject}` : `local caller ${sourceAddress}`;
      const alert = await alerts.acknowledge(params.id, by);
      if (!alert) throw kernelErrors.create('NOT_FOUND', { what: `Alert ${params.id}` });
      return alert;
    },
  });
}
