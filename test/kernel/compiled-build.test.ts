// The compiled build: `scripts/build.mjs` compiles kernel and plugins once; the compiled CLI loads every plugin from
// its TypeScript-named manifest entry without a TypeScript loader, validates, generates and serves. The smoke suite
// runs the compiled service (HTTP, triage with a model recorder behind the outgoing guard) and CLI for every
// standard's de-identify, validate and triage, so a difference between the compiled code and the sources the other
// tests run cannot pass unseen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../kernel/project-root.ts';
import { send } from '../helpers/http-client.ts';
import { PHI_CORPUS, plantedValuesIn } from '../helpers/phi-corpus.ts';
import { startChatCompletionsRecorder, type ChatCompletionsRecorder } from '../helpers/chat-completions-recorder.ts';

// The output folder sits inside the project so the compiled code resolves node_modules as an install would.
const outDir = mkdtempSync(join(projectRoot, '.build-test-'));
const work = mkdtempSync(join(tmpdir(), 'wb-build-'));
const cliEntry = join(outDir, 'kernel', 'cli-main.js');
const env = { ...process.env, WORKBENCH_DATA_DIR: join(work, 'data'), WORKBENCH_LOG_LEVEL: 'warn' };

function compiledCli(...args: string[]) {
  // No --import tsx: a plugin entry left as .ts would fail to load here.
  const result = spawnSync(process.execPath, [cliEntry, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--out-dir', outDir], {
    encoding: 'utf8',
    // the compiler and the bundler, on a shared machine
    timeout: 300_000,
  });
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
}, 360_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

