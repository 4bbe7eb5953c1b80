import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBoxedScore, parseHint } from './parse.ts';

const PRM = [1, 0, -1] as const;

test('parseBoxedScore takes the last \\boxed{…}, not the first', () => {
  assert.equal(parseBoxedScore('maybe \\boxed{1}? no, on reflection \\boxed{-1}', PRM), -1);
  assert.equal(parseBoxedScore('first \\boxed{-1} then final \\boxed{0}', PRM), 0);
});

test('parseBoxedScore tolerates spaces, a plus sign and .0', () => {
  assert.equal(parseBoxedScore('\\boxed{ -1 }', PRM), -1);
  assert.equal(parseBoxedScore('\\boxed{+1}', PRM), 1);
  assert.equal(parseBoxedScore('\\boxed {1}', PRM), 1);
  assert.equal(parseBoxedScore('$\\boxed{- 1}$', PRM), -1);
  assert.equal(parseBoxedScore('\\boxed{1.0}', PRM), 1);
  assert.ok(Object.is(parseBoxedScore('\\boxed{-0}', PRM), 0), '-0 comes back as 0');
});

test('parseBoxedScore fails on junk, missing boxes and values outside the allowed set', () => {
  assert.equal(parseBoxedScore('I think it was good.', PRM), 'fail');
  assert.equal(parseBoxedScore('\\boxed{good}', PRM), 'fail');
  assert.equal(parseBoxedScore('\\boxed{2}', PRM), 'fail');
  assert.equal(parseBoxedScore('\\boxed{}', PRM), 'fail');
  assert.equal(parseBoxedScore('\\boxed{0.5}', PRM), 'fail');
  // The last box is the final word: a junk last box fails even after a valid one.
  assert.equal(parseBoxedScore('\\boxed{1} ... final: \\boxed{yes}', PRM), 'fail');
  // 0 is a valid PRM score but not a hint-judge decision.
  assert.equal(parseBoxedScore('\\boxed{0}', [1, -1] as const), 'fail');
});

test('parseHint returns the last non-empty hint block, trimmed', () => {
  assert.equal(parseHint('\\boxed{1}\n[HINT_START]  Use metric units.  [HINT_END]'), 'Use metric units.');
  assert.equal(parseHint('[HINT_START]a[HINT_END] then [HINT_START]Ask before deleting.[HINT_END]'), 'Ask before deleting.');
  assert.equal(parseHint('[hint_start]\nmulti\nline\n[ HINT_END ]'), 'multi\nline');
  assert.equal(parseHint('[HINT_START]Real hint.[HINT_END] [HINT_START]   [HINT_END]'), 'Real hint.');
});

test('parseHint returns null without a complete block', () => {
  assert.equal(parseHint('\\boxed{1} no hint here'), null);
  assert.equal(parseHint('[HINT_START] cut off by max_tokens'), null);
  assert.equal(parseHint('[HINT_START][HINT_END]'), null);
});
