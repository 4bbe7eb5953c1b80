// Running counters of the scoring pipeline and the rates derived from them.
// The key set is fixed up front (every drop reason included) because /metrics registers one
// gauge per key when the server starts.
import type { Vote } from '../samples/index.ts';
import type { JudgeResults } from './judge.ts';
import type { Verdict } from './verdict.ts';

/** Every reason a turn or sample can be dropped by the pipeline (methods' reasons plus ours). */
export const DROP_REASONS = [
  'no_next_state',
  'hint_rejected',
  'no_signal',
  'teacher_mismatch',
  'teacher_unavailable',
  'zero_weight',
  'empty_response',
  'no_token_data',
  'padded_logprobs',
  'secret_in_response',
  'secret_in_sample',
  'personal_in_sample',
] as const;

/** Raw counts since this process started. */
export interface PipelineCounts {
  turns_acknowledged: number;
  turns_resolved: number;
  /** Resolved turns that had a judgement (a next state, or explicit feedback). */
  turns_judged: number;
  samples_stored: number;
  /** Samples stored with loss_mask 1. */
  samples_trainable: number;
  /** Samples whose loss mask at-least-one turned on. */
  samples_promoted: number;
  prm_runs: number;
  prm_score_sum: number;
  hint_runs: number;
  hints_accepted: number;
  votes: number;
  votes_failed: number;
  teacher_calls: number;
  teacher_failures: number;
  feedback_received: number;
  feedback_replaced: number;
  rejudged_after_restart: number;
  store_errors: number;
}

/** Counters plus drops by reason; `rates()` gives the derived numbers. */
export class PipelineCounters {
  readonly counts: PipelineCounts = {
    turns_acknowledged: 0,
    turns_resolved: 0,
    turns_judged: 0,
    samples_stored: 0,
    samples_trainable: 0,
    samples_promoted: 0,
    prm_runs: 0,
    prm_score_sum: 0,
    hint_runs: 0,
    hints_accepted: 0,
    votes: 0,
    votes_failed: 0,
    teacher_calls: 0,
    teacher_failures: 0,
    feedback_received: 0,
    feedback_replaced: 0,
    rejudged_after_restart: 0,
    store_errors: 0,
  };
  readonly dropped: Record<string, number> = Object.fromEntries(DROP_REASONS.map((r) => [r, 0]));

  /** Counts the votes of one judge run. */
  votesCast(votes: readonly Vote[]): void {
    this.counts.votes += votes.length;
    this.counts.votes_failed += votes.filter((v) => v === 'fail').length;
  }

  /** Counts the judge runs of one turn: PRM score, accepted hint, votes. */
  judged(r: JudgeResults): void {
    const c = this.counts;
    if (r.prm !== null) {
      c.prm_runs++;
      c.prm_score_sum += r.prm.score;
      this.votesCast(r.prm.votes);
    }
    if (r.hint !== null) {
      c.hint_runs++;
      if (r.hint.hint !== null) c.hints_accepted++;
      this.votesCast(r.hint.votes);
    }
  }

  /** Counts a turn resolved in the store: as a drop by reason, or as a sample (trainable, promoted). */
  resolved(v: Verdict): void {
    const c = this.counts;
    const d = v.decision;
    c.turns_resolved++;
    if (d.judged) c.turns_judged++;
    if (d.kind === 'drop') {
      this.drop(v.dropReason!);
      return;
    }
    c.samples_stored++;
    if (d.sample.lossMask === 1) c.samples_trainable++;
    if (d.promoted) c.samples_promoted++;
  }

  /** Counts a drop; unknown reasons are counted too (they show up in /healthz, not as a gauge). */
  drop(reason: string): void {
    this.dropped[reason] = (this.dropped[reason] ?? 0) + 1;
  }

  /**
   * effective_sample_rate = trainable samples / judged turns; hint_accept_rate = accepted hints /
   * hint-judge runs; prm_eval_score = mean PRM score; vote_failure_rate = failed / all votes.
   * Each is 0 until its denominator is positive.
   */
  rates(): Record<'effective_sample_rate' | 'hint_accept_rate' | 'prm_eval_score' | 'vote_failure_rate', number> {
    const c = this.counts;
    const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
    return {
      effective_sample_rate: ratio(c.samples_trainable, c.turns_judged),
      hint_accept_rate: ratio(c.hints_accepted, c.hint_runs),
      prm_eval_score: ratio(c.prm_score_sum, c.prm_runs),
      vote_failure_rate: ratio(c.votes_failed, c.votes),
    };
  }
}
