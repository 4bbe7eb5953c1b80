// Start-up's training step (`train` with an in-process engine): the background Trainer, its
// evaluation clients, and its ties to the rest — storage faults it hits count as storage faults,
// it refuses to checkpoint into a folder that cannot take it, each step reaches the dashboard and
// the caller's hook. In: the config, start options and running parts. Out: the trainer and how to
// close its evaluation clients; undefined when nothing trains here.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { ScoringStage } from '../pipeline/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { StepBuffer } from '../dashboard/index.ts';
import { Trainer, type ResumePlan } from '../trainer/index.ts';
import { evaluationPartsFor } from './evaluation.ts';
import type { StartOptions } from './options.ts';
import type { Policy } from './policy.ts';
import type { StorageMonitor } from './storage.ts';

/** A started-to-be trainer and its evaluation clients. */
export interface BackgroundTrainer {
  trainer: Trainer;
  evaluation: { close: () => Promise<void> };
}

export function createTrainer(
  config: Config,
  opts: StartOptions,
  parts: {
    policy: Policy;
    store: SampleStore;
    log: Logger;
    storage: StorageMonitor;
    pipeline: ScoringStage;
    steps: StepBuffer;
    resume?: ResumePlan;
  },
): BackgroundTrainer | undefined {
  const { policy, store, log, storage, pipeline, steps } = parts;
  if (!opts.train || !policy.engine) return undefined;
  const evaluation = evaluationPartsFor(config, policy, opts.scoring);
  const trainer = new Trainer({
    engine: policy.engine,
    evaluation: evaluation.parts,
    store,
    config,
    log,
    pollMs: opts.trainerPollMs,
    startStep: parts.resume?.step,
    // No checkpoint into a folder that is gone or cannot take it: Node's mkdir would re-create a
    // removed folder (or, on a relative path, loop forever), and the trainer's error says why.
    assertWritable: (what) => storage.assertWritable(what),
    // The trainer's failures (train.log, the store, a checkpoint) count as storage faults when they are.
    onError: (err, during, path) => storage.report(during === 'checkpoint' ? 'checkpoint' : 'train', path, err),
    extraStats: () => ({ hint_accept_rate: pipeline.gauges().hint_accept_rate ?? 0 }),
    onStep: (m) => {
      steps.push(m);
      opts.hooks?.onTrainStep?.(m);
    },
  });
  return { trainer, evaluation };
}

/** The trainer's state as the dashboard shows it. */
export function trainerState(trainer: Trainer | undefined): string {
  return !trainer ? 'off' : trainer.lastError ? `error: ${trainer.lastError}` : 'running';
}
