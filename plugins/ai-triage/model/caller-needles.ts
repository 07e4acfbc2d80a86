/**
 * Needles from the caller's own texts (its validation errors and interface context): every token that is not
 * structure. Callers paste what their validators print, and validators quote values (`contact jane@mail.example
 * bounced`, `MRN88877766.PID unknown`), so each token is a needle unless it is provably structure: a path the
 * standard describes, an issue code, a version, a table or data type of a described path, the declared message type,
 * or a word of the structure vocabulary (the knowledge base's own texts, the prompt's fixed words, the names of the
 * described paths, and common English words). The vocabulary never comes from what a request made of the caller's
 * text, so a leak of caller text into the prompt cannot exempt itself.
 */
import type { FieldDescription } from '../../../kernel/standards-registry.ts';
import type { KnowledgeBase } from '../triage/knowledge-base.ts';
import { TRIAGE_CATEGORIES } from '../triage/knowledge-base.ts';
import { normalisePath } from '../triage/triage-engine.ts';

/** Common English words of findings and context that identify no one. */
const ENGLISH_WORDS = [
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'then', 'else', 'of', 'in', 'on', 'at', 'by', 'for', 'from', 'to', 'into', 'with',
  'without', 'within', 'as', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had', 'does', 'do', 'did', 'not',
  'no', 'nor', 'it', 'its', 'this', 'that', 'these', 'those', 'there', 'here', 'which', 'who', 'what', 'when', 'where', 'why',
  'how', 'than', 'too', 'very', 'can', 'cannot', 'could', 'should', 'would', 'must', 'may', 'might', 'will', 'shall', 'after',
  'before', 'since', 'until', 'per', 'via', 'all', 'any', 'each', 'every', 'some', 'one', 'two', 'three', 'first', 'last', 'only',
  'also', 'more', 'most', 'less', 'least', 'other', 'same', 'new', 'old', 'got', 'get', 'gets', 'sent', 'send', 'sends',
  'received', 'receive', 'receives', 'rejected', 'reject', 'rejects', 'failed', 'fails', 'fail', 'failure', 'error', 'errors',
  'warning', 'warnings', 'invalid', 'valid', 'missing', 'empty', 'blank', 'required', 'expected', 'found', 'unknown', 'unexpected',
  'wrong', 'bad', 'long', 'short', 'length', 'exceeds', 'maximum', 'minimum', 'max', 'min', 'characters', 'chars', 'value', 'values',
  'field', 'fields', 'component', 'components', 'segment', 'segments', 'element', 'elements', 'message', 'messages', 'table', 'code',
  'codes', 'format', 'date', 'time', 'type', 'version', 'order', 'written', 'allowed', 'present', 'absent', 'duplicate', 'repeated',
  'interface', 'sender', 'receiver', 'system', 'feed', 'vendor', 'upgrade', 'upgraded', 'changed', 'change', 'since', 'yesterday',
  'today', 'week', 'month', 'line', 'position', 'column', 'row', 'item', 'items', 'resource', 'reference', 'references', 'profile',
];

/** Words of the prompt the model is sent, outside the analysis (its member names, roles and instructions). */
export const PROMPT_FIXED_WORDS = [
  'standard', 'messageType', 'version', 'category', 'offlineRootCause', 'offlineExplanation', 'suggestedFixes', 'side', 'field',
  'action', 'findings', 'errors', 'warnings', 'byCode', 'affectedFields', 'path', 'name', 'dataType', 'table', 'codes', 'signals',
  'rootCause', 'explanation', 'additionalFixes', 'sender', 'receiver', 'system', 'user', 'model', 'messages', 'content', 'role',
  'temperature', 'stream', 'hl7', 'fhir', 'ncpdp',
];

