/**
 * Reads the config: the shipped `config/default.json`, then the user's file (`--config PATH` or WORKBENCH_CONFIG),
 * then WORKBENCH_* environment variables. The kernel's keys are validated here; plugin sections are validated by
 * {@link validatePluginSections} once the plugins' schemas are known. Every problem is collected and reported in
 * one message, naming each bad key and why.
 */
import { readFileSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import type { z } from 'zod';
import { kernelConfigSchema, type KernelConfig } from './config-schema.ts';
import { projectRoot } from './project-root.ts';
import { defaultDataDir } from './data-dir.ts';

/** Root folder of the installed project (see project-root.ts). */
export { projectRoot };

/** Thrown when the config is invalid; the message lists every problem. */
export class ConfigError extends Error {
  /** `raw` is the merged but unvalidated config, when it could be read (so plugin sections can be checked too). */
  constructor(
    readonly problems: string[],
    readonly raw?: Record<string, unknown>,
  ) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Where config comes from. */
export interface ConfigSources {
  /** User config file path (takes precedence over WORKBENCH_CONFIG). */
  configPath?: string;
  /** Environment (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
  /** Values applied last, for tests and embedding. */
  overrides?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges objects; arrays and scalars of `patch` replace those of `base`. */
export function mergeConfig(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    out[key] = isObject(value) && isObject(out[key]) ? mergeConfig(out[key] as Json, value) : value;
  }
  return out;
}

function readJsonFile(path: string, label: string, problems: string[]): Json {
  if (!existsSync(path)) {
    problems.push(`${label} ${path} does not exist`);
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isObject(parsed)) {
      problems.push(`${label} ${path} must hold a JSON object`);
      return {};
    }
    return parsed;
  } catch (error) {
    problems.push(`${label} ${path} is not valid JSON: ${(error as Error).message}`);
    return {};
  }
}

/** Port environment variables -> server names. */
const PORT_VARIABLES = {
  WORKBENCH_BRIDGE_PORT: 'bridge',
  WORKBENCH_MONITOR_PORT: 'monitor',
  WORKBENCH_POPULATION_PORT: 'population',
} as const;

/** Every WORKBENCH_* variable that sets a config key (WORKBENCH_CONFIG names the file itself). */
export const CONFIG_ENVIRONMENT_VARIABLES = [
  'WORKBENCH_DATA_DIR',
  'WORKBENCH_TIER',
  'WORKBENCH_STORAGE_URL',
  'WORKBENCH_LOG_LEVEL',
  'WORKBENCH_JWT_SECRET',
  'WORKBENCH_NODE_NAME',
  ...Object.keys(PORT_VARIABLES),
] as const;

/** The config keys the environment sets, as a partial config (problems collects unusable values). */
export function environmentOverrides(env: NodeJS.ProcessEnv, problems: string[]): Json {
  const out: Json = {};
  if (env.WORKBENCH_DATA_DIR) out.dataDir = env.WORKBENCH_DATA_DIR;
  if (env.WORKBENCH_TIER) out.tier = env.WORKBENCH_TIER;
  if (env.WORKBENCH_STORAGE_URL) out.storage = { url: env.WORKBENCH_STORAGE_URL };
  if (env.WORKBENCH_LOG_LEVEL) out.logging = { level: env.WORKBENCH_LOG_LEVEL };
  if (env.WORKBENCH_JWT_SECRET) out.auth = { jwt: { hs256Secret: env.WORKBENCH_JWT_SECRET } };
  if (env.WORKBENCH_NODE_NAME) out.node = { name: env.WORKBENCH_NODE_NAME };
  const servers: Json = {};
  for (const [variable, server] of Object.entries(PORT_VARIABLES)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      problems.push(`${variable}: "${raw}" is not a port number (0-65535; 0 picks a free port)`);
      continue;
    }
    servers[server] = { port };
  }
  if (Object.keys(servers).length > 0) out.servers = servers;
  return out;
}

/** Formats zod issues as `path: reason` lines under a prefix. */
export function describeZodIssues(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    const keys = 'keys' in issue && Array.isArray(issue.keys) ? ` (${issue.keys.join(', ')})` : '';
    return `${path || '(root)'}: ${issue.message}${keys}`;
  });
}

/** The raw merged config and the validated kernel part. */
export interface LoadedConfig {
  raw: Json;
  kernel: KernelConfig;
  /** Absolute data directory. */
  dataDir: string;
  /** Files that were read, in order. */
  files: string[];
}

/** Loads and validates the kernel's config; throws {@link ConfigError} listing every problem. */
export function loadConfig(sources: ConfigSources = {}): LoadedConfig {
  const env = sources.env ?? process.env;
  const problems: string[] = [];
  const defaultPath = join(projectRoot, 'config', 'default.json');
  const files = [defaultPath];
  let raw = readJsonFile(defaultPath, 'shipped config', problems);
  const userPath = sources.configPath ?? env.WORKBENCH_CONFIG;
  if (userPath) {
    const absolute = resolve(userPath);
    files.push(absolute);
    raw = mergeConfig(raw, readJsonFile(absolute, 'config file', problems));
  }
  raw = mergeConfig(raw, environmentOverrides(env, problems));
  if (sources.overrides) raw = mergeConfig(raw, sources.overrides);
  const parsed = kernelConfigSchema.safeParse(raw);
  if (!parsed.success) problems.push(...describeZodIssues(parsed.error));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems, raw);
  return { raw, kernel: parsed.data, dataDir: resolve(parsed.data.dataDir ?? defaultDataDir()), files };
}
