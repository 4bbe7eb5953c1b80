// scoring/judge: the `Judge` implementations (one per row of providers.ts, e.g. model.ts: a judge
// model; rules.ts: offline rules) and the one factory from the config (from-config.ts).
export {
  runPrmJudge,
  runHintJudge,
  modelJudge,
  channelJudgeCall,
  type JudgeRunOptions,
  type PrmRunOptions,
  type HintRunOptions,
  type ModelJudgeOptions,
} from './model.ts';
export { classifyNextState, runRulesPrmJudge, runRulesHintJudge, rulesJudge, type RulesVerdict, type RulesJudgeOptions } from './rules.ts';
export { createJudge, judgeHasModel, judgeModelCall, type OwnedJudge } from './from-config.ts';
export { JUDGE_PROVIDERS, type JudgeProviderSpec } from './providers.ts';
