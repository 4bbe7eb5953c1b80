// `openclaw-rl train`: serves the API and trains the policy in the background, resuming from the
// newest checkpoint of its output_dir (--fresh starts over). Inputs: --config and the serving and
// training flags; a config error if the rollout provider cannot train; runs until SIGINT/SIGTERM.
import type { Command } from 'commander';
import { TRAIN_DEFAULTS } from '../../config/index.ts';
import { assertTrainable } from '../../app/index.ts';
import { addServeOptions, addTrainingOptions } from '../flags.ts';
import { configFrom, run } from '../run.ts';
import { serveUntilSignal } from '../serve.ts';

/** Adds `train` to the program. */
export function registerTrain(program: Command): void {
  const train = program
    .command('train')
    .description('serve the API and train the policy in the background (resumes from the newest checkpoint of its output_dir)')
    .option('--fresh', "start over: move the output folder's previous run to <output_dir>/previous/<time>/ instead of resuming it");
  addTrainingOptions(addServeOptions(train)).action(async (opts, cmd: Command) => {
    await run(async () => {
      // The regression gate is on unless the config says evaluation.gate: false (docs/evaluation.md).
      const config = configFrom(opts, cmd, TRAIN_DEFAULTS);
      assertTrainable(config);
      await serveUntilSignal(config, opts.apiKey, true, opts.fresh === true);
    });
  });
}
