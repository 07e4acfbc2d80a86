/**
 * The bridge's message routes. They only pick the adapter (named or detected), call it, and let the kernel wrap the
 * answer in the envelope: no standard's logic lives here.
 */
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { StandardAdapter, StandardsRegistry } from '../../kernel/standards-registry.ts';
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
  validationResultSchema,
} from './bridge-schemas.ts';
import { adapterById, selectAdapter } from './standard-selection.ts';
import { bridgeErrors } from './errors.ts';
import { kernelErrors } from '../../kernel/errors.ts';

/**
 * The version to generate: an explicit `version`, else `hl7Version` when the adapter has that version (the contract
 * names the HL7 field), else the adapter's default.
 */
export function generationVersion(adapter: StandardAdapter, version: string | undefined, hl7Version: string): string {
  if (version) return version;
  return adapter.versions.includes(hl7Version) ? hl7Version : adapter.defaultVersion;
}

/** Registers validate, diff, generate, profiles, standards and describe. */
export function registerBridgeRoutes(routes: RouteRegistrar, standards: StandardsRegistry): void {
  routes.route({
    method: 'POST',
    url: '/api/validate',
    summary: 'Validate a message (HL7 v2, FHIR or NCPDP; detected when standard is omitted)',
    description:
      'An invalid message is still success: true, with data.isValid false and the findings in data.errors.',
    tags: ['messages'],
    body: validateBodySchema,
    response: validationResultSchema,
    handler({ body }) {
      const adapter = selectAdapter(standards, body.standard, body.messageContent, 'messageContent');
      const result = adapter.validate(body.messageContent, {
        mode: body.mode,
        ...(body.profile ? { profile: body.profile } : {}),
        ...(body.version ? { version: body.version } : {}),
      });
      return { ...result, standard: adapter.id };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/diff',
    summary: 'Compare two messages field by field (after parsing)',
    tags: ['messages'],
    body: diffBodySchema,
    response: diffResultSchema,
    handler({ body }) {
      const adapter = selectAdapter(standards, body.standard, body.leftMessage, 'leftMessage');
      if (!body.standard) {
        const right = selectAdapter(standards, undefined, body.rightMessage, 'rightMessage');
        if (right.id !== adapter.id) {
          throw bridgeErrors.create('STANDARDS_DIFFER', { left: adapter.displayName, right: right.displayName });
        }
      }
      const result = adapter.diff(body.leftMessage, body.rightMessage, { ignoredFields: body.ignoredFields });
      return { ...result, standard: adapter.id };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/generate',
    summary: 'Generate realistic synthetic messages (seedable)',
    description: 'data is an array of raw messages; HL7 segments are separated by carriage returns.',
    tags: ['messages'],
    body: generateBodySchema,
    response: generateResultSchema,
    handler({ body }) {
      const adapter = adapterById(standards, body.standard);
      return adapter.generate({
        messageType: body.messageType ?? adapter.messageTypes[0],
        version: generationVersion(adapter, body.version, body.hl7Version),
        count: body.count,
        ...(body.seed === null ? {} : { seed: body.seed }),
      });
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/profiles',
    summary: 'Profiles loaded from the profile packs, for every standard',
    tags: ['messages'],
    response: profileListSchema,
    handler: () => standards.list().flatMap((adapter) => adapter.profiles()),
  });

  routes.route({
    method: 'GET',
    url: '/api/standards',
    summary: 'Registered standards with their versions and generatable message types',
    tags: ['messages'],
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
    response: fieldDescriptionSchema,
    handler({ query }) {
      const adapter = adapterById(standards, query.standard);
      const description = adapter.describe(query.path, query.version ? { version: query.version } : {});
      if (!description) throw kernelErrors.create('NOT_FOUND', { what: `Field ${query.path} of ${adapter.displayName}` });
      return description;
    },
  });
}
