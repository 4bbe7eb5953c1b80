import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { checkVoteCount, majorityVote } from './vote.ts';

test('majority of valid votes wins', () => {
  assert.deepEqual(majorityVote([1, 1, -1]), { score: 1, valid: 3, failed: 0, reason: 'majority', confidence: 2 / 3 });
  assert.deepEqual(majorityVote([-1, 0, -1]), { score: -1, valid: 3, failed: 0, reason: 'majority', confidence: 2 / 3 });
  assert.deepEqual(majorityVote([0, 0, 1]), { score: 0, valid: 3, failed: 0, reason: 'majority', confidence: 2 / 3 });
  // Plurality: with m=4, two +1 beat one 0 and one -1.
  assert.deepEqual(majorityVote([1, 0, 1, -1]), { score: 1, valid: 4, failed: 0, reason: 'majority', confidence: 2 / 4 });
});

test('ties give 0', () => {
  assert.deepEqual(majorityVote([1, 0, -1]), { score: 0, valid: 3, failed: 0, reason: 'tie', confidence: 1 / 3 });
  assert.deepEqual(majorityVote([1, -1, 'fail']), { score: 0, valid: 2, failed: 1, reason: 'tie', confidence: 1 / 2 });
  assert.deepEqual(majorityVote([1, 1, -1, -1]), { score: 0, valid: 4, failed: 0, reason: 'tie', confidence: 2 / 4 });
});

test('all failed (or no votes) gives 0', () => {
  assert.deepEqual(majorityVote(['fail', 'fail', 'fail']), { score: 0, valid: 0, failed: 3, reason: 'all_failed', confidence: 0 });
  assert.deepEqual(majorityVote([]), { score: 0, valid: 0, failed: 0, reason: 'all_failed', confidence: 0 });
});

test('default quorum 1: a single valid vote out of three decides (the reference behaviour)', () => {
  assert.deepEqual(majorityVote(['fail', -1, 'fail']), { score: -1, valid: 1, failed: 2, reason: 'majority', confidence: 1 });
});

test('quorum 2: one valid vote is not enough, two are', () => {
  assert.deepEqual(majorityVote(['fail', -1, 'fail'], { quorum: 2 }), {
    score: 0,
    valid: 1,
    failed: 2,
    reason: 'below_quorum',
    confidence: 0,
  });
  assert.deepEqual(majorityVote([1, 'fail', 1], { quorum: 2 }), { score: 1, valid: 2, failed: 1, reason: 'majority', confidence: 1 });
});

test('invalid quorum and vote counts are config errors', () => {
  assert.throws(
    () => majorityVote([1], { quorum: 0 }),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config',
  );
  assert.throws(() => majorityVote([1], { quorum: 1.5 }), OpenClawError);
  assert.throws(() => checkVoteCount(0), /majority_vote/);
  assert.equal(checkVoteCount(5), 5);
});

test('min_confidence: a verdict too few votes agree with gives 0 (low_confidence), the confidence kept', () => {
  assert.deepEqual(majorityVote([1, 1, -1], { minConfidence: 0.7 }), {
    score: 0,
    valid: 3,
    failed: 0,
    reason: 'low_confidence',
    confidence: 2 / 3,
  });
  assert.deepEqual(majorityVote([1, 1, -1], { minConfidence: 0.5 }), {
    score: 1,
    valid: 3,
    failed: 0,
    reason: 'majority',
    confidence: 2 / 3,
  });
  // The rules judge's m identical votes carry its own confidence.
  assert.deepEqual(majorityVote([-1, -1, -1], { minConfidence: 0.5, confidence: 0.3 }), {
    score: 0,
    valid: 3,
    failed: 0,
    reason: 'low_confidence',
    confidence: 0.3,
  });
  // A unanimous 0 stays 0 for its own reason, whatever the minimum.
  assert.equal(majorityVote([0, 0, 0], { minConfidence: 1, confidence: 0 }).reason, 'majority');
});
