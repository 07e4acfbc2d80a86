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
    throw kernelErrors.create('NOT_FOUND', { what: `Field ${path} of ${adapter.displayName}${request.version ? ` ${request.version}` : ''}` });
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
  throw kernelErrors.create('NOT_FOUND', { what: `Field ${path} of ${wellWritten.map((a) => a.displayName).join(', ')}` });
}
