// Configuration: YAML file with rollout / judge / teacher (docs/design.md §4) plus server, scoring and
// training sections. In: a file path, the environment, CLI overrides. Out: one validated,
// fully-defaulted `Config`, and `redact` for printing it without secrets.
export { ConfigSchema, SIDE_CALL_RULE_NAMES, TRAIN_DEFAULTS, type Config } from './schema.ts';
export { MODES, type Mode } from './modes.ts';
export { loadConfig, parseConfig, type ConfigOverrides } from './load.ts';
export { expandEnv } from './env.ts';
export { redact } from './redact.ts';
export { providerRow } from './provider-row.ts';
export {
  ROLLOUT_FACTS,
  JUDGE_FACTS,
  TEACHER_FACTS,
  rolloutFacts,
  judgeFacts,
  teacherFacts,
  type ProviderFacts,
  type Reach,
  type RolloutFacts,
  type TeacherFacts,
  type RolloutProviderName,
  type JudgeProviderName,
  type TeacherProviderName,
} from './providers.ts';
export { loadProbeFile, parseProbes, probesOf, type Probe, type ProbeTool } from './probes.ts';
