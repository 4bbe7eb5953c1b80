// From a judged turn to its verdict: the judges' results with any feedback folded in, the mode's
// decision (methods/decideTurn), and the shapes users see — the judgement in session views and
// the line in the judge record.
import type { TurnJudgement } from '../gateway/index.ts';
import { decideTurn, modeSpec, type Decision, type MethodFlags, type Mode, type TurnSignals } from '../methods/index.ts';
import type { PendingTurn } from '../samples/index.ts';
import { finishedTurn, nextStateOf } from './convert.ts';
import { applyFeedback, withGradedReward, type FeedbackContext } from './feedback.ts';
import type { JudgeResults, TeacherOutcome } from './judge.ts';
import type { DecisionSummary, Feedback, FeedbackPolicy, JudgeRecord } from './types.ts';

/** A turn whose judging finished: everything needed to decide it now or again later. */
export interface JudgedTurn {
  pending: PendingTurn;
  results: JudgeResults;
  teacher: TeacherOutcome;
  /** The hint `teacher` was scored under (null when no teacher call was made). */
  teacherHint: string | null;
  rejudged: boolean;
}

/** A decision with what led to it. */
export interface Verdict {
  decision: Decision;
  /** The drop reason as stored (methods' reason, refined: 'teacher_unavailable'). */
  dropReason: string | null;
  signals: TurnSignals;
  feedback: Feedback | undefined;
  /** The accepted hint after feedback, or null. */
  hint: string | null;
}

/** Settings of the decision step. */
export interface DecideSettings extends FeedbackContext {
  flags: MethodFlags;
}

/** Judge signals with feedback folded in, and the hint the mode would distil from. */
export function signalsFor(
  t: Pick<JudgedTurn, 'pending' | 'results'>,
  feedback: Feedback | undefined,
  s: FeedbackContext,
): { signals: TurnSignals; hint: string | null } {
  const { prm, hint } = t.results;
  const base: TurnSignals = {
    prm: prm === null ? null : { score: prm.score, votes: prm.votes },
    hint: hint === null ? null : { hint: hint.hint, votes: hint.votes },
    teacher: null,
  };
  const signals = applyFeedback(base, feedback, s);
  const judged = t.pending.nextState !== null || feedback !== undefined;
  const accepted = modeSpec(s.mode).hints && judged ? (signals.hint?.hint ?? null) : null;
  return { signals, hint: accepted !== null && accepted.trim() !== '' ? accepted : null };
}

/** Decides a judged turn by the mode's rules, with feedback applied. */
export function decide(t: JudgedTurn, feedback: Feedback | undefined, s: DecideSettings, now: number): Verdict {
  const { signals, hint } = signalsFor(t, feedback, s);
  // The teacher signal counts only for the hint it was computed under.
  signals.teacher = hint !== null && hint === t.teacherHint ? t.teacher.signal : null;
  const raw = decideTurn(finishedTurn(t.pending, feedback !== undefined), signals, { mode: s.mode, flags: s.flags, now });
  const decision = withGradedReward(raw, feedback, s.policy);
  let dropReason: string | null = null;
  if (decision.kind === 'drop') {
    dropReason = decision.reason === 'teacher_mismatch' && t.teacher.status !== 'mismatch' ? 'teacher_unavailable' : decision.reason;
  }
  return { decision, dropReason, signals, feedback, hint };
}

/** The judgement shown by GET /sessions/:id and POST /session. */
export function judgementOf(v: Verdict, mode: Mode, policy: FeedbackPolicy): TurnJudgement {
  const d = v.decision;
  const graded = v.feedback !== undefined && policy === 'override' ? v.feedback.score : null;
  const { prm } = modeSpec(mode);
  const score = prm ? (graded ?? v.signals.prm?.score ?? null) : null;
  const votes = d.kind === 'sample' ? d.sample.votes : [...(prm ? (v.signals.prm?.votes ?? []) : (v.signals.hint?.votes ?? []))];
  return {
    score,
    votes,
    loss_mask: d.kind === 'sample' ? d.sample.lossMask : null,
    hint_accepted: v.hint !== null,
    hint: v.hint,
    sample_type: d.kind === 'sample' ? d.sample.type : null,
    ...(v.dropReason !== null ? { dropped_reason: v.dropReason } : {}),
  };
}

/** The decision as recorded and counted. */
export function summarize(v: Verdict): DecisionSummary {
  const d = v.decision;
  if (d.kind === 'drop') return { kind: 'drop', sampleType: null, reward: null, lossMask: null, promoted: false, dropReason: v.dropReason };
  return {
    kind: 'sample',
    sampleType: d.sample.type,
    reward: d.sample.reward,
    lossMask: d.sample.lossMask,
    promoted: d.promoted,
    dropReason: null,
  };
}

/** The judge-record line of a decided turn. */
export function judgeRecordOf(t: JudgedTurn, v: Verdict, mode: Mode, policy: FeedbackPolicy, at: number): JudgeRecord {
  const { prm, hint } = t.results;
  const next = nextStateOf(t.pending);
  return {
    type: 'judged_turn',
    at: new Date(at).toISOString(),
    session_id: t.pending.sessionId,
    turn_id: t.pending.turnId,
    mode,
    next_state: next,
    next_state_reason: next === null ? ((t.pending.extra?.next_state_reason as string | null | undefined) ?? null) : null,
    prm: prm === null ? null : { provider: prm.provider, score: prm.score, votes: prm.votes, outcome: prm.outcome, answers: prm.details },
    hint:
      hint === null
        ? null
        : {
            provider: hint.provider,
            votes: hint.votes,
            candidates: hint.candidates.map((c) => ({ score: c.score, hint: c.hint })),
            chosen: hint.hint,
            selection: hint.selection,
            answers: hint.details,
          },
    teacher: { status: t.teacher.status, error: t.teacher.error, hint: t.teacherHint },
    feedback: v.feedback === undefined ? null : { ...v.feedback, policy },
    accepted_hint: v.hint,
    decision: summarize(v),
    rejudged: t.rejudged,
  };
}
