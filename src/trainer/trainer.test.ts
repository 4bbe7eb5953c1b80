import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../config/index.ts';
import type { PolicyEngine, TrainOptions, TrainSample, TrainStepMetrics } from '../engines/types.ts';
import { SampleStore } from '../samples/index.ts';
import { makeSample } from '../../test/support/sample-fixtures.ts';
import { Trainer, planResume, toTrainSamples } from './index.ts';
import { tempDir } from '../../test/support/temp.ts';

/** A PolicyEngine that records what it was asked to train and can be told to fail. */
class RecordingEngine implements PolicyEngine {
  readonly kind = 'recording';
  v = 0;
  batches: TrainSample[][] = [];
  opts: TrainOptions[] = [];
  saved: string[] = [];
  failNext = false;
  version() {
    return this.v;
  }
  async generate(): Promise<never> {
    throw new Error('not used');
  }
  async score(): Promise<never> {
    throw new Error('not used');
  }
  async trainStep(samples: TrainSample[], opts: TrainOptions): Promise<TrainStepMetrics> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('engine exploded');
    }
    this.batches.push(samples);
    this.opts.push(opts);
    return {
      pg_loss: -0.5,
      pg_clipfrac: 0.1,
      ppo_kl: 0.01,
      entropy: 1.2,
      kl_loss: 0,
      grad_norm: 0.3,
      train_rollout_logprob_abs_diff: 0.002,
      tokens: samples.reduce((n, s) => n + s.responseIds.length, 0),
    };
  }
  async publish() {
    return ++this.v;
  }
  async save(dir: string) {
    this.saved.push(dir);
  }
  async close() {}
}

function setup(overrides: Record<string, unknown> = {}) {
  const dir = tempDir('ocrl-trainer-');
  const config = parseConfig(
    {},
    { env: {}, overrides: { output_dir: dir, 'training.batch_size': 2, mode: 'openclaw-combine', ...overrides } },
  );
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  const engine = new RecordingEngine();
  return { dir, config, store, engine, trainer: new Trainer({ engine, store, config }) };
}

test('advantages per mode: combine adds w_opd·(teacher − old) and w_rl·r; masked samples are not trained', () => {
  const { config } = setup({ 'training.w_opd': 0.5, 'training.w_rl': 2 });
  const samples = [
    {
      ...makeSample('a', 1, { reward: 1, teacherLogprobs: [-0.25, -1, -0.25], rolloutLogprobs: [-0.5, -1, -1.25], type: 'opd+rl' }),
      state: 'leased',
      dropReason: null,
      leaseId: 'x',
      leaseCount: 1,
    },
    { ...makeSample('a', 2, { reward: -1 }), state: 'leased', dropReason: null, leaseId: 'x', leaseCount: 1 },
    { ...makeSample('a', 3, { lossMask: 0, reward: 0 }), state: 'leased', dropReason: null, leaseId: 'x', leaseCount: 1 },
  ] as any;
  const { train, advantages } = toTrainSamples(samples, config);
  assert.equal(train.length, 2);
  // 0.5·(−0.25 − −0.5) + 2·1 = 2.125 ; 0.5·0 + 2 = 2 ; 0.5·1 + 2 = 2.5
  assert.deepEqual(train[0].advantages, [2.125, 2, 2.5]);
  assert.deepEqual(train[1].advantages, [-2, -2, -2]);
  assert.deepEqual(Array.from(advantages[2]), [0, 0, 0]);
});

