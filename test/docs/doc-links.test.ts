/**
 * Every relative link of the project's documentation resolves: the file it names exists, and the anchor it names is
 * a heading (GitHub's slug) or an `<a id>` of that file. A moved or renamed section fails here, not in a reader's hands.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../kernel/config-loader.ts';

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/README.md'].map((name) => join(projectRoot, name));
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(projectRoot, 'docs'));
  for (const plugin of readdirSync(join(projectRoot, 'plugins'))) {
    const readme = join(projectRoot, 'plugins', plugin, 'README.md');
    if (existsSync(readme)) files.push(readme);
  }
  return files.filter((path) => existsSync(path));
}

/** GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode) continue;
    const heading = /^#+ (.*)$/.exec(line);
    if (heading) anchors.add(headingSlug(heading[1]));
    for (const match of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(match[1]);
  }
  return anchors;
}

function linksOf(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
}

describe('documentation links', () => {
  const files = markdownFiles();

  it('finds the documentation', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('every relative link names an existing file and anchor', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const link of linksOf(text)) {
        if (/^(https?:|mailto:|\/)/.test(link)) continue;
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? file : resolve(dirname(file), path);
        const where = `${relative(projectRoot, file)} -> ${link}`;
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${where} (no such anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
