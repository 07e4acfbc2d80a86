/**
 * The optional model: any OpenAI-compatible chat-completions endpoint (a local Ollama or llama.cpp server) reached
 * with fetch. The offline answer is computed first; the model only rephrases it and adds fixes. On a timeout, an
 * error or an answer that is not the JSON asked for, the offline answer comes back unchanged with a note.
 */
import type { LlmConfig } from './triage-config.ts';
import type { SuggestedFix, TriageResult } from './triage-engine.ts';

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

/** Calls the model and merges its answer into the offline one (which it never loses). */
export async function rephraseWithModel(
  config: LlmConfig,
  offline: TriageResult,
  messages: Array<{ role: string; content: string }>,
  env: NodeJS.ProcessEnv,
  fetchImpl: typeof fetch = fetch,
): Promise<TriageResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = config.apiKeyEnv ? env[config.apiKeyEnv] : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: config.model, messages, temperature: 0, stream: false }),
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) return withNote(offline, `The model answered HTTP ${response.status}; the offline answer is shown.`);
    const body = (await response.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') return withNote(offline, 'The model\'s answer had no message content; the offline answer is shown.');
    const json = /\{[\s\S]*\}/.exec(content)?.[0];
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
      engine: config.model,
      notes: [...offline.notes, `Rephrased by ${config.model} from the offline answer (${offline.knowledgeEntry ?? 'no knowledge entry'}), which saw only structure and the de-identified message.`],
    };
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `did not answer within ${config.timeoutMs} ms` : 'could not be reached';
    return withNote(offline, `The model ${reason}; the offline answer is shown.`);
  }
}

function withNote(result: TriageResult, note: string): TriageResult {
  return { ...result, notes: [...result.notes, note] };
}
