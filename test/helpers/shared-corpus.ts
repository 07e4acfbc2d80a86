/**
 * Locates the shared corpus of real public sample messages (`../shared/corpus` beside the project). Tests that read
 * it call {@link corpusDir}; when the folder is absent they skip with a visible notice instead of failing.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Root of the shared folder (override with WORKBENCH_SHARED_DIR). */
export const sharedDir = process.env.WORKBENCH_SHARED_DIR ?? resolve(projectRoot, '..', 'shared');

/** Folder of one corpus (`hl7v2`, `fhir`, `ncpdp`), or undefined with a printed notice when it is absent. */
export function corpusDir(kind: 'hl7v2' | 'fhir' | 'ncpdp'): string | undefined {
  const dir = join(sharedDir, 'corpus', kind);
  if (!existsSync(dir)) {
    console.warn(`[notice] shared corpus ${dir} is absent: corpus conformance tests for ${kind} are skipped.`);
    return undefined;
  }
  return dir;
}

/** File names of a corpus folder, sorted. */
export function corpusFiles(kind: 'hl7v2' | 'fhir' | 'ncpdp'): string[] {
  const dir = corpusDir(kind);
  return dir ? readdirSync(dir).filter((name) => !name.startsWith('.')).sort() : [];
}
