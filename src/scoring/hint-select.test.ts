import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hintLength, overlapScore, selectHint } from './hint-select.ts';
import type { CandidateTopK, HintCandidate } from './types.ts';

const ln = Math.log;
const student = [
  { ids: [5, 6], logprobs: [ln(0.5), ln(0.3)] },
  { ids: [7, 8], logprobs: [ln(0.6), ln(0.2)] },
];
// Teacher puts 0.6 + 0.3·0 on pos 0 (id 9 is not in the student's set) and 0.5 + 0.4 on pos 1.
const teacherShortHint: CandidateTopK = {
  student,
  teacher: [
    { ids: [5, 9], logprobs: [ln(0.6), ln(0.3)] },
    { ids: [7, 8], logprobs: [ln(0.5), ln(0.4)] },
  ],
};
// Same token sets as the student, but with little mass on them: 0.1 per position.
const teacherLongHint: CandidateTopK = {
  student,
  teacher: [
    { ids: [5, 6], logprobs: [ln(0.05), ln(0.05)] },
    { ids: [7, 8], logprobs: [ln(0.05), ln(0.05)] },
  ],
};

function candidates(withTopK: boolean): HintCandidate[] {
  return [
    { score: 1, hint: 'Short hint.', topK: withTopK ? teacherShortHint : null }, // 11 chars
    { score: 1, hint: '  A much longer and concrete hint.  ', topK: withTopK ? teacherLongHint : null },
    { score: -1, hint: 'The longest text of all, but from a -1 vote.' },
    { score: 1, hint: 'too short' }, // 9 chars: not > 10
    { score: 'fail', hint: null },
  ];
}

test('longest: longest hint among +1 votes longer than minHintChars, trimmed', () => {
  const s = selectHint(candidates(false), { strategy: 'longest' });
  assert.equal(s.hint, 'A much longer and concrete hint.');
  assert.equal(s.index, 1);
  assert.equal(s.eligible, 2);
  assert.equal(s.used, 'longest');
  assert.equal(s.fallback, null);
});

test('longest: minHintChars is a strict lower bound on hintLength: code points, a CJK character counting 3', () => {
  const exactlyTen = [{ score: 1, hint: '0123456789' }] as HintCandidate[];
  assert.equal(selectHint(exactlyTen, { strategy: 'longest' }).hint, null);
  assert.equal(selectHint(exactlyTen, { strategy: 'longest', minHintChars: 9 }).hint, '0123456789');
  const chinese = [{ score: 1, hint: '改成小写' }] as HintCandidate[]; // 4 characters, 12 by hintLength
  assert.equal(hintLength('改成小写'), 12);
  assert.equal(selectHint(chinese, { strategy: 'longest' }).hint, '改成小写');
  assert.equal(selectHint(chinese, { strategy: 'longest', minHintChars: 12 }).hint, null);
  assert.equal(hintLength('用中文'), 9); // under the default 10: dropped
  assert.equal(hintLength('ship it 🚀'), 9); // an emoji is one code point, not two UTF-16 units
  assert.equal(hintLength('カタカナ 한국어'), 22);
});

test('longest: no eligible candidate means no hint; ties go to the earliest vote', () => {
  const none = selectHint(
    [
      { score: -1, hint: 'a hint from a negative vote' },
      { score: 'fail', hint: null },
    ],
    { strategy: 'longest' },
  );
  assert.deepEqual([none.hint, none.index, none.eligible], [null, null, 0]);
  const tie = selectHint(
    [
      { score: 1, hint: 'Use tabs, please.' },
      { score: 1, hint: 'Use a list here.' },
      { score: 1, hint: 'Use spaces here.' },
    ],
    { strategy: 'longest' },
  );
  assert.equal(tie.index, 0);
});

test('overlapScore: teacher mass on the student top-k set, averaged over positions (hand-computed)', () => {
  assert.ok(Math.abs(overlapScore(teacherShortHint) - (0.6 + 0.9) / 2) < 1e-12);
  assert.ok(Math.abs(overlapScore(teacherLongHint) - (0.1 + 0.1) / 2) < 1e-12);
  assert.equal(overlapScore(teacherShortHint, 'count'), (1 / 2 + 2 / 2) / 2);
  assert.equal(overlapScore(teacherLongHint, 'count'), 1);
});

test('overlap: picks the highest overlap, even over a longer hint; reports the scores', () => {
  const s = selectHint(candidates(true), { strategy: 'overlap' });
  assert.equal(s.hint, 'Short hint.');
  assert.equal(s.used, 'overlap');
  assert.equal(s.fallback, null);
  assert.equal(s.overlapScores?.length, 5);
  assert.ok(Math.abs((s.overlapScores?.[0] ?? 0) - 0.75) < 1e-12);
  assert.ok(Math.abs((s.overlapScores?.[1] ?? 0) - 0.1) < 1e-12);
  assert.equal(s.overlapScores?.[2], null);
  // The 'count' metric sees full set agreement for the long hint and prefers it.
  assert.equal(selectHint(candidates(true), { strategy: 'overlap', overlapMetric: 'count' }).index, 1);
});

test('overlap: equal overlap goes to the longer hint', () => {
  const c: HintCandidate[] = [
    { score: 1, hint: 'Answer in French.', topK: teacherShortHint },
    { score: 1, hint: 'Answer in French, formally.', topK: teacherShortHint },
  ];
  assert.equal(selectHint(c, { strategy: 'overlap' }).index, 1);
});

test('overlap: falls back to longest when top-k data is missing or misaligned, and says so', () => {
  const c = candidates(true);
  c[1] = { ...c[1], topK: undefined };
  const s = selectHint(c, { strategy: 'overlap' });
  assert.equal(s.strategy, 'overlap');
  assert.equal(s.used, 'longest');
  assert.equal(s.hint, 'A much longer and concrete hint.');
  assert.match(s.fallback ?? '', /missing for candidate\(s\) 1/);
  assert.equal(s.overlapScores, null);

  const misaligned = candidates(true);
  misaligned[0] = { ...misaligned[0], topK: { student, teacher: teacherShortHint.teacher.slice(0, 1) } };
  assert.equal(selectHint(misaligned, { strategy: 'overlap' }).used, 'longest');
});

test('overlap: a single eligible candidate needs no top-k data', () => {
  const s = selectHint(
    [
      { score: 1, hint: 'Only one good hint.' },
      { score: -1, hint: null },
    ],
    { strategy: 'overlap' },
  );
  assert.deepEqual([s.hint, s.used, s.fallback], ['Only one good hint.', 'overlap', null]);
});
