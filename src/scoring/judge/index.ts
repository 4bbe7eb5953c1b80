// scoring/judge: the `Judge` implementations (model.ts: a judge model; rules.ts: offline rules)
// and the one factory from the config (from-config.ts), by the provider table (providers.ts).
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
