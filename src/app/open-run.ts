// Start-up's first step: the run folder's sample store and the policy. With an engine that trains
// in this process the store decides where training continues (resume), so it opens first; `--fresh`
// moves the previous run aside before anything is opened. In: the config and start options. Out:
// the open store, the started policy, the resume plan and where a fresh start archived the old run.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { SampleStore, SAMPLE_STORE_FILE } from '../samples/index.ts';
import { archivePreviousRun, planResume, type ResumePlan } from '../trainer/index.ts';
import { createPolicy, rolloutProvider, type Policy } from './policy.ts';
import type { StartOptions } from './options.ts';

/** What openRun opened. */
export interface OpenedRun {
  store: SampleStore;
  policy: Policy;
  resume?: ResumePlan;
  archivedTo?: string;
}

/** The engine kind that trains in this process for a config, if any (what checkpoints record). */
function trainingEngineKind(config: Config, opts: StartOptions): string | undefined {
  if (!opts.train || opts.channel !== undefined) return undefined;
  return rolloutProvider(config).trainingKind;
}

/** Opens the sample store, plans the resume and starts the policy; closes the store if the policy fails. */
export async function openRun(config: Config, opts: StartOptions, log: Logger): Promise<OpenedRun> {
  const engineKind = trainingEngineKind(config, opts);
  // tinker.resume: never (the key of earlier versions) asks for the same as --fresh.
  const fresh = opts.fresh === true || (engineKind === 'tinker' && config.tinker.resume === 'never');
  const archivedTo = fresh && engineKind !== undefined ? archivePreviousRun(config.output_dir) : undefined;
  if (archivedTo !== undefined) log.info({ archivedTo }, 'fresh start: the previous run was moved aside');
  const store = SampleStore.open(join(config.output_dir, SAMPLE_STORE_FILE), {
    synchronous: config.storage.synchronous === 'full' ? 'FULL' : 'NORMAL',
  });
  try {
    // Resume first: the engine starts from the checkpoint the records were rewound to.
    const resume = engineKind !== undefined ? planResume(config.output_dir, store, engineKind) : undefined;
    if (resume !== undefined) logResume(resume, log);
    const policy = await createPolicy(config, { channel: opts.channel, train: opts.train, resume, trainingNice: opts.trainingNice });
    return { store, policy, resume, archivedTo };
  } catch (err) {
    store.close();
    throw err;
  }
}

function logResume(resume: ResumePlan, log: Logger): void {
  log.info(
    {
      checkpoint: resume.from?.dir ?? null,
      step: resume.step,
      policy_version: resume.version,
      samples_returned: resume.requeued,
      steps_discarded: resume.discardedSteps,
    },
    resume.from ? 'resuming training from the newest checkpoint' : 'no checkpoint: training starts from the configured weights',
  );
}
