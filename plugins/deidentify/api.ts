/**
 * Public surface of the de-identification plugin: the container token of its service, for plugins (AI triage) that
 * must never let a raw value leave the process.
 *
 * ```ts
 * const deidentify = resolveService(context.container, DEIDENTIFY_SERVICE);
 * const { messageContent, report } = deidentify.deidentify(text);
 * ```
 */
import { createServiceRef } from '../../kernel/service-ref.ts';
import type { DeidentificationReport } from './deidentify-report.ts';

export type { DeidentificationReport, ReplacementEntry } from './deidentify-report.ts';
export { IDENTIFIER_KINDS, type IdentifierKind } from './pseudonyms.ts';

/** Container token of {@link DeidentifyService}. */
export const DEIDENTIFY_SERVICE = createServiceRef<DeidentifyService>('workbench.deidentify');

/** The standards de-identification reads. */
export type DeidentifiableStandard = 'hl7' | 'fhir' | 'ncpdp';

/** A de-identified message and what was replaced in it. */
export interface DeidentifyResult {
  standard: DeidentifiableStandard;
  /** The message with every identifying value replaced; structure, delimiters and check digits kept. */
  messageContent: string;
  report: DeidentificationReport;
}

/** The de-identification service, registered under {@link DEIDENTIFY_SERVICE}. */
export interface DeidentifyService {
  /**
   * De-identifies one message text (an HL7 file may hold many messages). `standard` is detected when omitted.
   * Throws a 400 WorkbenchError for content of no known standard or a format it does not read (FHIR XML).
   */
  deidentify(content: string, standard?: string, field?: string): DeidentifyResult;
}