/** Starts the compiled service on ephemeral ports; resolves with the printed base addresses once it serves. */
async function startCompiledService(extraEnv: Record<string, string> = {}): Promise<{ output: string; bases: Record<string, string>; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [cliEntry, 'start'], {
    env: { ...env, WORKBENCH_BRIDGE_PORT: '0', WORKBENCH_MONITOR_PORT: '0', WORKBENCH_POPULATION_PORT: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
      child.on('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${output}`)));
      child.stdout.on('data', () => {
        if (/Press Ctrl\+C/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  const bases = Object.fromEntries([...output.matchAll(/^(bridge|monitor|population)\s+(http:\/\/\S+)/gm)].map((match) => [match[1]!, match[2]!]));
  return {
    output,
    bases,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('compiled build', () => {
  it('emits JavaScript, copies the non-TypeScript files plugins read beside their code, and bundles the pages', () => {
    expect(existsSync(cliEntry)).toBe(true);
    expect(existsSync(join(outDir, 'plugins', 'hl7-standard', 'index.js'))).toBe(true);
    expect(existsSync(join(outDir, 'plugins', 'hl7-standard', 'definitions', '2.8.json'))).toBe(true);
    expect(existsSync(join(outDir, 'plugins', 'hl7-standard', 'index.ts'))).toBe(false);
    const info = JSON.parse(readFileSync(join(outDir, 'build-info.json'), 'utf8')) as { sourceRoot: string };
    expect(join(outDir, info.sourceRoot)).toBe(projectRoot);
  });

  it('loads every plugin from its manifest entry (index.ts) as compiled JavaScript', () => {
    const help = compiledCli('help');
    expect(help.err).toBe('');
    expect(help.code).toBe(0);
    for (const command of ['validate', 'diff', 'generate', 'keys create', 'errors']) expect(help.out).toContain(command);
    // `errors` boots every plugin: each one's catalogue is listed
    const errors = compiledCli('errors');
    expect(errors.err).toBe('');
    expect(errors.code).toBe(0);
    const owners = new Set([...errors.out.matchAll(/^\| `[A-Z0-9_]+` \| \d+ \| ([a-z0-9-]+) \|/gm)].map((match) => match[1]));
    for (const owner of ['kernel', 'hl7-standard', 'fhir-standard', 'ncpdp-standard', 'message-bridge', 'monitor', 'population', 'admin']) {
      expect(owners, owner).toContain(owner);
    }
  });

  it('generates and validates a message', () => {
    const generated = compiledCli('generate', '--seed', '3');
    expect(generated.code).toBe(0);
    const file = join(work, 'adt.hl7');
    writeFileSync(file, generated.out);
    const validated = compiledCli('validate', file);
    expect(validated.out).toContain('valid');
    expect(validated.code).toBe(0);
  });

  it('serves the bases and stops on SIGTERM', async () => {
    const service = await startCompiledService();
    try {
      expect(service.output).toContain(`data       ${join(work, 'data')}  database ${join(work, 'data', 'workbench.sqlite')}`);
      expect(service.bases.monitor).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await send(service.bases.monitor!, { path: '/api/health' });
      expect(health.status).toBe(200);
      expect(health.json.status).toBe('healthy');
      // the pages as the build bundled them beside the compiled plugin: each base's shell names its written files
      const bundles = join(outDir, 'plugins', 'pages', 'bundles');
      const manifest = JSON.parse(readFileSync(join(bundles, 'manifest.json'), 'utf8')) as Record<string, { script: string; stylesheet: string }>;
      for (const base of ['monitor', 'bridge', 'population'] as const) {
        const shell = await send(service.bases[base]!, { path: '/' });
        expect(shell.status).toBe(200);
        for (const name of [manifest[base]!.script, manifest[base]!.stylesheet]) {
          expect(shell.text, base).toContain(`/pages/assets/${name}"`);
          const file = await send(service.bases[base]!, { path: `/pages/assets/${name}` });
          expect(file.status, name).toBe(200);
          expect(file.text).toBe(readFileSync(join(bundles, base, name), 'utf8'));
        }
      }
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});

describe('compiled service smoke: every standard through de-identify, validate and triage', () => {
  let service: Awaited<ReturnType<typeof startCompiledService>>;
  let recorder: ChatCompletionsRecorder;
  beforeAll(async () => {
    // Triage with the model on, so the compiled guard runs too: what reaches the model is recorded.
    recorder = await startChatCompletionsRecorder(() => JSON.stringify({ rootCause: 'Rephrased.', explanation: 'Rephrased.', additionalFixes: [] }));
    const configFile = join(work, 'smoke-config.json');
    writeFileSync(configFile, JSON.stringify({ plugins: { 'ai-triage': { llm: { enabled: true, baseUrl: recorder.baseUrl, model: 'smoke-model', timeoutMs: 5_000 } } } }));
    service = await startCompiledService({ WORKBENCH_CONFIG: configFile });
  }, 90_000);
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
    await recorder.close();
  });

  for (const sample of PHI_CORPUS) {
    it(`${sample.name}: HTTP de-identify, validate and triage answer 200`, async () => {
      const bridge = service.bases.bridge!;
      const deidentified = await send(bridge, { path: '/api/deidentify', body: { messageContent: sample.content } });
      expect(deidentified.status, deidentified.text).toBe(200);
      expect(deidentified.json.data.standard).toBe(sample.standard);
      expect(deidentified.json.data.messageContent).not.toBe(sample.content);
      expect(deidentified.json.data.report.total).toBeGreaterThan(0);
      const validated = await send(bridge, { path: '/api/validate', body: { messageContent: sample.content } });
      expect(validated.status, validated.text).toBe(200);
      expect(validated.json.data.standard).toBe(sample.standard);
      expect(typeof validated.json.data.isValid).toBe('boolean');
      for (const body of [{ messageContent: sample.content }, { messageContent: sample.content, validationErrors: sample.validationErrors }]) {
        const triaged = await send(bridge, { path: '/api/monitor/triage', body });
        expect(triaged.status, triaged.text).toBe(200);
        expect(triaged.json.data.standard).toBe(sample.standard);
        // The model answered, or the guard withheld the call with a note.
        const { engine, notes, rootCause } = triaged.json.data;
        expect(engine === 'rules' ? /model call was withheld/.test(notes.join(' ')) : engine === 'smoke-model' && rootCause === 'Rephrased.', `${engine}: ${notes}`).toBe(true);
      }
      expect(recorder.received.flatMap((body) => plantedValuesIn(body))).toEqual([]);
    });
  }

  it('the compiled CLI de-identifies and validates a file of every standard', () => {
    const input = join(work, 'cli-input');
    const out = join(work, 'cli-out');
    mkdirSync(input, { recursive: true });
    const names = PHI_CORPUS.map((sample, index) => {
      const name = `sample-${index}.${sample.extension}`;
      writeFileSync(join(input, name), sample.content);
      return name;
    });
    const deidentified = compiledCli('deidentify', input, '--out', out);
    expect(deidentified.err).toBe('');
    expect(deidentified.code).toBe(0);
    for (const [index, name] of names.entries()) {
      const written = readFileSync(join(out, 'cli-input', name), 'utf8');
      expect(written.length, name).toBeGreaterThan(0);
      expect(written, name).not.toBe(PHI_CORPUS[index]!.content);
    }
    // Exit 0 or 1 (some corpus messages have findings), never 2 (unreadable) or a crash.
    const validated = compiledCli('validate', '--json', ...names.map((name) => join(input, name)));
    expect(validated.err).toBe('');
    expect([0, 1]).toContain(validated.code);
    for (const name of names) expect(validated.out, name).toContain(name);
  });
});
