// Reading a config file: YAML → env expansion → CLI overrides → zod validation, with errors that
// name the key path (`rollout.temperature: expected number, got string`).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { ZodError } from 'zod';
import { OpenClawError } from '../errors/index.ts';
import { expandEnv } from './env.ts';
import { ConfigSchema, type Config } from './schema.ts';
import { configWarnings } from './warnings.ts';
import { attachProbes } from './probes.ts';

/** Dotted key path → value, applied over the file (CLI flags win over the file). */
export type ConfigOverrides = Record<string, unknown>;

function setPath(tree: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = tree;
  for (const k of keys.slice(0, -1)) {
    const next = node[k];
    if (next === undefined || next === null || typeof next !== 'object') node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

function getPath(tree: Record<string, unknown>, dotted: string): unknown {
  let node: unknown = tree;
  for (const k of dotted.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[k];
  }
  return node;
}

function formatZodError(err: ZodError, source: string): OpenClawError {
  const lines = err.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => (issue.path.length ? `${path}.${k}` : k));
      return `${keys.join(', ')}: unknown key${keys.length > 1 ? 's' : ''}`;
    }
    return `${path}: ${issue.message}`;
  });
  return new OpenClawError('config', `invalid config (${source}):\n  ${lines.join('\n  ')}`);
}

/** Options of parseConfig / loadConfig. */
export interface ParseOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: ConfigOverrides;
  /**
   * Dotted key path → value, applied only where neither the file nor `overrides` set the key (a
   * command's own defaults, e.g. TRAIN_DEFAULTS).
   */
  defaults?: ConfigOverrides;
  /** Called once per setting that was left to a default the user probably did not mean (see warnings.ts). */
  onWarning?: (message: string) => void;
}

/** Validates an already-parsed tree (used by tests and by `loadConfig`). */
export function parseConfig(raw: unknown, opts: ParseOptions & { source?: string } = {}): Config {
  const source = opts.source ?? 'config';
  if (raw !== null && raw !== undefined && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new OpenClawError('config', `invalid config (${source}): the top level must be a mapping of sections`);
  }
  const expanded = expandEnv(raw ?? {}, opts.env ?? process.env) as Record<string, unknown>;
  for (const [k, v] of Object.entries(opts.overrides ?? {})) {
    if (v !== undefined) setPath(expanded, k, v);
  }
  for (const [k, v] of Object.entries(opts.defaults ?? {})) {
    if (getPath(expanded, k) === undefined) setPath(expanded, k, structuredClone(v));
  }
  const result = ConfigSchema.safeParse(expanded);
  if (!result.success) throw formatZodError(result.error, source);
  // Absolute from here on: the run must not move if the working folder changes or disappears, and
  // Node's recursive mkdir loops forever on a relative path whose working folder was removed.
  result.data.output_dir = resolve(result.data.output_dir);
  attachProbes(result.data);
  if (opts.onWarning) for (const w of configWarnings(expanded, result.data)) opts.onWarning(w);
  return result.data;
}

/** Loads a YAML config file (or only defaults + overrides when `path` is undefined). */
export function loadConfig(path: string | undefined, opts: ParseOptions = {}): Config {
  if (path === undefined) return parseConfig({}, { ...opts, source: 'defaults' });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new OpenClawError('config', `cannot read config file ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : '';
    throw new OpenClawError('config', `config file ${path} is not valid YAML${where}: ${(err as Error).message}`);
  }
  return parseConfig(raw, { ...opts, source: path });
}
