import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { applyFeedback, feedbackVote, parseFeedbackBody, signalsOfSample, withGradedReward, type FeedbackContext } from './feedback.ts';
import type { Sample } from '../samples/index.ts';

const ctx = (over: Partial<FeedbackContext> = {}): FeedbackContext => ({
  mode: 'openclaw-combine',
  policy: 'override',
  quorum: 1,
  minHintChars: 10,
  ...over,
});
const fb = (score: number, comment: string | null = null) => ({ score, comment, at: 0 });

test('parseFeedbackBody: thumbs, graded scores, trimmed comments', () => {
  assert.deepEqual(parseFeedbackBody({ session_id: 's', score: 'up' }), { sessionId: 's', turnId: undefined, score: 1, comment: null });
  assert.deepEqual(parseFeedbackBody({ session_id: 's', turn_id: 3, score: -0.25, comment: '  use SI units  ' }), {
    sessionId: 's',
    turnId: 3,
    score: -0.25,
    comment: 'use SI units',
  });
  assert.equal(parseFeedbackBody({ session_id: 's', score: 'down', comment: '   ' }).comment, null);
});

test('parseFeedbackBody: each bad field is named in the 400', () => {
  const param = (body: unknown) => {
    try {
      parseFeedbackBody(body);
    } catch (err) {
      assert.ok(err instanceof OpenClawError);
      assert.equal(err.status, 400);
      return err.param;
    }
    assert.fail('expected a 400');
  };
  assert.equal(param({ session_id: 's', score: 1.5 }), 'score');
  assert.equal(param({ session_id: 's', score: 'meh' }), 'score');
  assert.equal(param({ session_id: 's' }), 'score');
  assert.equal(param({ session_id: '', score: 1 }), 'session_id');
  assert.equal(param({ session_id: 's', score: 1, turn_id: 0 }), 'turn_id');
  assert.equal(param({ session_id: 's', score: 1, turn_id: 1.5 }), 'turn_id');
  assert.equal(param({ session_id: 's', score: 1, comment: 7 }), 'comment');
  assert.equal(param([1, 2]), null);
});

test('override: the feedback sign is the score, appended as a vote; a long comment is the hint', () => {
  const signals = {
    prm: { score: -1 as const, votes: [-1, -1, 0] as const },
    hint: { hint: 'a judge hint that is long', votes: [1, 1, -1] as const },
  };
  const out = applyFeedback(
    { prm: { ...signals.prm, votes: [...signals.prm.votes] }, hint: { ...signals.hint, votes: [...signals.hint.votes] } },
    fb(0.5, 'use the metric system instead of miles'),
    ctx(),
  );
  assert.deepEqual(out.prm, { score: 1, votes: [-1, -1, 0, 1] });
  assert.deepEqual(out.hint, { hint: 'use the metric system instead of miles', votes: [1, 1, -1, 1] });
});

test('join: the feedback sign is one more vote; the longer of comment and judge hint wins', () => {
  const out = applyFeedback(
    { prm: { score: -1, votes: [-1, 1, 'fail'] }, hint: { hint: 'a considerably longer hint from the judge model', votes: [1] } },
    fb(1, 'short but > 10 chars'),
    ctx({ policy: 'join' }),
  );
  assert.deepEqual(out.prm, { score: 1, votes: [-1, 1, 'fail', 1] }, '[-1, 1, 1] → 1');
  assert.equal(out.hint?.hint, 'a considerably longer hint from the judge model');
  const tie = applyFeedback({ prm: { score: 1, votes: [1] } }, fb(-1), ctx({ policy: 'join' }));
  assert.deepEqual(tie.prm, { score: 0, votes: [1, -1] }, 'a tie is 0');
});

test('comments are hints only in OPD modes and only above min_hint_chars', () => {
  assert.equal(applyFeedback({}, fb(1, 'a long enough comment'), ctx({ mode: 'openclaw-rl' })).hint, null);
  assert.equal(applyFeedback({}, fb(1, 'too short'), ctx()).hint, null);
  // A CJK character counts 3 toward min_hint_chars: a 4-character Chinese instruction is a hint.
  assert.deepEqual(applyFeedback({}, fb(1, '改成小写'), ctx({ mode: 'openclaw-opd' })).hint, { hint: '改成小写', votes: [1] });
  assert.deepEqual(applyFeedback({}, fb(1, 'a long enough comment'), ctx({ mode: 'openclaw-opd' })).hint, {
    hint: 'a long enough comment',
    votes: [1],
  });
  assert.equal(feedbackVote(-0.01), -1);
  assert.equal(feedbackVote(0), 0);
});

test('graded reward under override only, and never on pure opd samples', () => {
  const sample = (type: Sample['type']): Sample => ({
    id: 's:1',
    sessionId: 's',
    turnId: 1,
    policyVersion: 0,
    promptIds: [1],
    responseIds: [2],
    rolloutLogprobs: [-0.1],
    lossMask: 1,
    reward: 1,
    teacherLogprobs: null,
    teacherTopK: null,
    type,
    votes: [1],
    hint: null,
    createdAt: 0,
  });
  const d = (type: Sample['type']) => ({ kind: 'sample' as const, sample: sample(type), judged: true, promoted: false });
  const graded = withGradedReward(d('rl'), fb(0.25), 'override');
  assert.equal(graded.kind === 'sample' && graded.sample.reward, 0.25);
  const joined = withGradedReward(d('rl'), fb(0.25), 'join');
  assert.equal(joined.kind === 'sample' && joined.sample.reward, 1);
  const opd = withGradedReward(d('opd'), fb(0.25), 'override');
  assert.equal(opd.kind === 'sample' && opd.sample.reward, 1);
  assert.deepEqual(signalsOfSample({ ...sample('opd+rl'), reward: -1, hint: 'h', teacherLogprobs: [-0.5] }), {
    prm: { score: -1, votes: [1] },
    hint: { hint: 'h', votes: [] },
    teacher: { logprobs: [-0.5], topK: null },
  });
});
