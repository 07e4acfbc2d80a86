/**
 * The bridge's message routes. They only pick the adapter (named or detected), call it, and let the kernel wrap the
 * answer in the envelope: no standard's logic lives here.
 */
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { StandardsRegistry } from '../../kernel/standards-registry.ts';
import type { StandardsRunner } from '../../kernel/workers/standards-runner.ts';
import {
  describeQuerySchema,
  diffBodySchema,
  diffResultSchema,
  fieldDescriptionSchema,
  generateBodySchema,
  generateResultSchema,
  profileListSchema,
  standardListSchema,
  validateBodySchema,
  validateQuerySchema,
  validationResultSchema,
} from './bridge-schemas.ts';
import { adapterById, adapterForGeneration, canonicalVersion, generationVersion, selectAdapter, selectDiffAdapter } from './standard-selection.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { withDifferenceTotals, withIssueTotals } from '../../kernel/standards/issue-list.ts';
import { checkPathPatternLimits } from '../../kernel/lib/paths/path-pattern.ts';
import type { BridgeConfig } from './bridge-config.ts';
import { BRIDGE_EXAMPLES } from './bridge-examples.ts';
import { placeFindings } from './finding-places.ts';
import { RAW_MESSAGE_CONTENT_TYPES, definedOnly, messageText } from './message-input.ts';
import { generateScenarioMessages, rejectScenarioOptions } from './journey-scenario.ts';

/** What the bridge's routes work with. */
export interface BridgeRouteDeps {
  /** The registered standard adapters. */
  standards: StandardsRegistry;
  /** The kernel's runner, which keeps large inputs off the event loop. */
  runner: StandardsRunner;
  /** The bridge's configuration (limits on issues and differences). */
  config: BridgeConfig;
}

/**
 * Registers validate, diff, generate, profiles, standards and describe. The message work goes through the kernel's
 * runner, which keeps large inputs off the event loop.
 */
