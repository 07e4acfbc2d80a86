/**
 * The field lookup: what a path means in a standard (`PID.5`, `Patient.birthDate`, `AM07.D2`,
 * `NewRx.Patient.HumanPatient.Gender`), from the adapter's own `describe` with its detail (codes, children). The
 * API (`GET /api/lookup` on the bridge and monitor bases) and the CLI (`workbench lookup`) both answer through it.
 */
import { kernelErrors } from '../../kernel/errors.ts';
import type { FieldDescription, StandardAdapter, StandardsRegistry } from '../../kernel/standards-registry.ts';
import { adapterById, canonicalVersion } from './standard-selection.ts';

/** Codes listed when a request names no bound. */
export const DEFAULT_LOOKUP_CODES = 50;
/** Most codes a request may ask for. */
export const MAX_LOOKUP_CODES = 500;

/** What to look up. */
export interface FieldLookupRequest {
  path: string;
  /** Adapter id; when absent, every registered standard is asked in turn and the first that knows the path answers. */
  standard?: string;
  version?: string;
  /** Most codes listed (the total is always given). */
  maxCodes: number;
}

/** The answer: the description with the standard that answered and the version asked for. */
export type FieldLookup = FieldDescription & { standard: string; version: string | null };

/** The answer for a well-written path the definitions lack, when asked to say so rather than refuse (404). */
export interface MissingField {
  found: false;
  path: string;
  /** The standard asked, or null when none was named (then none of them knows the path). */
  standard: string | null;
  version: string | null;
  /** The sentence a 404 would carry: which field of which standard is not in the definitions. */
  message: string;
}

/** A path well written but unknown: what a 404 NOT_FOUND says, kept as data until the caller decides. */
class UnknownField {
  constructor(
    readonly what: string,
    readonly standard: string | null,
  ) {}
}

function badRequest(summary: string, parameter: string, message: string): Error {
  return kernelErrors.create('VALIDATION_FAILED', { summary }, [{ location: 'query', path: parameter, message }]);
}

function describeWith(adapter: StandardAdapter, request: FieldLookupRequest): FieldLookup | undefined {
  const version = request.version === undefined ? undefined : canonicalVersion(adapter, request.version);
  const description = adapter.describe(request.path, { ...(version === undefined ? {} : { version }), detail: { maxCodes: request.maxCodes } });
  if (!description) return undefined;
  return { ...description, standard: adapter.id, version: version ?? null };
}

/** True when the adapter has this version, under any of its spellings. */
function knowsVersion(adapter: StandardAdapter, version: string): boolean {
  return adapter.versions.includes(canonicalVersion(adapter, version));
}

/**
 * Looks a path up. 400 VALIDATION_FAILED naming the path when it is not written in the standard's path syntax (in
 * none of them, when no standard is named) or naming the version when no standard has it; 404 NOT_FOUND when the
 * path is well written but names nothing in the definitions.
 */
export function lookUpField(standards: StandardsRegistry, request: FieldLookupRequest): FieldLookup {
  const answer = search(standards, request);
  if (answer instanceof UnknownField) throw kernelErrors.create('NOT_FOUND', { what: answer.what });
  return answer;
}

/**
 * Looks a path up like {@link lookUpField}, but answers a well-written path the definitions lack as
 * {@link MissingField} instead of refusing it (a page naming every part of a message asks for parts no definition
 * has, such as a site's own segments, and that is no error). Badly written paths and unknown versions are still 400.
 */
export function lookUpFieldOrMissing(standards: StandardsRegistry, request: FieldLookupRequest): (FieldLookup & { found: true }) | MissingField {
  const answer = search(standards, request);
  if (answer instanceof UnknownField) {
    const message = kernelErrors.create('NOT_FOUND', { what: answer.what }).message;
    return { found: false, path: request.path.trim(), standard: answer.standard, version: request.version ?? null, message };
  }
  return { ...answer, found: true };
}

function search(standards: StandardsRegistry, request: FieldLookupRequest): FieldLookup | UnknownField {
  const path = request.path.trim();
  const asked = { ...request, path };
  if (request.standard !== undefined) {
    const adapter = adapterById(standards, request.standard);
    const problem = adapter.pathProblem?.(path);
    if (problem) throw badRequest(problem, 'path', `not a path of ${adapter.displayName}`);
    const found = describeWith(adapter, asked);
    if (found) return found;
    if (request.version !== undefined && !knowsVersion(adapter, request.version)) {
      const message = `version "${request.version}" is not a version of ${adapter.displayName} (${adapter.versions.join(', ')})`;
      throw badRequest(message, 'version', message);
    }
    return new UnknownField(`Field ${path} of ${adapter.displayName}${request.version ? ` ${request.version}` : ''}`, adapter.id);
  }
  let candidates = standards.list();
  if (request.version !== undefined) {
    const version = request.version;
    candidates = candidates.filter((adapter) => knowsVersion(adapter, version));
    if (candidates.length === 0) {
      const message = `version "${version}" is not a version of any registered standard; name the standard with "standard"`;
      throw badRequest(message, 'version', message);
    }
  }
  const wellWritten = candidates.filter((adapter) => !adapter.pathProblem?.(path));
  if (wellWritten.length === 0) {
    const problems = candidates.map((adapter) => adapter.pathProblem?.(path)).filter(Boolean);
    const summary = `"${path}" is not a path of any registered standard (${candidates.map((a) => a.id).join(', ')}): ${problems.join('; ')}`;
    throw badRequest(summary, 'path', `not a path of ${candidates.map((a) => a.displayName).join(', ')}`);
  }
  for (const adapter of wellWritten) {
    const found = describeWith(adapter, asked);
    if (found) return found;
  }
  return new UnknownField(`Field ${path} of ${wellWritten.map((a) => a.displayName).join(', ')}`, null);
}
