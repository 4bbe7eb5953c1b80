// `openclaw-rl api-server`: serves the OpenAI-compatible API, records and judges turns, trains
// nothing. Inputs: --config and the serving and training flags (flags.ts); runs until SIGINT/SIGTERM.
import type { Command } from 'commander';
import { addServeOptions, addTrainingOptions } from '../flags.ts';
import { configFrom, run } from '../run.ts';
import { serveUntilSignal } from '../serve.ts';

/** Adds `api-server` to the program. */
export function registerApiServer(program: Command): void {
  const apiServer = program.command('api-server').description('serve the OpenAI-compatible API, record and judge turns (no training)');
  addTrainingOptions(addServeOptions(apiServer)).action(async (opts, cmd: Command) => {
    await run(async () => {
      const config = configFrom(opts, cmd);
      await serveUntilSignal(config, opts.apiKey, false);
    });
  });
}
