/** POST /api/deidentify: the route only reads the body and calls the service. */
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { DeidentifyService } from './api.ts';
import { DEIDENTIFY_EXAMPLE } from './deidentify-examples.ts';
import { deidentifyBodySchema, deidentifyResultSchema } from './deidentify-schemas.ts';

/** What the de-identification route works with. */
export interface DeidentifyRouteDeps {
  /** The service that replaces the identifiers. */
  service: DeidentifyService;
}

/** Registers POST /api/deidentify on a base (the bridge, and the monitor for its message view). */
export function registerDeidentifyRoutes(routes: RouteRegistrar, deps: DeidentifyRouteDeps): void {
  const { service } = deps;
  routes.route({
    method: 'POST',
    url: '/api/deidentify',
    summary: 'De-identify a message (HL7 v2, FHIR JSON or NCPDP): every HIPAA Safe Harbor identifier replaced',
    description:
      'Names, addresses, dates (shifted by one offset per patient), phones, e-mails, SSNs, record, account, plan and ' +
      'licence numbers, free text and narrative are replaced by realistic values that stay the same for the same input ' +
      '(keyed by the local key file of the data folder). Structure, delimiters and check digits are kept, so the ' +
      'result validates as the original did. The report lists what was replaced by kind and path, never values.',
    tags: ['messages'],
    body: deidentifyBodySchema,
    examples: DEIDENTIFY_EXAMPLE,
    response: deidentifyResultSchema,
    heavy: true,
    handler({ body }) {
      const content = typeof body.messageContent === 'string' ? body.messageContent : JSON.stringify(body.messageContent);
      // Picked field by field: the result's needles (the original values) never reach an answer.
      const { standard, messageContent, report } = service.deidentify(content, body.standard);
      return { standard, messageContent, report };
    },
  });
}
