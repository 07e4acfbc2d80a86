/**
 * One reader for the data files of profile packs, used by every standard plugin: JSON or YAML by extension, a
 * leading byte-order mark removed (editors on Windows add one), and schema problems formatted the same way for all
 * (`path: reason; path: reason`). Broken files are reported by the plugin that reads them, never thrown at boot.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type { z } from 'zod';

const require = createRequire(import.meta.url);

/** True for `.yaml` and `.yml` files. */
export function isYamlFile(file: string): boolean {
  const ext = extname(file).toLowerCase();
  return ext === '.yaml' || ext === '.yml';
}

/** Parses the text of a profile file (JSON or YAML by the file's extension), after removing a byte-order mark. */
export function parseProfileText(file: string, text: string): unknown {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!isYamlFile(file)) return JSON.parse(clean);
  // The YAML parser loads only when a pack holds a YAML file.
  const { parse } = require('yaml') as typeof import('yaml');
  return parse(clean);
}

/** Why a profile file was refused; `message` completes the sentence "the file ...". */
export class ProfileFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileFileError';
  }
}

/** Reads and parses a profile file; throws {@link ProfileFileError} "cannot be read as JSON|YAML: reason". */
export function readProfileData(file: string): unknown {
  try {
    return parseProfileText(file, readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ProfileFileError(file, `cannot be read as ${isYamlFile(file) ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
}

/** Schema problems as one line: `path: reason; path: reason` (`(root)` for the file as a whole). */
export function describeSchemaProblems(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/**
 * Reads a profile file and checks it against a schema; throws {@link ProfileFileError} naming every problem
 * ("is not a valid <what>: path: reason; ...").
 */
export function readProfileFile<S extends z.ZodType>(file: string, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(readProfileData(file));
  if (!parsed.success) throw new ProfileFileError(file, `is not a valid ${what}: ${describeSchemaProblems(parsed.error)}`);
  return parsed.data;
}
