/**
 * File patterns of interfaces. chokidar 5 matches no globs itself, so the monitor compiles each interface's
 * pattern with picomatch and filters what the watcher reports, on the path relative to the watched folder.
 */
import picomatch from 'picomatch';

/** Options every pattern is compiled with: unbalanced brackets are errors, dot files are never messages. */
const PATTERN_OPTIONS = { strictBrackets: true, dot: false } as const;

/** Why a pattern cannot be used, or undefined when it can. */
export function filePatternProblem(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'it is empty';
  if (pattern.includes('\u0000')) return 'it contains a NUL character';
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) return 'it must be relative to directoryPath';
  if (pattern.split('/').includes('..')) return 'it may not leave directoryPath with ".."';
  try {
    const regex = picomatch.makeRe(pattern, PATTERN_OPTIONS);
    // picomatch compiles some unusable patterns (a reversed range, a lone backslash) to a regex matching nothing
    if (regex.source === '$^') return 'it can match no file name';
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/**
 * A matcher of relative paths (`/` separated) for a valid pattern. In a recursive interface a pattern without a
 * `/` (the default `*.hl7`) matches the file name at any depth; a pattern with one matches the relative path.
 */
export function compileFilePattern(pattern: string, recursive = false): (relativePath: string) => boolean {
  return picomatch(pattern, { ...PATTERN_OPTIONS, basename: recursive && !pattern.includes('/') });
}