export function registerBridgeRoutes(routes: RouteRegistrar, deps: BridgeRouteDeps): void {
  const { standards, runner, config } = deps;
  routes.route({
    method: 'POST',
    url: '/api/validate',
    summary: 'Validate a message (HL7 v2, FHIR or NCPDP; detected when standard is omitted)',
    description:
      'An invalid message is still success: true, with data.isValid false and the findings in data.errors. ' +
      'Send JSON ({messageContent, standard?, mode?, profile?, version?}; messageContent may be a FHIR resource as a ' +
      'JSON object), or the message itself as the body (text/plain, x-application/hl7-v2+er7, application/fhir+json, ' +
      'application/xml, ...) with standard, mode, profile and version as query parameters. A body sent as a form ' +
      '(curl --data-binary without a content type) is read as the message, and a JSON object with resourceType and ' +
      'no messageContent is a FHIR resource to validate. With positions: true each listed finding says where it is in ' +
      'the text (a character range), so a page can highlight it in place.',
    tags: ['messages'],
    query: validateQuerySchema,
    body: validateBodySchema,
    rawBody: {
      contentTypes: RAW_MESSAGE_CONTENT_TYPES,
      toBody: (message, query) => ({ ...definedOnly(query), messageContent: message }),
      // A FHIR resource posted as application/json is the message, not the {messageContent, ...} form.
      isMessage: (body) => 'resourceType' in body && !('messageContent' in body),
    },
    examples: BRIDGE_EXAMPLES.validate,
    response: validationResultSchema,
    heavy: true,
    async handler({ body }) {
      const content = messageText(body.messageContent);
      const adapter = selectAdapter(standards, body.standard, content, 'messageContent');
      const result = await runner.validate(adapter, content, {
        mode: body.mode,
        maxIssues: config.maxIssues,
        ...(body.profile ? { profile: body.profile } : {}),
        ...(body.version ? { version: canonicalVersion(adapter, body.version) } : {}),
      });
      const listed = withIssueTotals(result, config.maxIssues);
      return { ...(body.positions ? placeFindings(listed, adapter.id, content) : listed), standard: adapter.id };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/diff',
    summary: 'Compare two messages field by field (after parsing)',
    tags: ['messages'],
    body: diffBodySchema,
    examples: BRIDGE_EXAMPLES.diff,
    response: diffResultSchema,
    heavy: true,
    async handler({ body }) {
      // Patterns over the limits are refused here, before any message is read or a worker is involved.
      checkPathPatternLimits(body.ignoredFields, 'ignoredFields');
      const left = messageText(body.leftMessage);
      const right = messageText(body.rightMessage);
      const adapter = selectDiffAdapter(standards, body.standard, left, right);
      const result = await runner.diff(adapter, left, right, { ignoredFields: body.ignoredFields, maxDifferences: config.maxDifferences });
      return { ...withDifferenceTotals(result, config.maxDifferences), standard: adapter.id };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/generate',
    summary: 'Generate realistic synthetic messages (seedable)',
    description: 'data is an array of raw messages; HL7 segments are separated by carriage returns.',
    tags: ['messages'],
    body: generateBodySchema,
    examples: BRIDGE_EXAMPLES.generate,
    response: generateResultSchema,
    handler({ body }) {
      if (body.scenario !== undefined) {
        const scenario = { ...body, scenario: body.scenario };
        if (body.referenceTime !== undefined) {
          const message = 'a scenario is placed in time by start (its first step), not referenceTime';
          throw kernelErrors.create('VALIDATION_FAILED', { summary: `body.referenceTime: ${message}` }, [{ location: 'body', path: 'referenceTime', message }]);
        }
        return generateScenarioMessages(standards, scenario, (hl7) => generationVersion(hl7, body.version, body.hl7Version), Date.now());
      }
      rejectScenarioOptions(body);
      const adapter = adapterForGeneration(standards, body.standard, body.messageType);
      const version = generationVersion(adapter, body.version, body.hl7Version);
      return runner.generate(adapter, {
        messageType: body.messageType ?? adapter.messageTypes[0],
        ...(version === undefined ? {} : { version }),
        count: body.count,
        ...(body.seed === null ? {} : { seed: body.seed }),
        // stamped near now unless the caller names the instant: generated data is read as fresh by the monitor
        referenceTimeMs: body.referenceTime === undefined ? Date.now() : Date.parse(body.referenceTime),
      });
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/profiles',
    summary: 'Profiles loaded from the profile packs, for every standard',
    tags: ['messages'],
    examples: BRIDGE_EXAMPLES.profiles,
    response: profileListSchema,
    handler: () => standards.list().flatMap((adapter) => adapter.profiles()),
  });

  routes.route({
    method: 'GET',
    url: '/api/standards',
    summary: 'Registered standards with their versions and generatable message types',
    tags: ['messages'],
    examples: BRIDGE_EXAMPLES.standards,
    response: standardListSchema,
    handler: () =>
      standards.list().map((adapter) => ({
        id: adapter.id,
        displayName: adapter.displayName,
        versions: [...adapter.versions],
        defaultVersion: adapter.defaultVersion,
        messageTypes: [...adapter.messageTypes],
      })),
  });

  routes.route({
    method: 'GET',
    url: '/api/describe',
    summary: 'What a field path means (name, data type, optionality, table)',
    tags: ['messages'],
    query: describeQuerySchema,
    examples: BRIDGE_EXAMPLES.describe,
    response: fieldDescriptionSchema,
    handler({ query }) {
      const adapter = adapterById(standards, query.standard);
      const description = adapter.describe(
        query.path,
        query.version ? { version: canonicalVersion(adapter, query.version) } : {},
      );
      if (!description) throw kernelErrors.create('NOT_FOUND', { what: `Field ${query.path} of ${adapter.displayName}` });
      return description;
    },
  });
}
