/**
 * Tracing routes on the monitor base: traces, gaps, latency between interfaces, and the expected sequences (listed
 * with the observed ones, added, removed). Handlers check what the schemas cannot (a key is given, a sequence parses,
 * an interface exists) and leave the work to {@link TracingService}.
 */
import { z } from 'zod';
import { kernelErrors } from '../../kernel/errors.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { interfaceNotFound, type MonitorService } from '../monitor/api.ts';
import { windowInvalid } from '../../kernel/lib/time/time-window.ts';
import { SequenceSyntaxError, formatSequence, parseSequence } from './sequence-syntax.ts';
import { describeUnknownStep, unknownInterfaceSteps } from './sequence-interfaces.ts';
import { tracingErrors } from './tracing-errors.ts';
import { TRACING_EXAMPLES } from './tracing-examples.ts';
import {
  definedSequenceSchema,

  gapsQuery,
  gapsSchema,
  latencyQuery,
  latencySchema,
  sequenceBody,
  sequenceParams,
  sequencesSchema,
  traceParams,
  tracePathQuery,
  traceQuery,
  traceSchema,
} from './tracing-schemas.ts';
import type { TracingService } from './tracing-service.ts';

const TAGS = ['tracing'];
const DAY_MS = 86_400_000;

/** Parses a sequence text of a request field, or answers 400 SEQUENCE_SYNTAX naming the field and the position. */
export function requireSequence(field: string, text: string): string {
  try {
    return formatSequence(parseSequence(text));
  } catch (error) {
    if (error instanceof SequenceSyntaxError) {
      throw tracingErrors.create('SEQUENCE_SYNTAX', { field, problem: error.message }, { field, position: error.position, expected: error.expected });
    }
    throw error;
  }
}

/**
 * Answers 400 VALIDATION_FAILED when a step of a sequence text (already checked by {@link requireSequence}) is bound
 * to an interface that is neither the name nor the id of an existing interface: such a step could never match, and
 * every patient would read as missing it.
 */
async function requireKnownInterfaces(monitor: MonitorService, location: 'body' | 'query', field: string, text: string): Promise<void> {
  if (parseSequence(text).steps.every((step) => step.interface === null)) return;
  const known = new Set<string>();
  for (const monitored of await monitor.listInterfaces()) known.add(monitored.name).add(monitored.id);
  const unknown = unknownInterfaceSteps(text, known);
  if (unknown.length === 0) return;
  const details = unknown.map((step) => ({ location, path: field, message: describeUnknownStep(step) }));
  throw kernelErrors.create('VALIDATION_FAILED', { summary: `${location}.${field}: ${details.map((d) => d.message).join('; ')}` }, details);
}

async function requireInterface(monitor: MonitorService, field: string, id: string): Promise<void> {
  if (!(await monitor.interfaceExists(id))) throw interfaceNotFound(id, field);
}

/** What the tracing routes work with. */
export interface TracingRouteDeps {
  /** The sequences and their traces. */
  service: TracingService;
  /** The monitor's service contract (which interfaces exist). */
  monitor: MonitorService;
  /** The clock: a default window starts a day before it, and a created sequence is stamped with it. */
  clock: Clock;
  /** Names of the sequences the configuration declares (not created or deleted through the API). */
  configNames: ReadonlySet<string>;
  /** Told after a sequence was removed (the defined sequences are judged again). */
  sequencesChanged: () => void;
}

