/**
 * The process logger (pino). Secrets never reach the log: Authorization headers, passwords, client secrets and
 * tokens are redacted by key, and passwords inside connection strings (`postgres://user:secret@host`) are masked in
 * every logged string. No logged string is longer than {@link LOG_TEXT_LIMIT} characters, so a line never carries
 * more than an excerpt of what a caller sent (a URL, a message, an error quoting either).
 */
import pino, { type Logger } from 'pino';
import { excerpt } from './lib/text/text-excerpt.ts';

/** Longest string a log line holds; longer ones are cut, saying how much was left out. */
export const LOG_TEXT_LIMIT = 1_000;

/** Longest stack trace a log line holds. */
const STACK_LIMIT = 4_000;

/** Keys whose values are always replaced by `[redacted]`. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'password',
  '*.password',
  'clientSecret',
  '*.clientSecret',
  'client_secret',
  '*.client_secret',
  'secret',
  '*.secret',
  'hs256Secret',
  '*.hs256Secret',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'connectionString',
  '*.connectionString',
];

const PASSWORD_IN_KEY_VALUE = /\b(password|pwd)=([^;&\s]+)/gi;

const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isWordChar = (code: number) => isLetter(code) || isDigit(code) || code === 0x5f;
const isSchemeChar = (code: number) => isLetter(code) || isDigit(code) || code === 0x2b || code === 0x2e || code === 0x2d;
/** What `\s` matches. */
const isSpace = (code: number) =>
  code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
const endsHost = (code: number) => code === 0x3a || code === 0x2f || code === 0x40 || isSpace(code);

/** True when `scheme://` has a scheme before `separator` that starts with a letter at a word boundary. */
function hasScheme(text: string, separator: number): boolean {
  let start = separator;
  while (start > 0 && isSchemeChar(text.charCodeAt(start - 1))) start--;
  for (let i = start; i < separator; i++) {
    if (isLetter(text.charCodeAt(i)) && (i === 0 || !isWordChar(text.charCodeAt(i - 1)))) return true;
  }
  return false;
}

/**
 * Masks the password of every `scheme://user:password@` in the text. A forward scan, not a regular expression: the
 * expression for the same shape retries every start inside long runs of scheme or password characters (quadratic).
 * Each character is looked at a bounded number of times: host runs end at the next `:`, and the end of a password run
 * is remembered for the `://` that fall inside it.
 */
function maskUrlPasswords(text: string): string {
  let out = '';
  let copied = 0;
  let searchFrom = 0;
  let passwordRunEnd = -1;
  for (;;) {
    const separator = text.indexOf('://', searchFrom);
    if (separator < 0) break;
    searchFrom = separator + 3;
    if (!hasScheme(text, separator)) continue;
    let colon = separator + 3;
    while (colon < text.length && !endsHost(text.charCodeAt(colon))) colon++;
    if (colon === separator + 3 || text[colon] !== ':') continue;
    let at = passwordRunEnd;
    if (colon + 1 > passwordRunEnd) {
      at = colon + 1;
      while (at < text.length && text[at] !== '@' && !isSpace(text.charCodeAt(at))) at++;
      passwordRunEnd = at;
    }
    if (at === colon + 1 || text[at] !== '@') continue;
    out += `${text.slice(copied, colon + 1)}***`;
    copied = at;
    searchFrom = at + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Masks passwords inside connection strings (URL and key=value forms). */
export function maskSecretsInText(text: string): string {
  return maskUrlPasswords(text).replace(PASSWORD_IN_KEY_VALUE, '$1=***');
}

function maskDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecretsInText(excerpt(value, LOG_TEXT_LIMIT));
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = maskDeep(inner, depth + 1);
  return out;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level: string;
  /** Where lines go (default stdout); tests pass a stream to inspect output. */
  destination?: pino.DestinationStream;
}

/** Creates the root logger. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'workbench' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      hooks: {
        // Masks connection-string passwords in messages and structured fields before pino serialises them.
        logMethod(args, method) {
          const masked = args.map((arg) => maskDeep(arg)) as Parameters<typeof method>;
          return method.apply(this, masked);
        },
      },
      serializers: {
        err: (error: Error) => {
          const serialized = pino.stdSerializers.err(error);
          const message = serialized.message ?? '';
          const bounded = excerpt(message, LOG_TEXT_LIMIT);
          serialized.message = maskSecretsInText(bounded);
          if (serialized.stack) {
            // The stack repeats the message on its first line.
            const stack = bounded === message ? serialized.stack : serialized.stack.replace(message, bounded);
            serialized.stack = maskSecretsInText(excerpt(stack, STACK_LIMIT));
          }
          return serialized;
        },
      },
    },
    options.destination,
  );
}