test('an SGLang teacher (log-probs at T = 1) with rollouts at T = 0.8: the teacher term compares with the policy rescored at T = 1', async () => {
  const teacherAt1 = { 'teacher.provider': 'openai_compatible', 'teacher.logprob_api': 'sglang', 'teacher.base_url': 'http://127.0.0.1:9' };
  const { store, engine, trainer } = setup({ ...teacherAt1, 'rollout.temperature': 0.8, 'training.batch_size': 2 });
  const asked: Array<{ temperature: number; responseIds: number[] }> = [];
  Object.assign(engine, {
    scoreTrained: async (r: { temperature: number; responseIds: number[] }) => {
      asked.push({ temperature: r.temperature, responseIds: r.responseIds });
      return { logprobs: [-2, -2, -2] };
    },
  });
  store.addSample(
    makeSample('t', 1, { policyVersion: 0, reward: 1, teacherLogprobs: [-1, -3, -2], rolloutLogprobs: [-0.5, -0.5, -0.5], type: 'opd+rl' }),
  );
  store.addSample(makeSample('t', 2, { policyVersion: 0, reward: -1, rolloutLogprobs: [-0.5, -0.5, -0.5] }));
  await trainer.trainOnce();
  // Only the sample with teacher log-probs is rescored, at the teacher's temperature.
  assert.deepEqual(asked, [{ temperature: 1, responseIds: [7, 8, 9] }]);
  const trained = engine.batches[0].map((s) => s.advantages);
  // combine: w_opd·(teacher − rescored) + w_rl·r after reward normalisation (r = ±1 → ±1).
  assert.deepEqual(trained, [
    [2, 0, 1],
    [-1, -1, -1],
  ]);
  // The PPO ratio still uses what the rollout recorded.
  assert.deepEqual(engine.batches[0][0].rolloutLogprobs, [-0.5, -0.5, -0.5]);
});

test('with the embedded teacher (same temperature as the rollout) nothing is rescored', async () => {
  const { store, engine, trainer } = setup({ 'rollout.temperature': 0.8 });
  store.addSample(
    makeSample('e', 1, { policyVersion: 0, reward: 1, teacherLogprobs: [-1, -3, -2], rolloutLogprobs: [-0.5, -0.5, -0.5], type: 'opd+rl' }),
  );
  store.addSample(makeSample('e', 2, { policyVersion: 0, reward: -1 }));
  await trainer.trainOnce(); // RecordingEngine.score throws if called
  assert.deepEqual(engine.batches[0][0].advantages, [0.5, -1.5, -0.5]); // teacher − rollout + r
});

test('a step trains the oldest batch, publishes, marks it trained and logs every metric key', async () => {
  const { store, engine, trainer, dir } = setup();
  for (let t = 1; t <= 3; t++) store.addSample(makeSample('s', t, { policyVersion: 0, reward: t === 2 ? -1 : 1 }));
  const m = await trainer.trainOnce();
  assert.ok(m);
  assert.equal(engine.v, 1);
  assert.equal(engine.batches[0].length, 2);
  assert.equal(engine.opts[0].loss.clipRatioHigh, 0.28);
  assert.equal(store.counts().trained, 2);
  assert.equal(store.countReady(), 1, 'the rest of the ready samples stays for the next batch');
  assert.equal(m.policy_version, 1);
  assert.equal(m.reward_mean, 0);
  assert.equal(m.advantage_mean, 0);
  assert.equal(m.advantage_std, 1);
  const line = readFileSync(join(dir, 'logs', 'train.log'), 'utf8').trim();
  for (const key of [
    'step=1',
    'advantage_mean=',
    'advantage_std=',
    'effective_sample_rate=1',
    'hint_accept_rate=',
    'reward_mean=',
    'pg_loss=-0.5000',
    'pg_clipfrac=',
    'ppo_kl=',
    'entropy=',
    'kl_loss=',
    'staleness_mean=0',
    'train_rollout_logprob_abs_diff=',
    'step_time_s=',
  ]) {
    assert.ok(line.includes(key), `train.log line lacks ${key}: ${line}`);
  }
  const json = JSON.parse(readFileSync(join(dir, 'logs', 'metrics.jsonl'), 'utf8').trim());
  assert.equal(json.step, 1);
  assert.equal(json.pg_loss, -0.5);
});

test('stale samples are dropped and counted, never trained', async () => {
  const { store, engine, trainer } = setup({ 'training.max_staleness': 1 });
  engine.v = 5;
  store.addSample(makeSample('s', 1, { policyVersion: 2 }));
  store.addSample(makeSample('s', 2, { policyVersion: 4 }));
  store.addSample(makeSample('s', 3, { policyVersion: 5 }));
  const m = await trainer.trainOnce();
  assert.equal(m!.stale_dropped, 1);
  assert.equal(m!.staleness_mean, 0.5);
  assert.equal(store.dropsByReason().stale, 1);
});

