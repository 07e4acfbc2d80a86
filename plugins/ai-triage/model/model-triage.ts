/**
 * The model step of triage: the offline answer, the message de-identified, and the guard's needles (every
 * identifying value of the original message, and every token of the caller's own texts that is not structure) go
 * to the gateway, which sends the prompt only when none of the needles is in it. Content of no standard is not in
 * the prompt at all (its answer is fixed text); content that cannot be de-identified, or findings with too many
 * distinct tokens to check, are withheld.
 */
import type { StandardAdapter } from '../../../kernel/standards-registry.ts';
import type { DeidentifyService } from '../../deidentify/api.ts';
import { callerNeedles } from './caller-needles.ts';
import { type ModelGateway, rephraseWithModel, withNote } from './llm-client.ts';
import { buildTriagePrompt } from './llm-prompt.ts';
import type { TriageInput, TriageResult } from '../triage/triage-engine.ts';

/** What the model step works with. */
export interface ModelTriageDeps {
  gateway: ModelGateway;
  deidentify: Pick<DeidentifyService, 'deidentify'>;
  /** The registered adapter of a standard id. */
  adapterOf(standard: string): StandardAdapter | undefined;
  /** Words that are structure whatever the request (caller-needles.ts `structureVocabulary`). */
  vocabulary: ReadonlySet<string>;
}

/** The offline answer rephrased by the model when the guard lets the request out, else with a note saying why not. */
export async function triageWithModel(offline: TriageResult, input: TriageInput, deps: ModelTriageDeps): Promise<TriageResult> {
  const adapter = offline.standard ? deps.adapterOf(offline.standard) : undefined;
  let deidentified: { messageContent: string; needles: readonly string[] } | null = null;
  if (adapter) {
    try {
      deidentified = deps.deidentify.deidentify(input.content, adapter.id);
    } catch {
      return withNote(offline, deps.gateway.withhold('triage', 'not-deidentified').note);
    }
  }
  const version = adapter && offline.version && adapter.versions.includes(offline.version) ? offline.version : undefined;
  const callers = callerNeedles([...(input.validationErrors ?? []), input.interfaceContext ?? ''], {
    vocabulary: deps.vocabulary,
    describe: (path) => {
      try {
        return adapter?.describe(path, version ? { version } : {}) ?? undefined;
      } catch {
        return undefined;
      }
    },
    declared: [...(adapter?.versions ?? []), offline.version ?? '', offline.messageType ?? ''],
  });
  if (callers === undefined) return withNote(offline, deps.gateway.withhold('triage', 'findings-uncheckable').note);
  const prompt = buildTriagePrompt(offline, deidentified?.messageContent ?? null);
  return rephraseWithModel(deps.gateway, offline, prompt, [...(deidentified?.needles ?? []), ...callers]);
}
