// Majority vote over m judge votes (docs/design.md §2).
//
// Rule: among the valid votes (those that are not 'fail'), the value with the most votes wins;
// a tie for the most votes gives 0; no valid vote gives 0. It is a plurality, as in the
// reference: [1, 0, -1] is a tie (0), [1, 1, -1] gives 1.
//
// Quorum (`scoring.quorum`, default 1): the minimum number of valid votes needed to decide at
// all; with fewer the score is 0 and the reason is 'below_quorum'. The default 1 reproduces the
// reference, where a single valid vote out of three decides when the other two failed. Raise it
// (e.g. 2 of 3) when judge failures are common and one stray vote should not move the policy.
//
// Confidence (`judge.min_confidence`): the share of valid votes that agree with the winner, or
// the confidence the rules judge gives its one reading. Below the minimum the score is 0 and the
// reason 'low_confidence': a judge that is unsure wastes a turn instead of training the wrong sign.

import { OpenClawError } from '../errors/index.ts';
import type { Vote } from '../samples/index.ts';
import type { VoteOutcome } from './types.ts';

/** Options of `majorityVote`. */
export interface MajorityOptions {
  /** Minimum valid votes needed to decide (default 1, the reference's behaviour). */
  quorum?: number;
  /** A verdict less sure than this gives 0 (default 0: never abstain). */
  minConfidence?: number;
  /** The verdict's confidence when the votes do not carry it (the rules judge's m identical votes). */
  confidence?: number;
}

/** Decides a score in {+1, 0, −1} from judge votes; ties, all-failed and below-quorum give 0. */
export function majorityVote(votes: readonly Vote[], opts: MajorityOptions = {}): VoteOutcome {
  const quorum = opts.quorum ?? 1;
  if (!Number.isInteger(quorum) || quorum < 1) {
    throw new OpenClawError('config', `scoring.quorum must be a whole number >= 1, got ${quorum}`, { param: 'scoring.quorum' });
  }
  const counts = new Map<1 | 0 | -1, number>();
  let failed = 0;
  for (const vote of votes) {
    if (vote === 'fail') failed++;
    else counts.set(vote, (counts.get(vote) ?? 0) + 1);
  }
  const valid = votes.length - failed;
  if (valid === 0) return { score: 0, valid, failed, reason: 'all_failed', confidence: 0 };
  if (valid < quorum) return { score: 0, valid, failed, reason: 'below_quorum', confidence: 0 };
  let best: 1 | 0 | -1 = 0;
  let bestCount = 0;
  let tied = false;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
      tied = false;
    } else if (count === bestCount) {
      tied = true;
    }
  }
  const confidence = opts.confidence ?? bestCount / valid;
  if (tied) return { score: 0, valid, failed, reason: 'tie', confidence };
  if (best !== 0 && confidence < (opts.minConfidence ?? 0)) return { score: 0, valid, failed, reason: 'low_confidence', confidence };
  return { score: best, valid, failed, reason: 'majority', confidence };
}

/** Returns m when it is a valid vote count (a whole number >= 1), else throws a config error. */
export function checkVoteCount(m: number): number {
  if (!Number.isInteger(m) || m < 1) {
    throw new OpenClawError('config', `scoring.majority_vote (--majority-vote) must be a whole number >= 1, got ${m}`, {
      param: 'scoring.majority_vote',
    });
  }
  return m;
}
