// What every command's action shares: `run` maps a thrown error to one stderr line and its exit
// code (the one place that does), `warn` prints a setting left to a default, the config or run
// folder comes from the parsed flags (--config, --output-dir and the rest), and a run's
// sample store is opened for a command that reads or edits it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { exitCodeFor, OpenClawError } from '../errors/index.ts';
import { redactSecrets } from '../privacy/index.ts';
import { loadConfig, type Config, type ConfigOverrides } from '../config/index.ts';
import type { SampleStore } from '../samples/index.ts';
import { overridesFrom } from './flags.ts';

/** Runs a command's body: a number it returns is the exit code; an error it throws is printed (secrets redacted) and mapped. */
export async function run(fn: () => Promise<number | void>): Promise<void> {
  try {
    const code = await fn();
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    const msg = err instanceof OpenClawError ? err.message : ((err as Error)?.stack ?? String(err));
    process.stderr.write(`openclaw-rl: ${redactSecrets(msg)}\n`);
    process.exitCode = exitCodeFor(err);
  }
}

/** Settings left to a default the user probably did not mean, printed before anything runs. */
export function warn(message: string): void {
  process.stderr.write(`openclaw-rl: warning: ${message}\n`);
}

/** The config of a serving command: --config, then the environment, then its flags (flags win). */
export function configFrom(opts: Record<string, unknown>, cmd: Command, defaults?: ConfigOverrides): Config {
  return loadConfig(opts.config as string | undefined, { overrides: overridesFrom(opts, cmd), defaults, onWarning: warn });
}

/** The run folder of `export`, `report`, `rollback` and `forget`: --output-dir, or output_dir of --config (an explicit --output-dir wins). */
export function runFolderOf(opts: { config?: string; outputDir: string }): string {
  if (opts.config === undefined) return opts.outputDir;
  return loadConfig(opts.config, { overrides: { output_dir: opts.outputDir !== '.' ? opts.outputDir : undefined } }).output_dir;
}

/** What `rollback` and `forget` say when the run folder they were given holds no sample store. */
export const STOPPED_RUN_HINT = "pass the run's --output-dir (or --config), or --url for a running server";

/**
 * Opens the sample store of the run folder `dir` (leases left as they are),
 * passes it and its path to `fn`, and closes it. No store there is a config error ending in `hint`.
 */
export async function withRunStore<T>(dir: string, hint: string, fn: (store: SampleStore, path: string) => Promise<T>): Promise<T> {
  const { SampleStore, SAMPLE_STORE_FILE } = await import('../samples/index.ts');
  const path = join(dir, SAMPLE_STORE_FILE);
  if (!existsSync(path)) throw new OpenClawError('config', `no sample store at ${path}: ${hint}`);
  const store = SampleStore.open(path, { recoverLeases: false });
  try {
    return await fn(store, path);
  } finally {
    store.close();
  }
}
