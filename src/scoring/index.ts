// scoring: turns a finished turn (prompt, our response, the next state) into judge signals, and
// owns the two things that produce them: the `Judge` and the `Teacher`.
//  - Judge (judge/): PRM votes of +1/0/−1 → majority score (with a visible quorum rule), and hint
//    votes of +1/−1 with hindsight hints → one selected hint (`longest` or `overlap`), injected
//    into the prompt for the teacher. model.ts asks a judge model m times concurrently through a
//    `call`; rules.ts is a deterministic offline judge with the same output shapes.
//  - Teacher (teacher/): log-probs of the response tokens under the hinted prompt, from an HTTP
//    log-prob API, the in-process engine, or Tinker.
// `createJudge` / `createTeacher` build what the config names; callers import through this file.
// Outputs: PrmJudgeResult / HintJudgeResult (votes, raw answers, errors, score, hint), TeacherScore.

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
  Judge,
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
export {
  classifyNextState,
  runRulesPrmJudge,
  runRulesHintJudge,
  rulesJudge,
  runPrmJudge,
  runHintJudge,
  modelJudge,
  channelJudgeCall,
  createJudge,
  judgeHasModel,
  judgeModelCall,
  JUDGE_PROVIDERS,
  type RulesVerdict,
  type RulesJudgeOptions,
  type JudgeRunOptions,
  type PrmRunOptions,
  type HintRunOptions,
  type ModelJudgeOptions,
  type OwnedJudge,
} from './judge/index.ts';
export {
  createTeacher,
  teacherLogprobTemperature,
  teacherProvider,
  createHttpTeacher,
  teacherFromBackend,
  teacherMismatch,
  engineTeacherBackend,
  tinkerTeacherBackend,
  HTTP_DIALECTS,
  type Teacher,
  type TeacherBackend,
  type TeacherScore,
  type ScoreOptions,
  type HttpTeacherOptions,
  type HttpTeacherDialect,
  type HttpDialect,
} from './teacher/index.ts';
export { contentToText, stripInternalContext, truncateMiddle, formatToolCalls } from './text.ts';
