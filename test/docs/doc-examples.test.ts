/**
 * The documentation's examples run. Every shell block of README.md and docs/ that calls `curl` or the `workbench`
 * command is executed, in order within its file (a file's blocks share one working folder, so a block may use a file
 * an earlier one wrote), against a service started from source on free ports: the addresses 127.0.0.1:5100/5101/5102
 * in a block are rewritten to the service's own, `workbench` and `node bin/workbench.js` run the command from source
 * with the service's data folder. Every curl must answer 2xx, unless the comment line just above it says
 * `# answers NNN`. A block that must not run (installing, starting the service in the foreground) is preceded by
 * `<!-- example: not run, REASON -->`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../kernel/project-root.ts';
import { serviceCliArgs, sourceCliArgs } from '../helpers/cli-process.ts';
import { printedAddresses, writeServiceConfig } from '../helpers/service-process.ts';

/** One runnable block of a documentation file. */
interface ExampleBlock {
  file: string;
  line: number;
  script: string;
}

const RUNNABLE_LANGUAGES = new Set(['', 'sh', 'bash', 'shell', 'console']);
const CALLS_SERVICE_OR_CLI = /^\s*(curl|workbench|node bin\/workbench\.js)\b/m;

function documentationFiles(): string[] {
  const files = [join(projectRoot, 'README.md')];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(projectRoot, 'docs'));
  return files;
}

/** The runnable blocks of one markdown file, in order. */
export function exampleBlocks(file: string, text: string): ExampleBlock[] {
  const lines = text.split('\n');
  const blocks: ExampleBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\w*)\s*$/.exec(lines[index]);
    if (!fence) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !lines[index].startsWith('```'); index++) body.push(lines[index]);
    const script = body.join('\n');
    let previous = start - 1;
    while (previous >= 0 && lines[previous].trim() === '') previous--;
    const skipped = previous >= 0 && /<!-- example: not run/.test(lines[previous]);
    if (!skipped && RUNNABLE_LANGUAGES.has(fence[1]) && CALLS_SERVICE_OR_CLI.test(script)) {
      blocks.push({ file, line: start + 1, script });
    }
  }
  return blocks;
}

/** The block as bash runs it: addresses rewritten, each curl checked for the answer its comment promises. */
export function preparedScript(script: string, ports: Record<string, string>): string {
  const defaultPorts: Record<string, string> = { '5100': ports.monitor, '5101': ports.bridge, '5102': ports.population };
  const out: string[] = [];
  let expected = '';
  for (const raw of script.split('\n')) {
    let line = raw.replace(/(127\.0\.0\.1|localhost):(510[012])\b/g, (_m, _host: string, port: string) => `127.0.0.1:${defaultPorts[port]}`);
    line = line.replace(/(^|[;&|(]\s*)node bin\/workbench\.js\b/g, '$1workbench');
    const answers = /^\s*#.*\banswers (\d{3})\b/.exec(line);
    if (answers) expected = answers[1];
    else if (/^\s*curl\b/.test(line)) {
      line = line.replace(/^(\s*)curl\b/, `$1EXPECT_STATUS=${expected || '2xx'} example_curl`);
      expected = '';
    }
    out.push(line);
  }
  return out.join('\n');
}

const PRELUDE = String.raw`
set -euo pipefail
example_curl() {
  local body status
  body=$(mktemp)
  status=$(command curl -sS -o "$body" -w '%{http_code}' --max-time 60 "$@")
  cat "$body"; echo
  if [[ "$EXPECT_STATUS" == 2xx && "$status" != 2* ]] || [[ "$EXPECT_STATUS" != 2xx && "$status" != "$EXPECT_STATUS" ]]; then
    echo "example answered HTTP $status where $EXPECT_STATUS was promised: curl $*" >&2
    exit 1
  fi
}
`;

describe('documentation examples', () => {
  let service: ChildProcess | undefined;
  let ports: Record<string, string> = {};
  let dataDir = '';
  let cliShim = '';

  beforeAll(async () => {
    const { folder, configPath } = writeServiceConfig();
    dataDir = join(folder, 'data');
    const child = spawn(process.execPath, [...serviceCliArgs, 'start', '--config', configPath], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service = child;
    const addresses = await new Promise<Record<string, string>>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 50_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const printed = printedAddresses(output);
        if (printed.bridge && printed.monitor && printed.population) {
          clearTimeout(timer);
          resolve(printed);
        }
      });
      child.once('exit', (code) => reject(new Error(`the service exited (${code}):\n${output}`)));
    });
    ports = Object.fromEntries(Object.entries(addresses).map(([base, url]) => [base, new URL(url).port]));
    cliShim = mkdtempSync(join(tmpdir(), 'wb-doc-cli-'));
    const loader = sourceCliArgs.map((arg) => `'${arg}'`).join(' ');
    const shimScript = `#!/usr/bin/env bash\nexec '${process.execPath}' ${loader} "$@"\n`;
    spawnSync('bash', ['-c', `cat > '${join(cliShim, 'workbench')}' && chmod +x '${join(cliShim, 'workbench')}'`], { input: shimScript });
  });

  afterAll(() => {
    service?.kill('SIGTERM');
  });

  const files = documentationFiles().filter((file) => exampleBlocks(file, readFileSync(file, 'utf8')).length > 0);

  it('finds examples to run', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`runs the examples of ${relative(projectRoot, file)} in order`, () => {
      const workFolder = mkdtempSync(join(tmpdir(), 'wb-doc-examples-'));
      if (!existsSync(join(workFolder, 'bin'))) symlinkSync(join(projectRoot, 'bin'), join(workFolder, 'bin'));
      for (const block of exampleBlocks(file, readFileSync(file, 'utf8'))) {
        const run = spawnSync('bash', ['-c', `${PRELUDE}\n${preparedScript(block.script, ports)}`], {
          cwd: workFolder,
          encoding: 'utf8',
          timeout: 120_000,
          env: {
            ...process.env,
            PATH: `${cliShim}:${process.env.PATH ?? ''}`,
            WORKBENCH_DATA_DIR: dataDir,
            WORKBENCH_LOG_LEVEL: 'silent',
          },
        });
        const where = `${relative(projectRoot, block.file)}:${block.line}`;
        expect(run.status, `${where} failed:\n${run.stderr}\n${run.stdout.slice(-2000)}`).toBe(0);
      }
    });
  }
});
