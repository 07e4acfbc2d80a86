/**
 * The optional model: any OpenAI-compatible chat-completions endpoint (a local Ollama or llama.cpp server) reached
 * with fetch. The offline answer is computed first; the model only rephrases it and adds fixes. On a timeout, an
 * error or an answer that is not the JSON asked for, the offline answer comes back unchanged with a note.
 *
 * {@link ModelGateway.complete} is the one place a request toward the model is made (nothing else in the plugin calls
 * fetch): before a byte is sent, the outgoing guard searches the whole body for the needles of the original message
 * and of the caller's texts; a hit withholds the call, is logged with the JSON path that carried it (never the
 * value) and is announced as `ai-triage.model.withheld`, which the metrics count.
 */
import type { Logger } from 'pino';
import type { EventBus } from '../../../kernel/events.ts';
import type { ModelCallWithheld } from '../api.ts';
import { MAX_CALLER_TOKENS } from './caller-needles.ts';
import { needleCarriers, type NeedleFinder } from './outgoing-guard.ts';
import type { LlmConfig } from '../triage-config.ts';
import type { SuggestedFix, TriageResult } from '../triage/triage-engine.ts';

/** True for a loopback host (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why the model cannot be used with this config, or undefined when it can. */
export function llmConfigProblem(config: LlmConfig): string | undefined {
  let url: URL;
  try {
    url = new URL(config.baseUrl);
  } catch {
    return `plugins.ai-triage.llm.baseUrl "${config.baseUrl}" is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'plugins.ai-triage.llm.baseUrl must be http or https';
  if (!isLoopbackHost(url.hostname) && !config.allowRemote) {
    return `plugins.ai-triage.llm.baseUrl ${url.host} is not a loopback address; set allowRemote: true to send de-identified structure to it`;
  }
  return undefined;
}

/** The model's answer, as asked for in the prompt. */
interface ModelAnswer {
  rootCause?: unknown;
  explanation?: unknown;
  additionalFixes?: unknown;
}

function text(value: unknown, limit: number): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, limit) : undefined;
}

/** One chat message of a request. */
export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** What a call gave: the model's text, or why there is none (a note for the answer, naming no value). */
export type ModelCallOutcome = { ok: true; content: string } | { ok: false; note: string };

/** What the gateway needs besides its config. */
export interface ModelGatewayDeps {
  findNeedles: NeedleFinder;
  logger: Pick<Logger, 'warn'>;
  events: Pick<EventBus, 'emit'>;
  env: NodeJS.ProcessEnv;
  fetchImpl?: typeof fetch;
}

/** The one way out toward the model, behind the guard. */
export class ModelGateway {
  constructor(
    private readonly config: LlmConfig,
    private readonly deps: ModelGatewayDeps,
  ) {}

  /** The model's name (for `engine` and notes). */
  get model(): string {
    return this.config.model;
  }

  /** Records a call withheld before a request was made (logged and announced like a guard hit); answers its note. */
  withhold(use: ModelCallWithheld['use'], reason: Exclude<ModelCallWithheld['reason'], 'identifier'>): ModelCallOutcome & { ok: false } {
    const why =
      reason === 'not-deidentified'
        ? 'the message could not be de-identified, so nothing derived from it may leave'
        : `the findings sent along hold more than ${MAX_CALLER_TOKENS} distinct words, too many to check`;
    this.deps.logger.warn({ use, reason }, `The model call was withheld: ${why}.`);
    this.deps.events.emit('ai-triage.model.withheld', { use, reason, paths: [] });
    return { ok: false, note: `The model call was withheld: ${why}; the offline answer is shown.` };
  }

  /**
   * Sends one chat-completions request unless the guard finds a needle in it; `needles` are every original
   * identifying value of the message and every non-structure token of the caller's texts. `use` names the caller
   * (`triage`) in logs and metrics. Never throws.
   */
  async complete(use: ModelCallWithheld['use'], messages: readonly ChatMessage[], needles: readonly string[]): Promise<ModelCallOutcome> {
    const body = { model: this.config.model, messages, temperature: 0, stream: false };
    const serialised = JSON.stringify(body);
    const carriers = needleCarriers(body, serialised, needles, this.deps.findNeedles);
    if (carriers.length > 0) {
      const event: ModelCallWithheld = { use, reason: 'identifier', paths: carriers };
      this.deps.logger.warn({ use, paths: carriers }, `The model call was withheld: the request carried an identifying value at ${carriers.join(', ')}.`);
      this.deps.events.emit('ai-triage.model.withheld', event);
      return {
        ok: false,
        note: `The model call was withheld: the request would have carried an identifying value of the message or of the findings sent along (at ${carriers.join(', ')}); the offline answer is shown.`,
      };
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = this.config.apiKeyEnv ? this.deps.env[this.config.apiKeyEnv] : undefined;
    if (key) headers.authorization = `Bearer ${key}`;
    const url = `${this.config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    try {
      const response = await (this.deps.fetchImpl ?? fetch)(url, {
        method: 'POST',
        headers,
        body: serialised,
        signal: AbortSignal.timeout(this.config.timeoutMs),
        redirect: 'error',
      });
      if (!response.ok) return { ok: false, note: `The model answered HTTP ${response.status}; the offline answer is shown.` };
      const answer = (await response.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
      const content = answer.choices?.[0]?.message?.content;
      if (typeof content !== 'string') return { ok: false, note: 'The model\'s answer had no message content; the offline answer is shown.' };
      return { ok: true, content };
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `did not answer within ${this.config.timeoutMs} ms` : 'could not be reached';
      return { ok: false, note: `The model ${reason}; the offline answer is shown.` };
    }
  }
}

/** Calls the model through the gateway and merges its answer into the offline one (which it never loses). */
export async function rephraseWithModel(
  gateway: ModelGateway,
  offline: TriageResult,
  messages: readonly ChatMessage[],
  needles: readonly string[],
): Promise<TriageResult> {
  const outcome = await gateway.complete('triage', messages, needles);
  if (!outcome.ok) return withNote(offline, outcome.note);
  const json = /\{[\s\S]*\}/.exec(outcome.content)?.[0];
  let answer: ModelAnswer;
  try {
    answer = JSON.parse(json ?? '') as ModelAnswer;
  } catch {
    return withNote(offline, 'The model did not answer with the JSON asked for; the offline answer is shown.');
  }
  const fixes: SuggestedFix[] = [...offline.suggestedFixes];
  if (Array.isArray(answer.additionalFixes)) {
    for (const fix of answer.additionalFixes.slice(0, 5)) {
      const item = fix as { side?: unknown; field?: unknown; action?: unknown };
      const action = text(item.action, 500);
      if (!action) continue;
      fixes.push({ order: fixes.length + 1, side: item.side === 'receiver' ? 'receiver' : 'sender', field: text(item.field, 100) ?? 'the message', action });
    }
  }
  return {
    ...offline,
    rootCause: text(answer.rootCause, 500) ?? offline.rootCause,
    explanation: text(answer.explanation, 4_000) ?? offline.explanation,
    suggestedFixes: fixes,
    engine: gateway.model,
    notes: [...offline.notes, `Rephrased by ${gateway.model} from the offline answer (${offline.knowledgeEntry ?? 'no knowledge entry'}), which saw only structure and the de-identified message.`],
  };
}

/** The offline answer with one more note. */
export function withNote(result: TriageResult, note: string): TriageResult {
  return { ...result, notes: [...result.notes, note] };
}
