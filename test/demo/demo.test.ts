// A short demo run (tiny model, small batches): the pipeline produced samples, trained, and
// published new versions, and the demo printed its table and paths. Whether the rating improves
// is the learning benchmark's job, not this test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runDemo } from '../../src/demo/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';

/** A 2-step demo on a tiny checkpoint (batches of 4); returns the result, its folder and what it printed. */
async function shortDemo(engine: 'embedded' | 'tinker') {
  const checkpoint = await tinyCheckpoint(1024);
  const outputDir = tempDir(`ocrl-demo-${engine}-`);
  const out = new PassThrough();
  let printed = '';
  out.on('data', (d) => (printed += d));
  const r = await runDemo({
    mode: 'openclaw-combine',
    persona: 'no-markdown',
    steps: 2,
    seed: 3,
    evalSamples: 4,
    outputDir,
    out,
    engine,
    overrides: { 'rollout.checkpoint': checkpoint, 'training.batch_size': 4, 'rollout.max_tokens': 16, 'training.epochs': 1 },
  });
  return { r, outputDir, printed };
}

test('demo: episodes → samples → 2 training steps → new versions, table and paths printed', async () => {
  const { r, outputDir, printed } = await shortDemo('embedded');
  assert.deepEqual(Object.keys(r.ratings).map(Number).sort(), [0, 1, 2]);
  for (const v of Object.values(r.ratings)) assert.ok(v >= 0 && v <= 1);
  assert.ok(r.episodes >= 2);
  assert.ok(r.hintAcceptRate >= 0 && r.hintAcceptRate <= 1, `hint accept rate ${r.hintAcceptRate}`);
  const lines = readFileSync(join(outputDir, 'logs', 'train.log'), 'utf8')
    .trim()
    .split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[1], /step=2 policy_version=2 /);
  const store = SampleStore.open(join(outputDir, 'samples.sqlite'), { recoverLeases: false });
  try {
    assert.ok(store.counts().trained >= 8, 'two batches of 4 were trained');
  } finally {
    store.close();
  }
  assert.match(printed, /\| persona \| method \| Base \| 1 step \| Updated \(2 steps\) \|/);
  assert.match(printed, /\| no-markdown \| openclaw-combine \| \d\.\d\d \| \d\.\d\d \| \d\.\d\d \|/);
  assert.match(printed, /logs: +.*train\.log/);
  // The live evaluation per version, next to the rating, and whether they moved the same way.
  assert.match(printed, /Judged turns per policy version/);
  // Two steps may leave only v0 with judged turns; then the line says so instead of a direction.
  assert.match(
    printed,
    /live reward( v0 → v\d+: -?\d\.\d\d → -?\d\.\d\d; held-out rating \d\.\d\d → \d\.\d\d: (same|different) direction|: only v0 answered judged turns yet)/,
  );
  assert.ok(existsSync(join(outputDir, 'records', 'turns.jsonl')));
  assert.ok(existsSync(join(outputDir, 'checkpoints')), 'the updated policy is checkpointed at the end');
});

test('demo --engine tinker: the same loop through the Tinker API on an embedded Tinker server, same table', async () => {
  const { r, outputDir, printed } = await shortDemo('tinker');
  assert.deepEqual(Object.keys(r.ratings).map(Number).sort(), [0, 1, 2]);
  assert.match(printed, /trained through the Tinker API/);
  assert.match(printed, /tinker: embedded Tinker server at http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
  const lines = readFileSync(join(outputDir, 'logs', 'train.log'), 'utf8')
    .trim()
    .split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[1], /step=2 policy_version=2 /);
  // The policy that answered was the Tinker sampler: two sampler snapshots were saved by the server.
  const state = JSON.parse(readFileSync(join(outputDir, 'checkpoints', 'step-000002', 'tinker.json'), 'utf8'));
  assert.equal(state.version, 2);
  assert.match(state.sampler_path, /^tinker:\/\/[^/]+\/sampler_weights\//);
  assert.ok(existsSync(join(outputDir, 'tinker-state')), 'the Tinker server saved under the run folder');
  assert.match(printed, /\| no-markdown \| openclaw-combine \| \d\.\d\d \| \d\.\d\d \| \d\.\d\d \|/);
  assert.match(printed, /weights: +.*tinker-state/);
});
