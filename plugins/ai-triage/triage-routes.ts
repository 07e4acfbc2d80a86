/**
 * The four AI triage routes on the bridge base. Thin: read the body, check the tier (enterprise, in the handler as
 * the SPEC says: 402 TIER_REQUIRED below it), call the engine or the analysis service.
 */
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { Entitlement } from '../../kernel/entitlement.ts';
import type { InterfaceAnalysis } from './interfaces/interface-analysis.ts';
import type { TriageResult } from './triage/triage-engine.ts';
import { TRIAGE_EXAMPLES } from './triage-examples.ts';
import {
  interfaceWindowBodySchema,
  patternsResultSchema,
  summaryResultSchema,
  triageBodySchema,
  triageResultSchema,
  upgradeResultSchema,
} from './triage-schemas.ts';

/** What the triage routes call. */
export interface TriageRouteDeps {
  /** The licence check: triage is an enterprise feature. */
  entitlement: Entitlement;
  /** Triages one message. */
  triage(input: { content: string; validationErrors?: string[]; interfaceContext?: string }): Promise<TriageResult>;
  /** Patterns, summaries and upgrade checks of an interface's stored messages. */
  analysis: InterfaceAnalysis;
}

/** Registers triage, patterns, summary and upgrade-check. */
export function registerTriageRoutes(routes: RouteRegistrar, deps: TriageRouteDeps): void {
  const enterprise = () => deps.entitlement.require('enterprise', 'AI triage');
  routes.route({
    method: 'POST',
    url: '/api/monitor/triage',
    summary: 'Explain a failed message: root cause, explanation, ordered fixes, affected fields, category, confidence',
    description:
      'Offline rules engine (knowledge base per standard, field meanings from the standard\'s definitions); an optional ' +
      'local model only rephrases, seeing structure and the de-identified message. Enterprise tier (402 below it).',
    tags: ['ai-triage'],
    body: triageBodySchema,
    examples: TRIAGE_EXAMPLES.triage,
    response: triageResultSchema,
    heavy: true,
    handler({ body }) {
      enterprise();
      const content = typeof body.messageContent === 'string' ? body.messageContent : JSON.stringify(body.messageContent);
      return deps.triage({
        content,
        ...(body.validationErrors ? { validationErrors: body.validationErrors } : {}),
        ...(body.interfaceContext ? { interfaceContext: body.interfaceContext } : {}),
      });
    },
  });
  routes.route({
    method: 'POST',
    url: '/api/monitor/patterns',
    summary: 'Recurring failure patterns of an interface: clusters by code, field, message type and sender, with trends',
    tags: ['ai-triage'],
    body: interfaceWindowBodySchema,
    examples: TRIAGE_EXAMPLES.patterns,
    errors: ['INTERFACE_NOT_FOUND'],
    response: patternsResultSchema,
    handler({ body }) {
      enterprise();
      return deps.analysis.patterns(body.interfaceId, body.sinceHours);
    },
  });
  routes.route({
    method: 'POST',
    url: '/api/monitor/summary',
    summary: 'A plain-English summary of an interface\'s health with the facts behind it',
    tags: ['ai-triage'],
    body: interfaceWindowBodySchema,
    examples: TRIAGE_EXAMPLES.summary,
    errors: ['INTERFACE_NOT_FOUND'],
    response: summaryResultSchema,
    handler({ body }) {
      enterprise();
      return deps.analysis.summary(body.interfaceId, body.sinceHours);
    },
  });
  routes.route({
    method: 'POST',
    url: '/api/monitor/upgrade-check',
    summary: 'Whether the sender of an interface was upgraded: change point, changes, confidence (UpgradeDetectionResult)',
    tags: ['ai-triage'],
    body: interfaceWindowBodySchema,
    examples: TRIAGE_EXAMPLES.upgradeCheck,
    errors: ['INTERFACE_NOT_FOUND'],
    response: upgradeResultSchema,
    handler({ body }) {
      enterprise();
      return deps.analysis.upgradeCheck(body.interfaceId, body.sinceHours);
    },
  });
}
