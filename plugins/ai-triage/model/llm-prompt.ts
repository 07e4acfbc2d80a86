/**
 * What an optional model sees: built only from structure — the standard, message type and version, issue codes with
 * their paths and counts, the affected fields' names and data types, the signals read from the raw form, the offline
 * answer's category and wording (made of paths, codes and field names) — and the message after de-identification.
 * Never a finding's sentence (those quote values), never the raw message, never the caller's free-text context.
 */
import type { TriageResult } from '../triage/triage-engine.ts';

/** Longest de-identified message put in a prompt (characters); longer ones are cut at a segment boundary. */
const MAX_MESSAGE_CHARS = 8_000;

/** What the model is told to do: fixed text, no value of any request. */
export const SYSTEM_PROMPT =
  'You help healthcare integration analysts understand why an interface message failed. Rephrase the offline ' +
  'analysis for a person in plain English and add what it misses. The message shown is de-identified: never ' +
  'treat its names, dates or numbers as real. Answer only with JSON: {"rootCause": one sentence, "explanation": ' +
  'a short paragraph, "additionalFixes": [{"side": "sender" or "receiver", "field": path, "action": text}]}.';

/** What stands in the prompt for a path the standard does not describe (an element name is the sender's text). */
export const UNDESCRIBED_PATH = '(a path the standard does not define)';

/**
 * The chat messages of one triage request. Only described paths are named: an affected field the standard does not
 * describe (an unknown element, a Z-segment's field) is named by {@link UNDESCRIBED_PATH} in every text of the prompt,
 * since its name comes from the sender, not the standard.
 */
export function buildTriagePrompt(result: TriageResult, deidentifiedMessage: string | null): Array<{ role: 'system' | 'user'; content: string }> {
  const undescribed = result.affectedFields.filter((field) => field.name === null).map((field) => field.path).sort((a, b) => b.length - a.length);
  const scrub = (text: string): string => undescribed.reduce((scrubbed, path) => scrubbed.split(path).join(UNDESCRIBED_PATH), text);
  const structure = {
    standard: result.standard,
    messageType: result.messageType,
    version: result.version,
    category: result.category,
    offlineRootCause: scrub(result.rootCause),
    offlineExplanation: scrub(result.explanation),
    suggestedFixes: result.suggestedFixes.map(({ side, field, action }) => ({ side, field: scrub(field), action: scrub(action) })),
    findings: result.findings,
    affectedFields: result.affectedFields.map(({ path, name, dataType, table, codes }) => ({ path: name === null ? UNDESCRIBED_PATH : path, name, dataType, table, codes })),
    signals: result.signals,
  };
  let message = deidentifiedMessage ?? '';
  if (message.length > MAX_MESSAGE_CHARS) {
    const cut = message.lastIndexOf('\r', MAX_MESSAGE_CHARS);
    message = message.slice(0, cut > 0 ? cut : MAX_MESSAGE_CHARS) + '\n[...cut]';
  }
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: `Offline analysis (structure only):\n${JSON.stringify(structure, null, 2)}\n\nDe-identified message:\n${message || '(not available)'}`,
    },
  ];
}
