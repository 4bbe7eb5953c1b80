// pipeline: the scoring stage of the running server. Finalised main turns (from the session
// tracker) are acknowledged in the sample store, judged asynchronously with bounded concurrency
// (PRM and/or hint judge by mode, rules or a judge model; the teacher for accepted hints),
// decided by the mode's rules (methods/) including the session-level at-least-one, and resolved
// as samples or recorded drops. Explicit user feedback (POST /v1/feedback) overrides or joins
// the judge. Out: samples in the store, judgements in session views, counters for /metrics and
// /healthz, and `records/judge.jsonl` (+ `records/feedback.jsonl`) under the output folder.
export { ScoringPipeline, type ScoringPipelineOptions } from './pipeline.ts';
export type { FeedbackResult } from './feedback-service.ts';
export type { JudgementViews } from './types.ts';
export { ScoringThread, type ScoringThreadOptions } from './thread.ts';
export type { ScoringStage } from './stage.ts';
export { createScoringPipeline, hfPromptRenderer, type PipelineParts } from './from-config.ts';
export { registerFeedbackRoute } from './route.ts';
export { parseFeedbackBody, applyFeedback, feedbackVote, type FeedbackRequest, type FeedbackContext } from './feedback.ts';
export { PipelineCounters, DROP_REASONS, type PipelineCounts } from './counters.ts';
export { readFeedbackLog, forgetInPipelineRecords } from './records.ts';
export { toPendingTurn } from './convert.ts';
export type { PromptRenderer, Feedback, FeedbackPolicy, JudgeRecord, FeedbackUpdateRecord, DecisionSummary } from './types.ts';