test('a failed step returns the batch to ready; a later step trains it', async () => {
  const { store, engine, trainer } = setup();
  store.addSample(makeSample('s', 1, { policyVersion: 0 }));
  store.addSample(makeSample('s', 2, { policyVersion: 0 }));
  engine.failNext = true;
  await assert.rejects(trainer.trainOnce(), /engine exploded/);
  assert.equal(store.countReady(), 2);
  assert.equal(engine.v, 0);
  await trainer.trainOnce();
  assert.equal(store.counts().trained, 2);
});

test('a step that fails after the engine applied its update keeps the batch trained: it is never trained twice', async () => {
  const { store, engine, trainer } = setup({
    mode: 'openclaw-rl',
    'evaluation.holdout_fraction': 1e-9,
    'evaluation.gate': { min_samples: 1 },
  });
  // The gate's check of the trained weights fails (a lost server, say) after trainStep succeeded.
  let scored = 0;
  Object.assign(engine, {
    scoreTrained: async () => {
      if (++scored > 1) throw new Error('scoring server went away');
      return { logprobs: [-1], version: engine.v };
    },
  });
  store.addSample(makeSample('h', 1, { policyVersion: 0, reward: 1, responseIds: [5], rolloutLogprobs: [-1] }));
  store.reserveHoldout(() => true);
  store.addSample(makeSample('s', 1, { policyVersion: 0 }));
  store.addSample(makeSample('s', 2, { policyVersion: 0 }));
  await assert.rejects(trainer.trainOnce(), /scoring server went away/);
  assert.equal(engine.batches.length, 1, 'the update was applied once');
  assert.equal(store.countReady(), 0, 'not returned to ready');
  assert.equal(store.counts().trained, 2);
  assert.equal(engine.v, 0, 'nothing published');
  assert.equal(await trainer.trainOnce(), undefined, 'nothing left to train');
  assert.equal(engine.batches.length, 1);
});

