/**
 * Public surface of the AI triage plugin: the event it emits when the guard withholds a call to the model, for the
 * metrics (plugins/admin counts it as `workbench_model_calls_withheld_total`).
 *
 * ```ts
 * context.events.on('ai-triage.model.withheld', ({ use, reason }) => counter.inc({ use, reason }));
 * ```
 */

/** A model call the outgoing guard refused; names where the identifier was, never the identifier. */
export interface ModelCallWithheld {
  /** Which answer wanted the model. */
  use: 'triage';
  /**
   * `identifier`: a needle of the message or of the caller's texts was in the request body; `not-deidentified`: the
   * message could not be de-identified, so there was nothing safe to send and no needles to check against;
   * `findings-uncheckable`: the caller's findings held too many distinct tokens to check.
   */
  reason: 'identifier' | 'not-deidentified' | 'findings-uncheckable';
  /** JSON paths of the request body that carried one (`$.messages[1].content`); empty for `not-deidentified`. */
  paths: string[];
}

declare module '../../kernel/events.ts' {
  interface WorkbenchEvents {
    'ai-triage.model.withheld': ModelCallWithheld;
  }
}
