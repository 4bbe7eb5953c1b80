// The turn rules of the modes (docs/design.md §2): one finished turn and its judge signals in, one
// decision out. The mode table (modes.ts) names each mode's rule; decideTurn (dispatch.ts) runs it.
// The rules:
//
// openclaw-rl (weights not used: A_t = r)
//   every main turn → 'rl' sample, reward r (0 without a next state);
//   lossMask 1 iff the turn has a next state and r ≠ 0. At-least-one is session-level: see
//   session.ts.
//
// openclaw-opd (weights not used: A_t = teacher_t − old_t)
//   no next state        → drop 'no_next_state' with force-drop, else a masked 'opd' sample;
//   hint accepted        → 'opd' sample, reward 0, teacher log-probs, lossMask 1
//                          (drop 'teacher_mismatch' when they do not fit the response);
//   no hint accepted     → drop 'hint_rejected' with hint-reject, else a masked 'opd' sample.
//   "Masked" samples (lossMask 0, no teacher log-probs) contribute nothing; they exist only so
//   that turning a filter off keeps the turn on record instead of dropping it.
//
// openclaw-combine with three-way dispatch (A_t = w_opd·(teacher_t − old_t) + w_rl·r)
//   no next state        → drop 'no_next_state';
//   hint ✓ and r = ±1    → 'opd+rl' sample (reward r, teacher log-probs);
//   hint ✓ only          → 'opd' sample (reward 0);
//   r = ±1 only          → 'rl' sample with teacherLogprobs = null, so the OPD term is exactly 0;
//   neither              → drop 'no_signal'.
//   A hint whose teacher log-probs are missing or misaligned drops the turn ('teacher_mismatch');
//   a turn whose only signal has weight 0 (w_rl = 0 or w_opd = 0) is dropped ('zero_weight'),
//   because its advantage would be 0 on every token and it would only dilute the batch mean.
// openclaw-combine without three-way dispatch (our reading of "no gating"): every main turn is a
//   sample typed by the signals it has ('opd+rl' / 'opd' / 'rl'); lossMask 0 when it has no next
//   state or neither signal. Teacher mismatches and zero weights still drop as above.
//
// Votes recorded on a sample: the PRM votes for 'rl' and 'opd+rl', the hint-judge votes for 'opd'.

import type { Sample, SampleType, Vote } from '../samples/index.ts';
import type { Decision, DropReason, FinishedTurn, MethodFlags, TeacherSignal, TurnSignals } from './types.ts';

/** What a turn rule sees: the turn (with at least one response token), its signals and the flags. */
export interface TurnContext {
  turn: FinishedTurn;
  signals: TurnSignals;
  flags: MethodFlags;
  /** Timestamp for `createdAt` (ms since epoch). */
  now: number;
}

/** A mode's rule: what one judged (or never judged) turn becomes. */
export type TurnRule = (ctx: TurnContext) => Decision;

type Ctx = TurnContext;

/** openclaw-rl: every main turn is an 'rl' sample. */
export function decideRl(ctx: Ctx): Decision {
  const r = prmScore(ctx);
  return sample(ctx, { type: 'rl', reward: r, lossMask: r !== 0 ? 1 : 0, teacher: null, votes: prmVotes(ctx), hint: null });
}

/** openclaw-opd: hinted turns are 'opd' samples; the rest drop or stay masked, by the flags. */
export function decideOpd(ctx: Ctx): Decision {
  const masked = (votes: Vote[]) => sample(ctx, { type: 'opd', reward: 0, lossMask: 0, teacher: null, votes, hint: null });
  if (!ctx.turn.hasNextState) return ctx.flags.forceDrop ? drop(ctx, 'no_next_state') : masked([]);
  const hint = acceptedHint(ctx);
  if (hint === null) return ctx.flags.hintReject ? drop(ctx, 'hint_rejected') : masked(hintVotes(ctx));
  const teacher = fittingTeacher(ctx);
  if (teacher === null) return drop(ctx, 'teacher_mismatch');
  return sample(ctx, { type: 'opd', reward: 0, lossMask: 1, teacher, votes: hintVotes(ctx), hint });
}

/** openclaw-combine: three-way dispatch, or (flag off) every turn typed by the signals it has. */
export function decideCombine(ctx: Ctx): Decision {
  return ctx.flags.threeWayDispatch ? decideThreeWay(ctx) : decideCombineUngated(ctx);
}

