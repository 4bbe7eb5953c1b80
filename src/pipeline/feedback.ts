// Explicit user feedback (POST /v1/feedback): request validation, and how a thumbs up/down or
// graded score and an optional comment combine with the judges' signals (see FeedbackPolicy).
// Pure functions; the pipeline decides when they apply (before judging, while a turn is held,
// or on a sample that is still ready).
import { z } from 'zod';
import { invalidRequest } from '../errors/index.ts';
import {
  decideTurn,
  modeSpec,
  type HintSignal,
  type MethodFlags,
  type Mode,
  type PrmSignal,
  type TurnSignals,
  type Decision,
} from '../methods/index.ts';
import { hintLength, longEnoughHint, majorityVote } from '../scoring/index.ts';
import type { Sample, Vote } from '../samples/index.ts';
import type { Feedback, FeedbackPolicy } from './types.ts';

const FeedbackBody = z.object({
  session_id: z.string().trim().min(1, 'must be a non-empty string'),
  turn_id: z.number().int().positive().optional(),
  score: z.union([z.number().min(-1, 'must be between -1 and 1').max(1, 'must be between -1 and 1'), z.enum(['up', 'down'])], {
    errorMap: () => ({ message: "must be a number in [-1, 1] or 'up' / 'down'" }),
  }),
  comment: z.string().max(8000).optional(),
});

/** A validated feedback request. */
export interface FeedbackRequest {
  sessionId: string;
  turnId: number | undefined;
  score: number;
  comment: string | null;
}

/** Validates a POST /v1/feedback body; throws a 400 that names the offending field. */
export function parseFeedbackBody(body: unknown): FeedbackRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('Request body must be a JSON object {session_id, turn_id?, score, comment?}.', null, 'invalid_body');
  }
  const parsed = FeedbackBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length > 0 ? String(issue.path[0]) : null;
    const missing = issue.code === 'invalid_type' && issue.received === 'undefined';
    const message = missing ? `Missing required parameter: '${field}'.` : `Invalid '${field}': ${issue.message}.`;
    throw invalidRequest(message, field, missing ? 'missing_required_parameter' : 'invalid_value');
  }
  const b = parsed.data;
  const score = b.score === 'up' ? 1 : b.score === 'down' ? -1 : b.score;
  const comment = b.comment !== undefined && b.comment.trim() !== '' ? b.comment.trim() : null;
  return { sessionId: b.session_id, turnId: b.turn_id, score, comment };
}

/** The vote a feedback score casts: its sign. */
export function feedbackVote(score: number): 1 | 0 | -1 {
  return score > 0 ? 1 : score < 0 ? -1 : 0;
}

/** Settings that shape how feedback combines with the judges. */
export interface FeedbackContext {
  mode: Mode;
  policy: FeedbackPolicy;
  quorum: number;
  minHintChars: number;
}

/**
 * The judge signals with feedback folded in. override: the feedback's sign is the score and a
 * qualifying comment is the hint; join: the sign is one more vote in the majority and a
 * qualifying comment competes with the judge's hint by length (the `longest` rule). A comment
 * qualifies in OPD modes when it is longer than `minHintChars`, like a judge hint.
 */
export function applyFeedback(signals: TurnSignals, feedback: Feedback | undefined, ctx: FeedbackContext): TurnSignals {
  if (feedback === undefined) return signals;
  const vote = feedbackVote(feedback.score);
  const prmVotes: Vote[] = [...(signals.prm?.votes ?? []), vote];
  const prm: PrmSignal =
    ctx.policy === 'override'
      ? { score: vote, votes: prmVotes }
      : { score: majorityVote(prmVotes, { quorum: ctx.quorum }).score, votes: prmVotes };
  return { ...signals, prm, hint: hintWithComment(signals.hint ?? null, feedback.comment, ctx) };
}

/** Whether a feedback comment counts as a hint: an OPD mode and a comment longer than `scoring.min_hint_chars`. */
export function commentIsHint(comment: string | null, mode: Mode, minHintChars: number): comment is string {
  return comment !== null && modeSpec(mode).hints && longEnoughHint(comment, minHintChars);
}

function hintWithComment(hint: HintSignal | null, comment: string | null, ctx: FeedbackContext): HintSignal | null {
  if (!commentIsHint(comment, ctx.mode, ctx.minHintChars)) return hint;
  const votes: Vote[] = [...(hint?.votes ?? []), 1];
  const judged = hint?.hint ?? null;
  if (ctx.policy === 'join' && judged !== null && hintLength(judged) >= hintLength(comment)) return { hint: judged, votes };
  return { hint: comment, votes };
}

/** With the override policy, an RL-bearing sample's reward is the user's graded score as given. */
export function withGradedReward(decision: Decision, feedback: Feedback | undefined, policy: FeedbackPolicy): Decision {
  if (feedback === undefined || policy !== 'override' || decision.kind !== 'sample') return decision;
  if (decision.sample.type === 'opd') return decision;
  return { ...decision, sample: { ...decision.sample, reward: feedback.score } };
}

/** The signals a stored sample was built from, as far as the sample shows them. */
export function signalsOfSample(s: Sample): TurnSignals {
  const prm: PrmSignal | null = s.type === 'opd' ? null : { score: feedbackVote(s.reward), votes: s.votes };
  const hint: HintSignal | null = s.type === 'rl' ? null : { hint: s.hint, votes: s.type === 'opd' ? s.votes : [] };
  const teacher = s.teacherLogprobs === null ? null : { logprobs: s.teacherLogprobs, topK: s.teacherTopK };
  return { prm, hint, teacher };
}

/**
 * Feedback on a sample that is already stored (still ready): the sample's own signals with the
 * feedback's score folded in, decided again. The comment is not used: the teacher scored the old
 * hint and samples do not keep the prompt messages a new hinted prompt would need.
 */
export function redecideStoredSample(
  s: Sample,
  feedback: Feedback,
  settings: FeedbackContext & { flags: MethodFlags },
): { decision: Decision; signals: TurnSignals; used: Feedback; note: string | null } {
  const note =
    feedback.comment !== null && modeSpec(settings.mode).hints
      ? 'the turn was already judged, so the comment could not be used as a hint (give feedback before the next message to have it distilled)'
      : null;
  const used: Feedback = { ...feedback, comment: null };
  const signals = applyFeedback(signalsOfSample(s), used, settings);
  const turn = {
    sessionId: s.sessionId,
    turnId: s.turnId,
    policyVersion: s.policyVersion,
    promptIds: s.promptIds,
    responseIds: s.responseIds,
    rolloutLogprobs: s.rolloutLogprobs,
    hasNextState: true,
  };
  const decision = withGradedReward(
    decideTurn(turn, signals, { mode: settings.mode, flags: settings.flags, now: s.createdAt }),
    used,
    settings.policy,
  );
  return { decision, signals, used, note };
}
