// `${VAR}` and `${VAR:-default}` expansion over every string of a parsed YAML tree. Expanding
// after parsing (not in the raw text) means a value can never inject YAML structure.
import { OpenClawError } from '../errors/index.ts';

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands variables in one string; a missing variable without default is a config error. */
export function expandString(value: string, env: NodeJS.ProcessEnv, keyPath: string): string {
  return value.replace(PATTERN, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    throw new OpenClawError('config', `${keyPath}: environment variable ${name} is not set (write \${${name}:-default} to give a default)`);
  });
}

/** Returns a copy of `tree` with every string expanded; key paths name where a variable was missing. */
export function expandEnv(tree: unknown, env: NodeJS.ProcessEnv, path = ''): unknown {
  if (typeof tree === 'string') return expandString(tree, env, path || '(root)');
  if (Array.isArray(tree)) return tree.map((v, i) => expandEnv(v, env, `${path}[${i}]`));
  if (tree !== null && typeof tree === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(tree)) out[k] = expandEnv(v, env, path ? `${path}.${k}` : k);
    return out;
  }
  return tree;
}
