// scoring: turns a finished turn (prompt, our response, the next state) into judge signals.
//  - PRM judge: m concurrent votes of +1/0/−1 → majority score (with a visible quorum rule).
//  - Hint judge: m concurrent votes of +1/−1 with hindsight hints → one selected hint
//    (`longest` or `overlap`), injected into the prompt for the teacher.
//  - Rules judge: a deterministic offline judge with the same output shapes.
// Inputs: JudgedTurnInput and an injected `call(messages, {temperature, maxTokens})`; no HTTP here.
// Outputs: PrmJudgeResult / HintJudgeResult (votes, raw answers, errors, score, hint).
// Teacher scoring lives in this folder's teacher*.ts files.

export type {
  CandidateTopK,
  HintCandidate,
  HintJudgeResult,
  HintSelection,
  HintStrategy,
  HintVoteDetail,
  JudgeCall,
  JudgeCallOptions,
  JudgedNextState,
  JudgedTurnInput,
  NextStateRole,
  OverlapMetric,
  PrmJudgeResult,
  VoteDetail,
  VoteOutcome,
  VoteReason,
} from './types.ts';
export { buildHintMessages, buildPrmMessages, type PromptLimits } from './prompts.ts';
export { lastBoxed, parseBoxedScore, parseHint } from './parse.ts';
export { majorityVote, checkVoteCount, type MajorityOptions } from './vote.ts';
export { selectHint, overlapScore, eligibleIndices, hintLength, longEnoughHint, type HintSelectOptions } from './hint-select.ts';
export { injectHint, HINT_MARKER } from './hint-inject.ts';
export { classifyNextState, runRulesPrmJudge, runRulesHintJudge, type RulesVerdict, type RulesJudgeOptions } from './rules.ts';
export { runPrmJudge, runHintJudge, type JudgeRunOptions, type PrmRunOptions, type HintRunOptions } from './runners.ts';
export { contentToText, stripInternalContext, truncateMiddle, formatToolCalls } from './text.ts';
