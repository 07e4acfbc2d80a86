/**
 * The process logger (pino). Secrets never reach the log: Authorization headers, passwords, client secrets and
 * tokens are redacted by key, and passwords inside connection strings (`postgres://user:secret@host`) are masked in
 * every logged string. No logged string is longer than {@link LOG_TEXT_LIMIT} characters, so a line never carries
 * more than an excerpt of what a caller sent (a URL, a message, an error quoting either).
 */
import pino, { type Logger } from 'pino';
import { excerpt } from './text-excerpt.ts';

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

const CREDENTIALS_IN_URL = /\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)([^@\s]+)(@)/gi;
const PASSWORD_IN_KEY_VALUE = /\b(password|pwd)=([^;&\s]+)/gi;

/** Masks passwords inside connection strings (URL and key=value forms). */
export function maskSecretsInText(text: string): string {
  return text.replace(CREDENTIALS_IN_URL, '$1***$3').replace(PASSWORD_IN_KEY_VALUE, '$1=***');
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
