// SIGKILL between forward_backward and optim_step, then restart: training continues from the
// saved state on a new model, no seq_id is reused with another payload (the fake answers 409 like
// SkyRL would), and every sample is trained exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinkerEngineFromConfig, STATE_FILE } from '../../src/engines/tinker/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { makeSample } from '../../src/samples/testdata/fixtures.ts';
import { Trainer } from '../../src/trainer/index.ts';
import { startFakeTinker } from '../support/fake-tinker.ts';
import { until } from '../gateway/expect.ts';
import { childConfig } from '../support/tinker-child-config.ts';


test('SIGKILL between forward_backward and optim_step: restart resumes from the saved state, no seq_id reused, no sample trained twice', async () => {
  const fake = await startFakeTinker();
  const out = mkdtempSync(join(tmpdir(), 'ocrl-tinker-kill-'));
  const seed = SampleStore.open(join(out, 'samples.sqlite'));
  seed.addSample(makeSample('s', 1, { policyVersion: 0 }));
  seed.addSample(makeSample('s', 2, { policyVersion: 0 }));
  seed.close();
  // The second optim_step never finishes: the child is killed while waiting for it.
  let optimSteps = 0;
  fake.handlers.set('/optim_step', () => (++optimSteps >= 2 && optimSteps < 1000 ? { type: 'try_again' } : { metrics: {} }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/tinker-train-child.ts', fake.url, out, '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.on('exit', r));
  try {
    await until(() => optimSteps >= 2, 30_000, `the second optim_step (child stderr: ${stderr})`);
    assert.equal(fake.paths().filter((p) => p === '/forward_backward').length, 2, 'killed after forward_backward');
    child.kill('SIGKILL');
    await exited;
    optimSteps = 1000;
    fake.handlers.delete('/optim_step');

    const state = JSON.parse(readFileSync(join(out, STATE_FILE), 'utf8'));
    assert.equal(state.version, 1);
    assert.match(state.weights_path, /^tinker:\/\/model-1\/weights\/step-000001/);

    const config = childConfig(fake.url, out);
    const store = SampleStore.open(join(out, 'samples.sqlite'));
    assert.equal(store.countReady(), 1, 'the killed step’s lease went back to ready');
    const engine = tinkerEngineFromConfig(config);
    const trainer = new Trainer({ engine, store, config });
    const seen = fake.requests.length;
    const m = await trainer.trainOnce();
    assert.equal(m?.policy_version, 2);
    assert.equal(store.countReady(), 0);
    const after = fake.requests.slice(seen).filter((r) => r.body.seq_id !== undefined || r.path === '/create_model');
    assert.deepEqual(after.map((r) => [r.path, r.body.model_id ?? null, r.body.seq_id ?? null]).slice(0, 4), [
      ['/create_model', null, null],
      ['/load_weights', 'model-2', 1],
      ['/forward_backward', 'model-2', 2],
      ['/optim_step', 'model-2', 3],
    ]);
    assert.equal(after[1].body.path, state.weights_path);
    assert.ok(!fake.requests.slice(seen).some((r) => r.body.model_id === 'model-1'), 'the old model is never replayed');
    // no 409 anywhere: each (model, seq_id) carried one payload
    const keys = new Map<string, string>();
    for (const r of fake.requests.filter((x) => x.body.seq_id !== undefined)) {
      const k = `${r.body.model_id}#${r.body.seq_id}`;
      assert.ok(!keys.has(k) || keys.get(k) === r.text, `seq_id ${k} reused with another payload`);
      keys.set(k, r.text);
    }
    // each sample's tokens reached an applied optim_step exactly once: step 1 on model-1, step 2 on model-2
    const applied = fake.requests.filter((r) => r.path === '/forward_backward' && (r.body.model_id === 'model-2' || r.body.seq_id === 1));
    const prompts = applied.map((r) => r.body.forward_backward_input.data[0].model_input.chunks[0].tokens.slice(0, 3).join(','));
    assert.deepEqual(prompts.sort(), ['1,2,1', '1,2,2']);
    store.close();
    await engine.close();
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await fake.close();
  }
});
