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
export { IDENTIFIER_KINDS, type IdentifierKind } from './replacement/pseudonyms.ts';

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
  /**
   * Every original identifying value the de-identifier replaced or recognised in this message (names and their
   * parts, identifiers, phones, e-mails, addresses, dates...), one per normalised form. For guards that must prove
   * no original value leaves (look for them with {@link DeidentifyService.findNeedles}). Never serialised into an
   * HTTP answer, a report or a log: these are the very values that must not leave.
   */
  needles: readonly string[];
}

/** Where a needle occurs in a text: UTF-16 offsets, `end` exclusive. */
export interface NeedleSpan {
  start: number;
  end: number;
}

/** The de-identification service, registered under {@link DEIDENTIFY_SERVICE}. */
export interface DeidentifyService {
  /**
   * De-identifies one message text (an HL7 file may hold many messages). `standard` is detected when omitted.
   * Throws a 400 WorkbenchError for content of no known standard or a format it does not read (FHIR XML).
   */
  deidentify(content: string, standard?: string, field?: string): DeidentifyResult;

  /**
   * Where any of `needles` occurs in `text`: case-, accent- and punctuation-insensitively, whole words only (`ROE,
   * JANE` holds the needles `Jane` and `Roe`; `555-555-2004` holds `(555) 555-2004`; `Janet` does not hold `Jane`).
   * Needles with fewer than 3 letters or digits, of digits only and fewer than 4, or a single common word (titles,
   * `male`, `home`, `street`...) are ignored. One pass over the text: linear in its size times the longest needle.
   */
  findNeedles(text: string, needles: readonly string[]): NeedleSpan[];
}
