// A lockstep learning run repeats: the same tree, seed and options give the same ratings, the same
// answers in the store, and the same training numbers step by step (bench:learning's
// BENCH_DETERMINISTIC=1 relies on it to compare two versions of the judge or the trainer).
// A tiny random model, batches of 4, answers of up to 16 tokens: a few seconds per run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { learn } from '../../src/demo/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import type { StepMetrics } from '../../src/trainer/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';

/** What must repeat: ratings, every stored sample (its answer's tokens and log-probs included) and each step's numbers. */
async function lockstepRun(checkpoint: string, seed: number) {
  const steps: StepMetrics[] = [];
  const r = await learn({
    mode: 'openclaw-combine',
    persona: 'lowercase',
    steps: 2,
    evalSamples: 4,
    seed,
    lockstep: true,
    outputDir: tempDir('ocrl-lockstep-'),
    overrides: { 'rollout.checkpoint': checkpoint, 'training.batch_size': 4, 'rollout.max_tokens': 16, 'training.epochs': 1 },
    onProgress: (e) => {
      if (e.kind === 'step') steps.push(e.metrics);
    },
  });
  const store = SampleStore.open(join(r.outputDir, 'samples.sqlite'), { recoverLeases: false });
  try {
    // Stored in the order judging finished (not fixed with two episodes at once): compared by turn.
    const byTurn = store
      .listSamples({ limit: 10_000 })
      .sort((x, y) => x.sessionId.localeCompare(y.sessionId) || x.turnId - y.turnId || x.id.localeCompare(y.id));
    const samples = byTurn.map((s) => ({
      session: s.sessionId,
      turn: s.turnId,
      version: s.policyVersion,
      response: s.responseIds,
      logprobs: s.rolloutLogprobs,
      teacher: s.teacherLogprobs,
      reward: s.reward,
      hint: s.hint,
      state: s.state,
    }));
    // Wall-clock numbers are the only ones allowed to differ.
    const numbers = steps.map(({ step_time_s: _t, ...m }) => m);
    return { ratings: r.ratings, episodes: r.episodes, samples, numbers };
  } finally {
    store.close();
  }
}

test('lockstep: two runs with the same seed give the same ratings, samples and step numbers', async () => {
  const checkpoint = await tinyCheckpoint(1024);
  const a = await lockstepRun(checkpoint, 5);
  const b = await lockstepRun(checkpoint, 5);
  assert.equal(a.numbers.length, 2, 'two steps were trained');
  assert.ok(a.samples.length >= 8, `two batches of 4 came from the store (${a.samples.length} samples)`);
  // Sampled, not fixed: the episodes' answers differ from each other (the model is random, temperature 1).
  assert.ok(new Set(a.samples.map((s) => s.response.join())).size > a.samples.length / 2, 'answers vary across turns');
  assert.deepEqual(b.ratings, a.ratings);
  assert.equal(b.episodes, a.episodes);
  assert.deepEqual(b.samples, a.samples);
  assert.deepEqual(b.numbers, a.numbers);
});