/** Registers the tracing routes. */
export function registerTracingRoutes(routes: RouteRegistrar, deps: TracingRouteDeps): void {
  const { service, monitor, clock, configNames, sequencesChanged } = deps;

  routes.route({
    method: 'GET',
    url: '/api/monitor/traces',
    summary: "A patient's (or account's, or control id's) messages across every interface, in time order, with the gaps",
    description:
      'At least one of patient_id, account_number, control_id. Without assigning_authority a patient id found under ' +
      'several authorities lists them in assigningAuthorities (several patients share the number); the events are ' +
      'still all shown and the gaps judged per authority. A key that matches nothing gives an empty trace.',
    tags: TAGS,
    query: traceQuery,
    examples: TRACING_EXAMPLES.trace,
    response: traceSchema,
    handler({ query }) {
      if (query.patient_id === undefined && query.account_number === undefined && query.control_id === undefined) {
        throw tracingErrors.create('TRACE_KEY_REQUIRED', {}, { fields: ['patient_id', 'account_number', 'control_id'] });
      }
      return service.trace({
        ...(query.patient_id !== undefined ? { patientId: query.patient_id } : {}),
        ...(query.assigning_authority !== undefined ? { assigningAuthority: query.assigning_authority } : {}),
        ...(query.account_number !== undefined ? { accountNumber: query.account_number } : {}),
        ...(query.control_id !== undefined ? { controlId: query.control_id } : {}),
        ...(query.since !== undefined ? { since: query.since } : {}),
        limit: query.limit,
      });
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/traces/:traceId',
    summary: 'The trace of a patient id (the same as GET /api/monitor/traces?patient_id=...)',
    tags: TAGS,
    params: traceParams,
    query: tracePathQuery,
    examples: TRACING_EXAMPLES.traceById,
    response: traceSchema,
    handler({ params, query }) {
      return service.trace({
        patientId: params.traceId,
        ...(query.assigning_authority !== undefined ? { assigningAuthority: query.assigning_authority } : {}),
        ...(query.since !== undefined ? { since: query.since } : {}),
        limit: query.limit,
      });
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/gaps',
    summary: 'Missing, late and out-of-order steps of the expected sequences, missing MSH-13 numbers and duplicate control ids',
    description:
      'The window runs from since (default 24 hours ago) to now and reads at most plugins.tracing.maxScanMessages ' +
      'messages (truncated says when that cut it). sequence judges that sequence instead of the defined ones. ' +
      'Exact resends (same sender, control id and content) are counted in resends, not listed as gaps.',
    tags: TAGS,
    query: gapsQuery,
    examples: TRACING_EXAMPLES.gaps,
    errors: ['INTERFACE_NOT_FOUND'],
    response: gapsSchema,
    async handler({ query }) {
      const sequence = query.sequence === undefined ? undefined : requireSequence('sequence', query.sequence);
      if (sequence !== undefined) await requireKnownInterfaces(monitor, 'query', 'sequence', sequence);
      if (query.interface_id !== undefined) await requireInterface(monitor, 'interface_id', query.interface_id);
      return service.gaps({
        ...(query.interface_id !== undefined ? { interfaceId: query.interface_id } : {}),
        ...(sequence !== undefined ? { sequence } : {}),
        ...(query.patient_id !== undefined ? { patientId: query.patient_id } : {}),
        since: query.since ?? new Date(clock.nowMs() - DAY_MS),
        limit: query.limit,
      });
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/latency',
    summary: 'Latency between two interfaces: each destination message paired with its source message; quantiles and an hourly series',
    description:
      'A pair is the same control id, or an acknowledgement whose MSA-2 names the source control id, or else the same ' +
      'patient and message type with MSH-7 within match_window_ms. The hop is destination received time minus ' +
      'source received time. Window: since (default 24 hours ago) to until (default now; a later until is taken as now).',
    tags: TAGS,
    query: latencyQuery,
    examples: TRACING_EXAMPLES.latency,
    errors: ['INTERFACE_NOT_FOUND', 'WINDOW_INVALID'],
    response: latencySchema,
    async handler({ query }) {
      await requireInterface(monitor, 'from_interface', query.from_interface);
      await requireInterface(monitor, 'to_interface', query.to_interface);
      const nowMs = clock.nowMs();
      const since = query.since ?? new Date(nowMs - DAY_MS);
      // Nothing is received after now: a later until is now (an open-ended window, like no until at all).
      const until = query.until !== undefined && query.until.getTime() < nowMs ? query.until : undefined;
      if (until !== undefined && until.getTime() <= since.getTime()) {
        throw windowInvalid(`until (${until.toISOString()}) is not after since (${since.toISOString()}); give a window that starts before it ends`, 'until');
      }
      if (until === undefined && since.getTime() > nowMs) {
        throw windowInvalid(`since must not lie in the future (now is ${new Date(nowMs).toISOString()})`, 'since');
      }
      return service.latency({
        fromInterface: query.from_interface,
        toInterface: query.to_interface,
        ...(query.message_type !== undefined ? { messageType: query.message_type } : {}),
        since,
        ...(until !== undefined ? { until } : {}),
        ...(query.match_window_ms !== undefined ? { matchWindowMs: query.match_window_ms } : {}),
      });
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/sequences',
    summary: 'Expected sequences (config and API) and the paths the monitor observes most often, with patient counts',
    description:
      'Observed paths come from the first plugins.tracing.observedMaxMessages messages of the last observedWindowHours ' +
      'hours: per patient, message types in time order (repeats and acknowledgements left out, at most 8 steps); ' +
      'computed at most once a minute.',
    tags: TAGS,
    examples: TRACING_EXAMPLES.listSequences,
    response: sequencesSchema,
    async handler() {
      const [defined, observed] = await Promise.all([service.definedSequences(), service.observed()]);
      return {
        defined,
        observed: observed.sequences,
        observedWindow: { since: observed.since, messagesRead: observed.messagesRead, truncated: observed.truncated },
      };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/sequences',
    summary: 'Define an expected sequence (ADT^A01@adt-in>ORM^O01<1h>ORU^R01<4h)',
    tags: TAGS,
    minimumRole: 'MonitorOperator',
    body: sequenceBody,
    examples: TRACING_EXAMPLES.addSequence,
    response: definedSequenceSchema,
    successStatus: 201,
    async handler({ body }) {
      const sequence = requireSequence('sequence', body.sequence);
      await requireKnownInterfaces(monitor, 'body', 'sequence', sequence);
      if (configNames.has(body.name)) throw tracingErrors.create('SEQUENCE_EXISTS', { name: body.name });
      const stored = { name: body.name, sequence, alert: body.alert, createdAt: clock.now().toISOString() };
      if (!(await service.addSequence(stored))) throw tracingErrors.create('SEQUENCE_EXISTS', { name: body.name });
      return { ...stored, source: 'api' as const };
    },
  });

  routes.route({
    method: 'DELETE',
    url: '/api/monitor/sequences/:name',
    summary: 'Remove a sequence defined through the API',
    tags: TAGS,
    minimumRole: 'MonitorOperator',
    params: sequenceParams,
    examples: TRACING_EXAMPLES.removeSequence,
    response: z.object({ name: z.string(), removed: z.boolean() }),
    async handler({ params }) {
      if (configNames.has(params.name)) throw tracingErrors.create('SEQUENCE_FROM_CONFIG', { name: params.name });
      if (!(await service.removeSequence(params.name))) throw kernelErrors.create('NOT_FOUND', { what: `Sequence "${params.name}"` });
      sequencesChanged();
      return { name: params.name, removed: true };
    },
  });
}

