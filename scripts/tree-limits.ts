/**
 * The size limits of the tree, checked by scripts/lint-project.ts across the code folders (kernel with its library
 * kernel/lib, plugins, scripts, bench, fuzz, test): no TypeScript file over {@link MAX_FILE_LINES} lines (split it by
 * concern), no folder with more than {@link MAX_FOLDER_FILES} files at its root (give its files sub-folders by
 * concern). The files and folders still waiting for their split are named below with the reason; an entry that no
 * longer needs its exception is itself a problem, so the lists only shrink.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Most lines a TypeScript file may have. */
export const MAX_FILE_LINES = 500;
/** Most files a folder may hold at its root (sub-folders not counted). */
export const MAX_FOLDER_FILES = 25;
/** The folders whose trees are held to the limits. */
export const LIMITED_FOLDERS = ['kernel', 'plugins', 'scripts', 'bench', 'fuzz', 'test'] as const;

/** Files over the line limit whose split by concern is still to come, and why each waits. */
const LONG_FILES_PENDING: ReadonlyMap<string, string> = new Map([
  ['plugins/monitor/api.ts', 'the query contract is to leave the service contract for a module of its own'],
]);

/** Folders over the file limit whose sub-folders are still to come, and why each waits. */
const CROWDED_FOLDERS_PENDING: ReadonlyMap<string, string> = new Map([
  ['bench', 'the benches are being given sub-folders by concern'],
  ['plugins/fhir-standard', 'its files are to be given sub-folders by concern once its validation work has landed'],
  ['test/kernel', 'the kernel tests are being given sub-folders by concern'],
  ['test/monitor', 'the monitor tests are being given sub-folders by concern'],
]);

function walk(root: string, folder: string, problems: string[]): void {
  const entries = readdirSync(join(root, folder), { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const crowdedWaiting = CROWDED_FOLDERS_PENDING.has(folder);
  if (files.length > MAX_FOLDER_FILES && !crowdedWaiting) {
    problems.push(`${folder}: ${files.length} files at its root (at most ${MAX_FOLDER_FILES}); give them sub-folders by concern`);
  }
  if (files.length <= MAX_FOLDER_FILES && crowdedWaiting) {
    problems.push(`${folder}: ${files.length} files at its root; remove it from CROWDED_FOLDERS_PENDING in scripts/tree-limits.ts`);
  }
  for (const file of files.filter((entry) => entry.name.endsWith('.ts'))) {
    const path = `${folder}/${file.name}`;
    const lines = readFileSync(join(root, path), 'utf8').split('\n').length - 1;
    const longWaiting = LONG_FILES_PENDING.has(path);
    if (lines > MAX_FILE_LINES && !longWaiting) {
      problems.push(`${path}: ${lines} lines (at most ${MAX_FILE_LINES}); split it by concern`);
    }
    if (lines <= MAX_FILE_LINES && longWaiting) {
      problems.push(`${path}: ${lines} lines; remove it from LONG_FILES_PENDING in scripts/tree-limits.ts`);
    }
  }
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name !== 'node_modules') walk(root, `${folder}/${entry.name}`, problems);
  }
}

/** Every breach of the size limits under the project rooted at `root`, one sentence each. */
export function treeLimitProblems(root: string): string[] {
  const problems: string[] = [];
  for (const folder of LIMITED_FOLDERS) walk(root, folder, problems);
  for (const path of [...LONG_FILES_PENDING.keys(), ...CROWDED_FOLDERS_PENDING.keys()]) {
    if (!existsSync(join(root, path))) problems.push(`${path}: named in scripts/tree-limits.ts but not in the tree; remove it`);
  }
  return problems;
}
