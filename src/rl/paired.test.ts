// The gate's paired decision: collapse cannot win it, healthy noise does not trip it, a real fall
// of liked answers does, and the teacher gap's bound works the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareLikelihood, compareTeacherGap, directionEstimate, shiftEstimate, surrogateGain } from './paired.ts';
import { holdoutMetric } from './holdout.ts';

/** A sample whose answer has `t` tokens at log-prob `serving` before and `candidate` after. */
const s = (reward: number, serving: number, candidate: number, t = 4) => ({
  reward,
  serving: Array(t).fill(serving),
  candidate: Array(t).fill(candidate),
});

test('shiftEstimate: mean and one-sided 97.5% t bounds', () => {
  const e = shiftEstimate([1, 2, 3, 4])!;
  assert.equal(e.mean, 2.5);
  // sd = 1.2910, t(0.975, 3) = 3.1824: half-width 2.0543
  assert.ok(Math.abs(e.high - 4.5543) < 1e-3 && Math.abs(e.low - 0.4457) < 1e-3, JSON.stringify(e));
  assert.deepEqual(shiftEstimate([0.5]), { n: 1, mean: 0.5, low: 0.5, high: 0.5 });
  assert.equal(shiftEstimate([]), null);
});

test('a collapse (every answer much less likely) is refused, though Σ reward·log-prob calls it progress', () => {
  // Early in a run most held-out answers are disliked: making everything unlikely raises the old metric.
  const scores = [...Array.from({ length: 12 }, (_, i) => s(-1, -1 - i * 0.01, -6)), s(1, -1, -6.5), s(1, -1.1, -6.2)];
  const before = holdoutMetric(
    'holdout_reward_logprob',
    scores.map((x) => ({ reward: x.reward, teacherLogprobs: null, logprobs: x.serving })),
  );
  const after = holdoutMetric(
    'holdout_reward_logprob',
    scores.map((x) => ({ reward: x.reward, teacherLogprobs: null, logprobs: x.candidate })),
  );
  assert.ok(after.value! > before.value!, 'the point metric improved');
  const v = compareLikelihood(scores, 0, 0.5);
  assert.equal(v.pass, false);
  assert.match(v.reason, /liked held-out answers became less likely/);
  // With no liked answer at all, the collapse rule still catches it.
  const onlyDisliked = compareLikelihood(
    scores.filter((x) => x.reward < 0),
    0,
    0.5,
  );
  assert.equal(onlyDisliked.pass, false);
  assert.match(onlyDisliked.reason, /collapse/);
});

test('healthy learning passes: disliked answers less likely, liked ones a little likelier, with noise', () => {
  const noise = (i: number) => ((i * 7919) % 13) / 100 - 0.06; // ±0.06, deterministic
  const scores = [
    ...Array.from({ length: 10 }, (_, i) => s(-1, -1.2, -1.45 + noise(i))),
    ...Array.from({ length: 10 }, (_, i) => s(1, -1.0, -0.95 + noise(i + 3))),
  ];
  const v = compareLikelihood(scores, 0, 0.5);
  assert.equal(v.pass, true, v.reason);
  // Noise around zero on liked answers: the bound covers it even with max_drop 0.
  const flat = Array.from({ length: 12 }, (_, i) => s(1, -1, -1 + noise(i)));
  assert.equal(compareLikelihood(flat, 0, 0.5).pass, true);
});

test('liked answers that clearly fell are refused; a fall inside max_drop is not', () => {
  const fell = Array.from({ length: 10 }, (_, i) => s(1, -1, -1.3 - (i % 3) * 0.02));
  assert.equal(compareLikelihood(fell, 0, 0.5).pass, false);
  assert.equal(compareLikelihood(fell, 0.4, 0.5).pass, true);
});

test('teacher gap: refused when it confidently widens, and a collapse is refused there too', () => {
  const withTeacher = (serving: number, candidate: number) => ({ ...s(0, serving, candidate), teacher: Array(4).fill(-0.5) });
  const wider = Array.from({ length: 8 }, (_, i) => withTeacher(-0.8, -1.2 - i * 0.01));
  assert.equal(compareTeacherGap(wider, 0, 5).pass, false);
  const closer = Array.from({ length: 8 }, (_, i) => withTeacher(-0.8, -0.6 - i * 0.01));
  assert.equal(compareTeacherGap(closer, 0, 0.5).pass, true);
  const collapsed = Array.from({ length: 8 }, () => withTeacher(-0.8, -7));
  assert.match(compareTeacherGap(collapsed, 10, 0.5).reason, /collapse/);
});

test('direction: liked answers falling against disliked ones since they were first scored is a bound below zero; healthy learning is not', () => {
  const item = (reward: number, change: number, jitter: number) => ({
    reward,
    anchor: [-2, -2],
    candidate: [-2 + change + jitter, -2 + change - jitter],
  });
  const jitters = [0.01, -0.02, 0.03, -0.01, 0.02, 0];
  // Inverted: liked answers down 0.3, disliked up 0.1.
  const backwards = directionEstimate([...jitters.map((j) => item(1, -0.3 + j, j)), ...jitters.map((j) => item(-1, 0.1 - j, j))])!;
  assert.ok(Math.abs(backwards.diff + 0.4) < 0.02, `${backwards.diff}`);
  assert.ok(backwards.high < -0.3, 'the upper bound is well below zero');
  // Healthy: both fall as the style shifts, disliked ones more.
  const healthy = directionEstimate([...jitters.map((j) => item(1, -0.2 + j, j)), ...jitters.map((j) => item(-1, -0.3 - j, j))])!;
  assert.ok(healthy.diff > 0 && healthy.high > 0);
  assert.equal(directionEstimate([item(1, 0, 0), item(-1, 0, 0), item(-1, 0, 0)]), null, 'one liked answer: no estimate');
});

test('surrogateGain: advantage × log-prob change per token, per answer; the sign says which way the step went', () => {
  const up = { advantages: [1, 1], before: [-2, -2], after: [-1.5, -1] }; // liked, made likelier: (0.5 + 1) / 2
  const down = { advantages: [-1, -1], before: [-1, -1], after: [-2, -2] }; // disliked, made rarer: 1
  const healthy = surrogateGain([up, down])!;
  assert.equal(healthy.n, 2);
  assert.equal(healthy.mean, (0.75 + 1) / 2);
  const inverted = surrogateGain([
    { ...up, after: [-2.5, -3] },
    { ...down, after: [-0.5, -0.5] },
  ])!;
  assert.ok(inverted.mean < 0);
  assert.equal(surrogateGain([{ advantages: [0, 0], before: [-1, -1], after: [-3, -3] }]), null, 'masked: no advantage, no gain');
  assert.equal(surrogateGain([{ advantages: [1], before: [-1], after: [-1, -2] }]), null, 'lengths that disagree are skipped');
});