function decideThreeWay(ctx: Ctx): Decision {
  if (!ctx.turn.hasNextState) return drop(ctx, 'no_next_state');
  const r = prmScore(ctx);
  const hint = acceptedHint(ctx);
  if (hint === null && r === 0) return drop(ctx, 'no_signal');
  return combinedSample(ctx, r, hint);
}

function decideCombineUngated(ctx: Ctx): Decision {
  const r = prmScore(ctx);
  const hint = acceptedHint(ctx);
  if (hint === null && r === 0) {
    return sample(ctx, { type: 'rl', reward: 0, lossMask: 0, teacher: null, votes: prmVotes(ctx), hint: null });
  }
  return combinedSample(ctx, r, hint);
}

/** The sample of a combine turn with at least one signal: opd+rl, opd or rl. */
function combinedSample(ctx: Ctx, r: number, hint: string | null): Decision {
  let teacher: TeacherSignal | null = null;
  if (hint !== null) {
    teacher = fittingTeacher(ctx);
    if (teacher === null) return drop(ctx, 'teacher_mismatch');
  }
  const hasOpd = hint !== null && ctx.flags.wOpd !== 0;
  const hasRl = r !== 0 && ctx.flags.wRl !== 0;
  if (!hasOpd && !hasRl) return drop(ctx, 'zero_weight');
  const type: SampleType = hint !== null ? (r !== 0 ? 'opd+rl' : 'opd') : 'rl';
  const votes = type === 'opd' ? hintVotes(ctx) : prmVotes(ctx);
  return sample(ctx, { type, reward: r, lossMask: 1, teacher, votes, hint });
}

/** The PRM score of a judged turn; 0 without a next state or without a PRM result. */
function prmScore(ctx: Ctx): 1 | 0 | -1 {
  if (!ctx.turn.hasNextState) return 0;
  return ctx.signals.prm?.score ?? 0;
}

function acceptedHint(ctx: Ctx): string | null {
  if (!ctx.turn.hasNextState) return null;
  const hint = ctx.signals.hint?.hint ?? null;
  return hint !== null && hint.trim() !== '' ? hint : null;
}

function prmVotes(ctx: Ctx): Vote[] {
  return [...(ctx.signals.prm?.votes ?? [])];
}

function hintVotes(ctx: Ctx): Vote[] {
  return [...(ctx.signals.hint?.votes ?? [])];
}

/**
 * The teacher signal when it fits the response: one finite log-prob ≤ 0 per response token (and
 * top-K, if given, per token too). Anything else is a mismatch — never padded, since a padded
 * log-prob of 0 would claim probability 1.
 */
function fittingTeacher(ctx: Ctx): TeacherSignal | null {
  const teacher = ctx.signals.teacher ?? null;
  if (teacher === null) return null;
  const n = ctx.turn.responseIds.length;
  if (teacher.logprobs.length !== n) return null;
  if (!teacher.logprobs.every((lp) => Number.isFinite(lp) && lp <= 1e-6)) return null;
  if (teacher.topK !== undefined && teacher.topK !== null && teacher.topK.length !== n) return null;
  return teacher;
}

interface SampleParts {
  type: SampleType;
  reward: number;
  lossMask: 0 | 1;
  teacher: TeacherSignal | null;
  votes: Vote[];
  hint: string | null;
}

function sample(ctx: Ctx, parts: SampleParts): Decision {
  const { turn } = ctx;
  const topK = parts.teacher?.topK ?? null;
  const built: Sample = {
    id: `${turn.sessionId}:${turn.turnId}`,
    sessionId: turn.sessionId,
    turnId: turn.turnId,
    policyVersion: turn.policyVersion,
    promptIds: [...turn.promptIds],
    responseIds: [...turn.responseIds],
    rolloutLogprobs: [...turn.rolloutLogprobs],
    lossMask: parts.lossMask,
    reward: parts.reward,
    teacherLogprobs: parts.teacher === null ? null : [...parts.teacher.logprobs],
    teacherTopK: topK === null ? null : topK.map((k) => ({ ids: Array.from(k.ids), logprobs: Array.from(k.logprobs) })),
    type: parts.type,
    votes: parts.votes,
    hint: parts.hint,
    createdAt: ctx.now,
  };
  return { kind: 'sample', sample: built, judged: turn.hasNextState, promoted: false };
}

/** The drop of the context's turn for `reason`. */
export function drop(ctx: Ctx, reason: DropReason): Decision {
  return { kind: 'drop', sessionId: ctx.turn.sessionId, turnId: ctx.turn.turnId, reason, judged: ctx.turn.hasNextState };
}
