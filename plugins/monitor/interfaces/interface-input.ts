/**
 * Checks an interface definition against the world before it is stored: the folder must exist and be readable,
 * the pattern must be a glob picomatch can use, the profile must be loaded. Each failure is a 400 naming the field.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { monitorErrors } from '../errors.ts';
import { filePatternProblem } from './file-pattern.ts';

/**
 * Folders of the operating system whose "files" are not messages: the kernel's views (/proc, /sys), devices (/dev,
 * where reading a file may block forever or never end) and the root, whose watch would take in all of them.
 */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

/** Why a folder is never watched (the root or a system folder, also through a link), or undefined. */
function systemFolderProblem(path: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return undefined;
  }
  if (real === '/') return 'it is the root folder, which holds the whole system; watch a folder of its own';
  const system = SYSTEM_FOLDERS.find((folder) => real === folder || real.startsWith(`${folder}/`));
  return system ? `it is in ${system}, a system folder whose files are not messages; watch a folder of its own` : undefined;
}

/** Why a folder cannot be watched, or undefined when it can. */
export function directoryProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isDirectory()) return 'it is not a directory';
    const system = systemFolderProblem(path);
    if (system) return system;
    accessSync(path, constants.R_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'it does not exist';
    if (code === 'EACCES' || code === 'EPERM') return 'it is not readable';
    return `it cannot be opened (${code ?? (error as Error).message})`;
  }
}

/** Resolves a directory path (relative paths against the working directory) and checks it; throws 400. */
export function checkDirectory(path: string): string {
  const absolute = isAbsolute(path) ? path : resolve(path);
  const problem = directoryProblem(absolute);
  if (problem) {
    throw monitorErrors.create('DIRECTORY_UNREADABLE', { path, reason: problem }, [
      { location: 'body', path: 'directoryPath', message: problem },
    ]);
  }
  return absolute;
}

/** Checks a file pattern; throws 400 naming filePattern. */
export function checkFilePattern(pattern: string): void {
  const problem = filePatternProblem(pattern);
  if (problem) {
    throw monitorErrors.create('FILE_PATTERN_INVALID', { pattern, reason: problem }, [
      { location: 'body', path: 'filePattern', message: problem },
    ]);
  }
}
