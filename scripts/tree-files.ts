/**
 * Files of the project's tree the scripts read: every file under a folder with a given ending, and the documentation
 * (the front door, the project notes, docs/ and each plugin's README).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (recursively) whose name ends with `suffix`. */
export function filesUnder(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, suffix));
    else if (name.endsWith(suffix)) out.push(path);
  }
  return out;
}

/** The documentation files of the project rooted at `root`. */
export function documentationFiles(root: string): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/README.md'].map((name) => join(root, name));
  files.push(...filesUnder(join(root, 'docs'), '.md'));
  for (const plugin of readdirSync(join(root, 'plugins'))) {
    const readme = join(root, 'plugins', plugin, 'README.md');
    if (existsSync(readme)) files.push(readme);
  }
  return files.filter((path) => existsSync(path));
}