test('the background loop trains when a batch fills, checkpoints every save_interval, and stops cleanly', async () => {
  const { store, engine, config, dir } = setup({ 'training.save_interval': 2 });
  const steps: number[] = [];
  const trainer = new Trainer({ engine, store, config, pollMs: 20, onStep: (m) => steps.push(m.step) });
  trainer.start();
  for (let t = 1; t <= 4; t++) {
    store.addSample(makeSample('loop', t, { policyVersion: 0 }));
    trainer.notify();
  }
  const deadline = Date.now() + 5000;
  while (steps.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await trainer.stop();
  assert.deepEqual(steps, [1, 2]);
  assert.equal(engine.v, 2);
  // Built under a temporary name, published by one rename once trainer.json is in.
  assert.ok(engine.saved[0].endsWith(join('checkpoints', 'step-000002.partial')));
  const manifest = JSON.parse(readFileSync(join(dir, 'checkpoints', 'step-000002', 'trainer.json'), 'utf8'));
  assert.deepEqual([manifest.step, manifest.policy_version, manifest.engine], [2, 2, 'recording']);
  assert.ok(!existsSync(join(dir, 'checkpoints', 'step-000002.partial')));
  assert.equal(engine.saved.length, 1, 'stop saves nothing more: step 2 is already on disk');
  assert.ok(existsSync(join(dir, 'logs', 'train.log')));
});

test('a step whose batch cannot be accounted for trains nothing, publishes nothing, logs nothing; the next good step clears last_error', async () => {
  const { store, engine, config, dir } = setup();
  const trainer = new Trainer({ engine, store, config, pollMs: 10 });
  // A sample from a version the engine never served: batch stats refuse it.
  store.addSample(makeSample('s', 1, { policyVersion: 1 }));
  store.addSample(makeSample('s', 2, { policyVersion: 0 }));
  await assert.rejects(trainer.trainOnce(), /newer than the current version/);
  assert.equal(engine.batches.length, 0, 'nothing trained');
  assert.equal(engine.v, 0, 'nothing published');
  assert.equal(trainer.step, 0);
  assert.equal(store.countReady(), 2, 'the batch is ready again');
  assert.ok(!existsSync(join(dir, 'logs', 'train.log')), 'no log line');
  engine.v = 1; // the version the sample came from is now served
  trainer.lastError = 'training step failed earlier';
  trainer.start();
  const deadline = Date.now() + 5000;
  while (trainer.step < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await trainer.stop();
  assert.equal(trainer.step, 1);
  assert.equal(trainer.lastError, undefined, 'a good step clears last_error');
  assert.equal(
    readFileSync(join(dir, 'logs', 'train.log'), 'utf8')
      .trim()
      .split('\n').length,
    1,
  );
});

test('resume: steps continue from the checkpoint, samples of lost steps return to ready, their log lines move aside, versions never go back', async () => {
  const { store, engine, config, dir } = setup({ 'training.save_interval': 2 });
  const trainer = new Trainer({ engine, store, config });
  for (let t = 1; t <= 6; t++) store.addSample(makeSample('r', t, { policyVersion: 0 }));
  await trainer.trainOnce(); // step 1, v1
  await trainer.trainOnce(); // step 2, v2, checkpoint
  store.addSample(makeSample('r', 7, { policyVersion: 2 }));
  await trainer.trainOnce(); // step 3, v3: "crash" before its checkpoint
  store.addSample(makeSample('r', 8, { policyVersion: 3 }));
  assert.equal(store.counts().trained, 6);
  const plan = planResume(dir, store, 'recording');
  assert.equal(plan.from?.dir, join(dir, 'checkpoints', 'step-000002'));
  assert.equal(plan.step, 2);
  assert.equal(plan.requeued, 2, 'the two samples of step 3 are ready again');
  assert.equal(plan.discardedSteps, 1);
  assert.equal(plan.version, 4, 'a turn was answered by the lost version 3: the restored weights serve as 4');
  const logged = readFileSync(join(dir, 'logs', 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).step);
  assert.deepEqual(logged, [1, 2]);
  assert.match(readFileSync(join(dir, 'logs', 'discarded-steps.jsonl'), 'utf8'), /"step":3/);
  assert.doesNotMatch(readFileSync(join(dir, 'logs', 'train.log'), 'utf8'), /step=3 /);

  const resumedEngine = new RecordingEngine();
  resumedEngine.v = plan.version;
  const resumed = new Trainer({ engine: resumedEngine, store, config, startStep: plan.step });
  const m = await resumed.trainOnce();
  assert.equal(m?.step, 3);
  assert.equal(m?.policy_version, 5);
  await resumed.trainOnce(); // step 4: checkpoint
  assert.ok(existsSync(join(dir, 'checkpoints', 'step-000004', 'trainer.json')));
  const before = readFileSync(join(dir, 'checkpoints', 'step-000002', 'trainer.json'), 'utf8');
  await resumed.stop();
  assert.equal(
    readFileSync(join(dir, 'checkpoints', 'step-000002', 'trainer.json'), 'utf8'),
    before,
    'an older checkpoint is never rewritten',
  );
});

test('a step whose publish fails after the update keeps the batch trained, unpublished, and counts no step', async () => {
  const { store, engine, trainer, dir } = setup();
  store.addSample(makeSample('p', 1, { policyVersion: 0 }));
  store.addSample(makeSample('p', 2, { policyVersion: 0 }));
  let failPublish = true;
  const publish = engine.publish.bind(engine);
  engine.publish = async () => {
    if (failPublish) {
      failPublish = false;
      throw new Error('publish refused');
    }
    return publish();
  };
  await assert.rejects(trainer.trainOnce(), /publish refused/);
  assert.equal(engine.batches.length, 1);
  assert.equal(store.countReady(), 0, 'not returned to ready: the training weights hold it');
  assert.equal(store.counts().trained, 2);
  assert.equal(engine.v, 0, 'nothing published');
  assert.equal(trainer.step, 0, 'the step did not count');
  assert.ok(!existsSync(join(dir, 'logs', 'train.log')), 'no log line');
});

test('a step that fails after its version serves keeps the step: the batch stays trained and the error is reported as thrown', async () => {
  const { store, engine, config } = setup();
  const boom = new Error('dashboard went away');
  const trainer = new Trainer({
    engine,
    store,
    config,
    onStep: () => {
      throw boom;
    },
  });
  store.addSample(makeSample('k', 1, { policyVersion: 0 }));
  store.addSample(makeSample('k', 2, { policyVersion: 0 }));
  await assert.rejects(trainer.trainOnce(), (err) => err === boom);
  assert.equal(engine.v, 1, 'published');
  assert.equal(trainer.step, 1, 'the step counts');
  assert.equal(store.counts().trained, 2);
  assert.equal(store.countReady(), 0);
  assert.equal(await trainer.trainOnce(), undefined, 'nothing left to train');
});
