// The evaluation of a store built by hand, checked against values worked out outside the code
// (scipy for the t quantiles; the Wilson formula by hand). Interval ends agree to 1e-9: the t table is rounded there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SampleStore, SAMPLE_STORE_FILE, type Sample } from '../samples/index.ts';
import { makeSample, makeTurn } from '../../test/support/sample-fixtures.ts';
import { evaluate, evaluationOf, evaluationOfRun, formatEvaluation, type VersionEvaluation } from './index.ts';

const close = (a: number | null | undefined, b: number, eps = 1e-9) =>
  assert.ok(typeof a === 'number' && Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

let turn = 0;
function put(store: SampleStore, version: number, over: Partial<Sample>): string {
  const s = makeSample('s', turn++, { policyVersion: version, ...over });
  store.addSample(s);
  return s.id;
}

function dropTurn(store: SampleStore, version: number | null, reason: string): void {
  const t = makeTurn('d', turn++, { policyVersion: version ?? 0 });
  store.addPendingTurn(t);
  store.resolvePendingTurn(t, {
    kind: 'dropped',
    reason,
    info: version === null ? null : { mode: 'openclaw-combine', policy_version: version },
  });
}

/**
 * version 1: −1, −1, +1 (rl), an opd sample with a hint (reward 0), a no_signal drop (0), and an
 *            rl sample without a next state (no votes: not judged) → judged rewards −1 −1 +1 0 0.
 * version 2: +1 ×4 (rl), +1 opd+rl with hint, 0 opd with hint, −1 ×2 (one dropped stale later),
 *            +1 re-decided by feedback into a no_signal drop (→ 0), a no_signal turn drop (0) and a
 *            teacher_unavailable drop (not judged) → +1 ×5, 0 ×3, −1 ×2.
 * version 3: one +1.  Plus a turn drop from before drops carried a version.
 */
function handStore(dir: string): SampleStore {
  const store = SampleStore.open(join(dir, SAMPLE_STORE_FILE));
  put(store, 1, { reward: -1, votes: [-1, -1, 0] });
  put(store, 1, { reward: -1, votes: [-1, -1, -1] });
  put(store, 1, { reward: 1, votes: [1, 1, 1] });
  put(store, 1, { type: 'opd', reward: 0, votes: [1], hint: 'answer in one line' });
  dropTurn(store, 1, 'no_signal');
  put(store, 1, { reward: 0, lossMask: 0, votes: [] });
  for (let i = 0; i < 4; i++) put(store, 2, { reward: 1, votes: [1, 1, 0] });
  put(store, 2, { type: 'opd+rl', reward: 1, votes: [1], hint: 'use a list' });
  put(store, 2, { type: 'opd', reward: 0, votes: [1], hint: 'no markdown' });
  put(store, 2, { reward: -1, votes: [-1] });
  const stale = put(store, 2, { reward: -1, votes: [-1, 'fail'] });
  assert.ok(store.dropSample(stale, 'stale'));
  const redecided = put(store, 2, { reward: 1, votes: [1] });
  assert.ok(store.dropSample(redecided, 'no_signal'));
  dropTurn(store, 2, 'no_signal');
  dropTurn(store, 2, 'teacher_unavailable');
  put(store, 3, { reward: 1, votes: [1] });
  dropTurn(store, null, 'no_next_state');
  return store;
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ocrl-eval-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('per-version numbers of a hand-built store', (t) => {
  const store = handStore(tempDir(t));
  t.after(() => store.close());
  const e = evaluationOf(store, { servingVersion: 3, now: Date.UTC(2025, 0, 1) });
  assert.equal(e.object, 'evaluation');
  assert.equal(e.generated_at, '2025-01-01T00:00:00.000Z');
  assert.equal(e.serving_policy_version, 3);
  assert.deepEqual(e.intervals, { reward: 'student_t_95', rates: 'wilson_95' });
  assert.deepEqual(
    e.versions.map((v) => v.policy_version),
    [1, 2, 3],
  );
  assert.deepEqual(e.dropped_turns_without_version, { no_next_state: 1 });

  const [v1, v2, v3] = e.versions as [VersionEvaluation, VersionEvaluation, VersionEvaluation];
  assert.equal(v1.samples, 5);
  assert.equal(v1.judged_turns, 5);
  assert.equal(v1.unjudged_samples, 1);
  assert.deepEqual(v1.rewards, { positive: 1, zero: 2, negative: 2 });
  close(v1.reward.mean, -0.2);
  close(v1.reward.std, 0.8366600265340756);
  assert.equal(v1.reward.ci95!.low, -1, 'clipped at the lowest reward');
  close(v1.reward.ci95!.high, 0.8388506336835677);
  assert.deepEqual([v1.negative_rate.count, v1.negative_rate.n, v1.negative_rate.rate], [2, 5, 0.4]);
  close(v1.negative_rate.ci95!.low, 0.11762077423264783);
  close(v1.negative_rate.ci95!.high, 0.769275718723987);
  assert.deepEqual([v1.hint_rate.count, v1.hint_rate.n, v1.hint_rate.rate], [1, 5, 0.2]);
  close(v1.hint_rate.ci95!.low, 0.03622410863243014);
  close(v1.hint_rate.ci95!.high, 0.6244653702374747);
  assert.deepEqual(v1.sample_types, { rl: 4, opd: 1, 'opd+rl': 0 });
  assert.deepEqual(v1.dropped_samples, {});
  assert.deepEqual(v1.dropped_turns, { no_signal: 1 });

  assert.equal(v2.samples, 9);
  assert.equal(v2.judged_turns, 10);
  assert.equal(v2.unjudged_samples, 0);
  assert.deepEqual(v2.rewards, { positive: 5, zero: 3, negative: 2 });
  close(v2.reward.mean, 0.3);
  close(v2.reward.std, 0.8232726023485646);
  close(v2.reward.ci95!.low, -0.2889337415864865);
  close(v2.reward.ci95!.high, 0.8889337415864864);
  assert.deepEqual([v2.negative_rate.count, v2.negative_rate.n], [2, 10]);
  close(v2.negative_rate.ci95!.low, 0.05668215145437519);
  close(v2.negative_rate.ci95!.high, 0.5098375284633583);
  assert.deepEqual([v2.hint_rate.count, v2.hint_rate.n], [2, 10]);
  assert.deepEqual(v2.sample_types, { rl: 7, opd: 1, 'opd+rl': 1 });
  assert.deepEqual(v2.dropped_samples, { no_signal: 1, stale: 1 });
  assert.deepEqual(v2.dropped_turns, { no_signal: 1, teacher_unavailable: 1 });

  assert.equal(v3.judged_turns, 1);
  assert.deepEqual(v3.reward, { n: 1, mean: 1, std: null, ci95: null });
  assert.equal(v3.negative_rate.rate, 0);
  assert.equal(v3.negative_rate.ci95!.low, 0);
  close(v3.negative_rate.ci95!.high, 0.7934506856227626);
  assert.match(v3.first_sample_at!, /^\d{4}-\d\d-\d\dT/);
});

test('the same numbers from the run folder opened read-only, and as a table', (t) => {
  const dir = tempDir(t);
  handStore(dir).close();
  const e = evaluationOfRun(dir);
  assert.equal(e.serving_policy_version, null);
  close(e.versions[1].reward.mean, 0.3);
  const table = formatEvaluation(e).split('\n');
  assert.match(table[0], /^\| version \| judged \| reward mean \[95% CI\] \| −1 rate/);
  assert.equal(table[2], '| 1 | 5 | -0.200 [-1.00, 0.84] | 0.40 (2) [0.12, 0.77] | 0.20 (1) [0.04, 0.62] | 5 (4/1/0) | 1 | no_signal 1 |');
  assert.equal(
    table[3],
    '| 2 | 10 | 0.300 [-0.29, 0.89] | 0.20 (2) [0.06, 0.51] | 0.20 (2) [0.06, 0.51] | 9 (7/1/1) | 0 | no_signal 1, no_signal (sample) 1, stale (sample) 1, teacher_unavailable 1 |',
  );
  assert.equal(table[4], '| 3 | 1 | 1.000 | 0.00 (0) [0.00, 0.79] | 0.00 (0) [0.00, 0.79] | 1 (1/0/0) | 0 | – |');
  assert.ok(table.some((l) => l === 'Turn drops recorded without a version (older runs): no_next_state 1.'));
});

test('an empty tally is an empty list of versions', () => {
  const e = evaluate({ samples: [], turnDrops: [] }, { now: 0 });
  assert.deepEqual(e.versions, []);
  assert.match(formatEvaluation(e), /no samples yet/);
});
