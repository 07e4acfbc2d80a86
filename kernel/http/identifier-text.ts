/**
 * Control characters are never part of an identifier: a path or query parameter, or a body field named like one
 * (`id`, `name`, `role`, `…Id`, `…_id`, `…Ids`, `…Name`), holding one (U+0000 to U+001F, U+007F) is refused with 400
 * at the HTTP edge, before any route or store sees it, so both stores give the same answer (PostgreSQL cannot even
 * store a NUL). Message content (`messageContent`, `leftMessage`, ...) and other free text in bodies are not checked
 * here: a message's own fields are judged by its validator.
 */
import { kernelErrors } from '../errors.ts';
import type { InputProblem } from './input-validation.ts';

const CONTROL = /[\u0000-\u001f\u007f]/;
const IDENTIFIER_KEY = /^(id|name|role)$|Id$|_id$|Ids$|Name$/;
/** Fields that carry a message (whose own fields are the message's business, judged by its validator). */
const CONTENT_KEY = /^(messageContent|leftMessage|rightMessage|content|message|resource)$/;
/** Nesting of a body followed at most (identifier fields sit near the top of every body). */
const MAX_DEPTH = 8;

function describe(text: string): string {
  const found = CONTROL.exec(text)?.[0] ?? '';
  return `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function problem(location: InputProblem['location'], path: string, text: string): InputProblem {
  return {
    location,
    path,
    message: `holds a control character (${describe(text)}), which no identifier contains; send the identifier as text`,
  };
}

function checkValues(location: InputProblem['location'], values: unknown, problems: InputProblem[]): void {
  if (typeof values !== 'object' || values === null) return;
  for (const [name, value] of Object.entries(values)) {
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) if (typeof item === 'string' && CONTROL.test(item)) problems.push(problem(location, name, item));
  }
}

function checkBody(value: unknown, path: string, depth: number, problems: InputProblem[]): void {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
  for (const [key, child] of Object.entries(value)) {
    if (CONTENT_KEY.test(key)) continue;
    const at = path ? `${path}.${key}` : key;
    const named = Array.isArray(value) ? IDENTIFIER_KEY.test(path.split('.').at(-1) ?? '') : IDENTIFIER_KEY.test(key);
    if (typeof child === 'string') {
      if (named && CONTROL.test(child)) problems.push(problem('body', at, child));
    } else checkBody(child, at, depth + 1, problems);
  }
}

/**
 * Throws 400 VALIDATION_FAILED naming every path or query parameter, and every identifier-named body field, that holds
 * a control character.
 */
export function refuseControlCharacters(params: unknown, query: unknown, body: unknown): void {
  const problems: InputProblem[] = [];
  checkValues('params', params, problems);
  checkValues('query', query, problems);
  checkBody(body, '', 0, problems);
  if (problems.length === 0) return;
  const summary = problems.map((p) => `${p.location}.${p.path} ${p.message}`).join('; ');
  throw kernelErrors.create('VALIDATION_FAILED', { summary }, problems);
}
