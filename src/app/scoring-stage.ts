// Start-up's scoring step: finalised turns become judged samples in a worker thread when the
// config allows it and everything the scoring needs can be built there from the config; otherwise
// on this thread, with the policy's in-process teacher and prompt renderer. In: the config, the
// store, the session views, the policy and any parts a caller gives. Out: the scoring stage.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { SessionViews } from '../gateway/index.ts';
import { modeSpec } from '../methods/index.ts';
import { createScoringPipeline, ScoringThread, type PipelineParts, type ScoringStage } from '../pipeline/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { Policy } from './policy.ts';

/**
 * The scoring stage: in a worker thread when the config allows it and everything it needs can be
 * built there from the config; otherwise a ScoringPipeline on this thread with the given parts.
 */
export async function createScoringStage(
  config: Config,
  deps: {
    store: SampleStore;
    views: SessionViews;
    log: Logger;
    policy: Policy;
    parts?: PipelineParts;
    onStorageError?: (err: unknown, path: string) => void;
  },
): Promise<ScoringStage> {
  const { store, views, log, policy, parts, onStorageError } = deps;
  // An embedded engine's teacher and prompt renderer live in this process; OPD modes need them.
  const inProcessParts =
    parts !== undefined || policy.teacher !== undefined || (policy.engine !== undefined && modeSpec(config.mode).teacher);
  if (config.scoring.worker_thread && !inProcessParts) {
    const stage = await ScoringThread.start({ config, storePath: store.path, views, log });
    log.info('scoring runs in a worker thread');
    return stage;
  }
  if (config.scoring.worker_thread) log.info('scoring runs on the main thread: its teacher or prompt renderer lives in this process');
  return createScoringPipeline(
    config,
    { store, views, log, onStorageError },
    {
      teacher: policy.teacher,
      renderPrompt: policy.renderPrompt,
      ...parts,
    },
  );
}
