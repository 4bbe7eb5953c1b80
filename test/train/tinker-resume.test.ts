// SIGKILL between forward_backward and optim_step, then restart, against the embedded Tinker
// server (a recorder in between holds the second optim_step in flight and checks the wire):
// training continues from the saved state on a new model, no seq_id is reused with another
// payload (the server answers 409 to that, as SkyRL does), and every sample is trained exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readTinkerCheckpoint, tinkerEngineFromConfig } from '../../src/engines/tinker/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { makeSample } from '../support/sample-fixtures.ts';
import { Trainer, planResume } from '../../src/trainer/index.ts';
import { startEmbeddedTinker } from '../support/embedded-tinker.ts';
import { startTinkerRecorder } from '../support/tinker-recorder.ts';
import { until } from '../gateway/expect.ts';
import { childConfig } from '../support/tinker-child-config.ts';
import { tempDir } from '../support/temp.ts';

test('SIGKILL between forward_backward and optim_step: restart resumes from the saved state, no seq_id reused, no sample trained twice', async () => {
  const tinker = await startEmbeddedTinker({ ctx: 64 });
  const wire = await startTinkerRecorder(tinker.url);
  const out = tempDir('ocrl-tinker-kill-');
  const seed = SampleStore.open(join(out, 'samples.sqlite'));
  seed.addSample(makeSample('s', 1, { policyVersion: 0 }));
  seed.addSample(makeSample('s', 2, { policyVersion: 0 }));
  seed.close();
  // The second optim_step never reaches the server: the child is killed while waiting for it.
  let optimSteps = 0;
  wire.hold = (path) => path === '/optim_step' && ++optimSteps >= 2;
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/tinker-train-child.ts', wire.url, out, '2', tinker.baseModel], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.on('exit', r));
  try {
    await until(() => optimSteps >= 2, 60_000, `the second optim_step (child stderr: ${stderr})`);
    const fbs = wire.requests.filter((r) => r.path === '/forward_backward');
    assert.equal(fbs.length, 2, 'killed after forward_backward');
    const oldModel = fbs[0].body.model_id;
    child.kill('SIGKILL');
    await exited;
    wire.hold = undefined;

    const config = childConfig(wire.url, out, tinker.baseModel);
    const store = SampleStore.open(join(out, 'samples.sqlite'));
    assert.equal(store.countReady(), 1, 'the killed step’s lease went back to ready');
    const plan = planResume(out, store, 'tinker');
    assert.equal(plan.step, 1);
    assert.equal(plan.version, 1);
    const state = readTinkerCheckpoint(plan.from!.dir)!;
    assert.equal(state.version, 1);
    assert.ok(String(state.weights_path).startsWith(`tinker://${oldModel}/weights/`), state.weights_path);
    const engine = tinkerEngineFromConfig(config, { resume: { dir: plan.from!.dir, version: plan.version } });
    assert.equal(engine.samplerPath(), state.sampler_path, 'serves the sampler saved with the training state');
    const trainer = new Trainer({ engine, store, config, startStep: plan.step });
    const seen = wire.requests.length;
    const m = await trainer.trainOnce();
    assert.equal(m?.policy_version, 2);
    assert.equal(m?.step, 2);
    assert.equal(store.countReady(), 0);
    const after = wire.requests.slice(seen).filter((r) => r.body.seq_id !== undefined || r.path === '/create_model');
    const newModel = after[1]?.body.model_id;
    assert.notEqual(newModel, oldModel, 'a new training model');
    assert.deepEqual(after.map((r) => [r.path, r.body.model_id ?? null, r.body.seq_id ?? null]).slice(0, 4), [
      ['/create_model', null, null],
      ['/load_weights', newModel, 1],
      ['/forward_backward', newModel, 2],
      ['/optim_step', newModel, 3],
    ]);
    assert.equal(after[1].body.path, state.weights_path);
    assert.ok(!wire.requests.slice(seen).some((r) => r.body.model_id === oldModel), 'the old model is never replayed');
    // The server accepted everything (no 409: each (model, seq_id) carried one payload).
    assert.deepEqual(
      // (GET / is the profile probe: a server without a root page answers 404)
      wire.requests.filter((r) => r.status !== undefined && r.status !== 200 && r.path !== '/').map((r) => [r.path, r.status]),
      [],
    );
    const keys = new Map<string, string>();
    for (const r of wire.requests.filter((x) => x.body.seq_id !== undefined)) {
      const k = `${r.body.model_id}#${r.body.seq_id}`;
      assert.ok(!keys.has(k) || keys.get(k) === r.text, `seq_id ${k} reused with another payload`);
      keys.set(k, r.text);
    }
    // Each sample's tokens reached an applied optim_step exactly once: step 1 on the old model
    // (its first forward_backward), step 2 on the new one.
    const applied = [fbs[0], ...wire.requests.filter((r) => r.path === '/forward_backward' && r.body.model_id === newModel)];
    const prompts = applied.map((r) => r.body.forward_backward_input.data[0].model_input.chunks[0].tokens.slice(0, 3).join(','));
    assert.deepEqual(prompts.sort(), ['1,2,1', '1,2,2']);
    store.close();
    await engine.close();
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await wire.close();
    await tinker.close();
  }
});
