// Trainer: turns ready samples into PPO updates of the policy in the background. In: the sample
// store, a PolicyEngine that can train and publish, the config. Out: new policy versions,
// `logs/train.log` + `logs/metrics.jsonl` lines per step, checkpoints.
export { Trainer, toTrainSamples, trainOptionsFrom, type RollbackResult, type TrainerDeps } from './trainer.ts';
export { TrainLog, formatStepLine, STEP_KEYS, type StepMetrics } from './log.ts';
export {
  CHECKPOINTS_DIR,
  TRAINER_MANIFEST,
  checkpointDir,
  checkpointOfVersion,
  listCheckpoints,
  newestCheckpoint,
  pruneCheckpoints,
  saveCheckpoint,
  type FoundCheckpoint,
  type TrainerManifest,
} from './checkpoints.ts';
export { archivePreviousRun, planResume, rewindStepLogs, rollbackStoppedRun, type ResumePlan } from './resume.ts';
export { VersionEvaluator, evaluationStepMetrics, type EvaluationParts, type VersionEvaluationResult } from './evaluate.ts';
