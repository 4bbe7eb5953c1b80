// evaluation: "is it learning?" from live traffic, per policy version (issue 25 item 1,
// docs/evaluation.md). Every judged turn carries the version that answered it; this folds the
// sample store into one row per version: judged turns, reward mean (Student-t 95% interval), −1 rate
// and hint rate (Wilson 95% intervals, with counts), sample types and drops.
// In: a SampleStore (`tallyByVersion`, grouped in SQL) — the running server's, or a run folder's
// opened read-only. Out: the `Evaluation` JSON (`GET /evaluation`, `/dashboard/api/evaluation`) and
// a Markdown table (`openclaw-rl report`). `stats.ts` and `aggregate.ts` are pure; `report.ts` does
// the reading, `routes.ts` the HTTP.
// The replay evaluation (item 2) lives here too: `replay.ts` has a version write new answers to
// held-out hinted prompts and drift probes and measures them (the trainer calls it per version and
// stores the numbers, which `aggregate.ts` shows as `versions[].replay`); `hint-check.ts` asks a
// judge model whether an answer satisfies its hint; `garbled.ts` tells garbled answers apart.
export { evaluate, NEUTRAL_DROP_REASONS } from './aggregate.ts';
export type { Evaluation, EvaluateOptions, RateJson, VersionEvaluation } from './aggregate.ts';
export { meanWithInterval, tQuantile975, wilson, Z_975 } from './stats.ts';
export type { Interval, MeanEstimate, RateEstimate } from './stats.ts';
export { formatEvaluation } from './format.ts';
export { gateRefusalsOf, type GateRefusal, type GateRefusals } from './gate-refusals.ts';
export { evaluationOf, evaluationOfRun } from './report.ts';
export { registerEvaluationRoute } from './routes.ts';
export {
  replayHeldOut,
  replayable,
  runProbes,
  type AnswerSettings,
  type MetricValue,
  type ProbeSettings,
  type ReplayMetrics,
  type ReplaySettings,
  type VersionModel,
} from './replay.ts';
export { hintCheckMessages, hintSatisfied, parseYesNo, type HintCheckSettings } from './hint-check.ts';
export { garbledReason, GARBLED, type GarbledReason } from './garbled.ts';
export { DEFAULT_PROBES } from './default-probes.ts';