const ISSUE_CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** Where a caller's text breaks into tokens: blanks and the delimiters a needle never spans. */
const TOKEN_BREAK = /[\s|^~&\\<>"=:;{}[\](),'`!?*]+/;
/** Longest caller text read per string (the route allows 2,000 characters). */
const MAX_TEXT_CHARS = 2_000;
/**
 * Most distinct tokens the caller's texts may hold for the guard to check them (findings of a real validator repeat
 * their paths, codes and words; a thousand of them hold a few thousand distinct tokens). Beyond it the call is
 * withheld rather than checked at a cost that grows with what an attacker sends.
 */
export const MAX_CALLER_TOKENS = 5_000;
/**
 * Most distinct tokens looked up in the standard's `describe` per request (a look-up of a name the standard does not
 * know can cost a millisecond); a token past it is not proven a path, so it stays a needle (the stricter answer).
 */
const MAX_DESCRIBED = 300;

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** The words that are structure whatever the request: the knowledge base's texts and the prompt's fixed words. */
export function structureVocabulary(knowledge: KnowledgeBase, systemPrompt: string): ReadonlySet<string> {
  const words = new Set<string>([...ENGLISH_WORDS, ...TRIAGE_CATEGORIES]);
  for (const word of [...PROMPT_FIXED_WORDS, systemPrompt]) for (const part of wordsOf(word)) words.add(part);
  for (const entry of knowledge.entries) {
    for (const text of [entry.rootCause, entry.explanation, entry.signal ?? '', ...entry.fixes.flatMap((fix) => [fix.field, fix.action])]) {
      for (const word of wordsOf(text.replace(/\{\w+\}/g, ' '))) words.add(word);
    }
  }
  return words;
}

/** What a request's structure is, beside the fixed vocabulary. */
export interface RequestStructure {
  vocabulary: ReadonlySet<string>;
  /** The standard's description of a path, or undefined when it names none. */
  describe(path: string): FieldDescription | undefined;
  /** The standard's versions and the version and message type the message declares. */
  declared: readonly string[];
}

/** The distinct tokens of a text, each with the parts of a dotted token and the local part of an e-mail address. */
function candidatesOf(text: string, groups: Map<string, string[]>): void {
  for (const raw of text.slice(0, MAX_TEXT_CHARS).split(TOKEN_BREAK)) {
    const token = raw.replace(/^[.,\-/_]+|[.,\-/_]+$/g, '');
    if (groups.has(token) || !/[\p{L}\p{N}]/u.test(token)) continue;
    const group = [token];
    const at = token.indexOf('@');
    if (at > 0) group.push(token.slice(0, at), token.slice(at + 1));
    for (const piece of group.slice()) if (piece.includes('.') || piece.includes('/')) group.push(...piece.split(/[./]+/).filter(Boolean));
    groups.set(token, group);
  }
}

/**
 * Every token of the caller's texts (and part of a token) that is not structure, deduplicated; undefined when they
 * hold more than {@link MAX_CALLER_TOKENS} distinct tokens (too many to check: the caller withholds the call). A token
 * that is a described path or an issue code is structure with all its parts; a part that is structure is left out.
 */
export function callerNeedles(texts: readonly string[], structure: RequestStructure): string[] | undefined {
  const tokens = new Map<string, string[]>();
  for (const text of texts) {
    candidatesOf(text, tokens);
    if (tokens.size > MAX_CALLER_TOKENS) return undefined;
  }
  const declared = new Set(structure.declared.flatMap((value) => [value.toLowerCase(), ...wordsOf(value)]));
  const described = new Map<string, FieldDescription | undefined>();
  const describe = (token: string) => {
    const path = normalisePath(token);
    if (!described.has(path)) {
      if (described.size >= MAX_DESCRIBED) return undefined;
      described.set(path, /^[A-Za-z][\w.-]*$/.test(path) ? structure.describe(path) : undefined);
    }
    return described.get(path);
  };
  // Tables, data types and names of the field paths the texts name are structure too (the analysis quotes them).
  const quoted = new Set<string>();
  for (const token of tokens.keys()) {
    const description = /[.-]/.test(token) ? describe(token) : undefined;
    if (!description) continue;
    for (const text of [description.name, description.dataType ?? '', description.table ?? '']) for (const word of wordsOf(text)) quoted.add(word);
    if (description.table) quoted.add(description.table.replace(/^HL7/i, ''));
  }
  const isStructure = (token: string): boolean => {
    const lower = token.toLowerCase();
    if (ISSUE_CODE.test(token) || declared.has(lower) || quoted.has(lower) || structure.vocabulary.has(lower)) return true;
    const words = wordsOf(token);
    if (words.length > 0 && words.every((word) => structure.vocabulary.has(word) || quoted.has(word) || declared.has(word))) return true;
    return describe(token) !== undefined;
  };
  const needles = new Set<string>();
  for (const group of tokens.values()) {
    if (isStructure(group[0]!)) continue;
    needles.add(group[0]!);
    for (const part of group.slice(1)) if (!isStructure(part)) needles.add(part);
  }
  return [...needles];
}
