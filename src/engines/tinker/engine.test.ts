import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../config/index.ts';
import { ppoBatchLoss } from '../../rl/index.ts';
import { SampleStore } from '../../samples/index.ts';
import { makeSample } from '../../../test/support/sample-fixtures.ts';
import { Trainer, trainOptionsFrom } from '../../trainer/index.ts';
import { startFakeTinker, type FakeTinker } from '../../../test/support/fake-tinker.ts';
import type { TrainSample } from '../types.ts';
import { TinkerClient } from './client.ts';
import { TinkerEngine } from './engine.ts';
import { NEGATIVE_SAMPLE, TRAIN_OPTS } from '../../../test/fixtures/tinker/train.ts';
import { readTinkerCheckpoint } from './state.ts';
import { tempDir } from '../../../test/support/temp.ts';

const tmp = () => tempDir('tinker-engine-');
const samples: TrainSample[] = [
  { promptIds: [1, 2, 3], responseIds: [4, 5], rolloutLogprobs: [-0.5, -1], advantages: [1, 1], lossMask: [1, 1] },
  NEGATIVE_SAMPLE,
];

function engineOn(fake: FakeTinker, dir: string, extra: Partial<ConstructorParameters<typeof TinkerEngine>[0]> = {}) {
  const client = new TinkerClient({ baseUrl: fake.url, stateDir: dir, pollIntervalMs: 5 });
  return new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: dir, ...extra });
}

/** Runs `fn` with an engine on a fresh fake server and output dir, closing both after. */
async function withEngine(
  fn: (engine: TinkerEngine, fake: FakeTinker) => Promise<void>,
  fakeOpts: Parameters<typeof startFakeTinker>[0] = {},
): Promise<void> {
  const fake = await startFakeTinker(fakeOpts);
  const engine = engineOn(fake, tmp());
  try {
    await fn(engine, fake);
  } finally {
    await engine.close();
    await fake.close();
  }
}

test('a step: forward_backward then optim_step (AdamW from training.*), then publish swaps the sampler path', async () => {
  const fake = await startFakeTinker({ learnerShift: 0.3 });
  const dir = tmp();
  const engine = engineOn(fake, dir);
  try {
    const before = await engine.generate({ promptIds: [1, 2], maxTokens: 16, temperature: 1, stopTokenIds: [2] });
    assert.deepEqual(before, { tokenIds: [7, 8, 2], logprobs: [-0.1, -0.2, -0.3], finishReason: 'stop', version: 0 });
    const firstSample = fake.requests.find((r) => r.path === '/asample')!.body;
    assert.equal(firstSample.base_model, 'Qwen/Qwen3-8B');
    assert.deepEqual(firstSample.sampling_params.stop, [2]);

    const m = await engine.trainStep(samples, TRAIN_OPTS);
    const calls = fake.requests.filter((r) => r.body.seq_id !== undefined).map((r) => [r.path, r.body.seq_id]);
    assert.deepEqual(calls, [
      ['/forward_backward', 1],
      ['/optim_step', 2],
    ]);
    const optim = fake.requests.find((r) => r.path === '/optim_step')!.body;
    assert.deepEqual(optim.adam_params, {
      beta1: 0.9,
      beta2: 0.95,
      eps: 1e-12,
      weight_decay: 0.01,
      grad_clip_norm: 1,
      learning_rate: 2e-5,
    });
    // learner = rollout + 0.3 on every trained token: drift 0.3, ratio e^0.3 = 1.35 > 1.28
    assert.ok(Math.abs(m.train_rollout_logprob_abs_diff - 0.3) < 1e-9, String(m.train_rollout_logprob_abs_diff));
    const ours = ppoBatchLoss(
      samples.map((s) => ({
        newLogprobs: s.rolloutLogprobs.map((v) => v + 0.3),
        oldLogprobs: s.rolloutLogprobs,
        advantages: s.advantages,
        lossMask: s.lossMask,
      })),
    );
    assert.ok(Math.abs(m.pg_loss - ours.pg_loss) < 1e-6, `loss:sum ${m.pg_loss} vs ppoBatchLoss ${ours.pg_loss}`);
    assert.ok(Math.abs(m.pg_clipfrac - ours.pg_clipfrac) < 1e-12 && m.pg_clipfrac > 0);
    assert.ok(Math.abs(m.ppo_kl + 0.3) < 1e-9);
    assert.equal(m.tokens, 5);

    assert.equal(await engine.publish(), 1);
    assert.equal(engine.version(), 1);
    const after = await engine.generate({ promptIds: [1, 2], maxTokens: 2, temperature: 1, stopTokenIds: [2] });
    assert.equal(after.version, 1);
    assert.equal(after.finishReason, 'length');
    const lastSample = fake.requests.filter((r) => r.path === '/asample').pop()!.body;
    assert.equal(lastSample.model_path, engine.samplerPath());
    assert.match(String(lastSample.model_path), /^tinker:\/\/model-1\/sampler_weights\//);
  } finally {
    await engine.close();
    await fake.close();
  }
});

test('minibatches and epochs: one optim_step per minibatch per epoch, each folded over its own minibatch', () =>
  withEngine(async (engine, fake) => {
    const m = await engine.trainStep(samples, { ...TRAIN_OPTS, minibatches: 2, epochs: 2 });
    assert.deepEqual(
      fake.paths().filter((p) => p === '/forward_backward' || p === '/optim_step'),
      [
        '/forward_backward',
        '/optim_step',
        '/forward_backward',
        '/optim_step',
        '/forward_backward',
        '/optim_step',
        '/forward_backward',
        '/optim_step',
      ],
    );
    assert.equal(m.updates, 4);
    // a single-sample minibatch folds 1/(n·1): the second sample's advantages are −1/3 each
    const fb = fake.requests.filter((r) => r.path === '/forward_backward')[1].body;
    assert.deepEqual(fb.forward_backward_input.data[0].loss_fn_inputs.advantages.data, [-1 / 3, -1 / 3, -1 / 3]);
  }));

test('score: prompt log-probs of prompt+response, entry P+t for response token t', () =>
  withEngine(async (engine, fake) => {
    const r = await engine.score({ promptIds: [5, 6, 7], responseIds: [8, 9], temperature: 1 });
    assert.deepEqual(r.logprobs, [-0.3, -0.4]);
    const body = fake.requests.find((x) => x.path === '/asample')!.body;
    assert.deepEqual(body.prompt.chunks[0].tokens, [5, 6, 7, 8, 9]);
    assert.equal(body.prompt_logprobs, true);
    assert.equal(body.sampling_params.max_tokens, 1);
    await assert.rejects(engine.score({ promptIds: [1], responseIds: [2], temperature: 0.7 }), /temperature 1/);
  }));

test('options Tinker cannot honour are refused, naming the key', () =>
  withEngine(async (engine, fake) => {
    await assert.rejects(engine.trainStep(samples, { ...TRAIN_OPTS, loss: { ...TRAIN_OPTS.loss, klCoef: 0.1 } }), /training\.kl_coef/);
    await assert.rejects(engine.trainStep(samples, { ...TRAIN_OPTS, temperature: 0.8 }), /rollout\.temperature/);
    assert.equal(fake.requests.length, 0, 'nothing was sent');
  }));

test('resume: a new engine from a checkpoint serves that step’s sampler path and loads its saved state as its first request', async () => {
  const fake = await startFakeTinker();
  const dir = tmp();
  const a = engineOn(fake, dir);
  await a.trainStep(samples, TRAIN_OPTS);
  await a.publish();
  const ckpt = join(dir, 'checkpoints', 'step-000001.partial');
  mkdirSync(ckpt, { recursive: true });
  await a.save(ckpt);
  const state = readTinkerCheckpoint(ckpt)!;
  assert.equal(state.version, 1);
  assert.equal(state.sampler_path, a.samplerPath());
  assert.match(state.weights_path, /^tinker:\/\/model-1\/weights\/step-000001-/);
  await a.close();

  // Served as version 3: turns of a lost version 2 exist, and versions never go backwards.
  const b = engineOn(fake, dir, { resume: { checkpoint: state, version: 3 } });
  try {
    assert.equal(b.version(), 3);
    assert.equal(b.samplerPath(), state.sampler_path);
    const seen = fake.requests.length;
    await b.trainStep(samples, TRAIN_OPTS);
    const calls = fake.requests
      .slice(seen)
      .filter((r) => r.body.seq_id !== undefined || r.path === '/create_model')
      .map((r) => [r.path, r.body.model_id ?? null, r.body.seq_id ?? null]);
    assert.deepEqual(calls, [
      ['/create_model', null, null],
      ['/load_weights', 'model-2', 1],
      ['/forward_backward', 'model-2', 2],
      ['/optim_step', 'model-2', 3],
    ]);
    assert.equal(fake.requests.find((r) => r.path === '/load_weights')!.body.path, state.weights_path);
    assert.equal(await b.publish(), 4);
  } finally {
    await b.close();
    await fake.close();
  }
});

test('a failed step rejects trainStep; the trainer returns the batch to ready and the next step trains it', async () => {
  const fake = await startFakeTinker();
  const dir = tmp();
  const config = parseConfig(
    {},
    { env: {}, overrides: { output_dir: dir, 'training.batch_size': 2, mode: 'openclaw-rl', 'rollout.temperature': 1 } },
  );
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  const engine = engineOn(fake, dir);
  const trainer = new Trainer({ engine, store, config });
  try {
    for (let t = 1; t <= 2; t++) store.addSample(makeSample('s', t, { policyVersion: 0 }));
    fake.pollScript.push({ status: 200, body: { error: 'CUDA out of memory', category: 'Server' } });
    await assert.rejects(trainer.trainOnce(), /CUDA out of memory/);
    assert.equal(store.countReady(), 2, 'the batch is ready again');
    const m = await trainer.trainOnce();
    assert.equal(m?.policy_version, 1);
    assert.equal(store.countReady(), 0);
    assert.ok(m!.tokens > 0);
    assert.equal(trainOptionsFrom(config).temperature, 1);
  } finally {
    store.close();
    await engine.close();
    await fake.close();
  }
});

test('scoreTrained and generateTrained stage the trained state once; publish serves that staged path without a second save', async () => {
  const fake = await startFakeTinker();
  const dir = tmp();
  const client = new TinkerClient({ baseUrl: fake.url, stateDir: dir, pollIntervalMs: 5, server: 'hosted' });
  const engine = new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: dir });
  const req = { promptIds: [1, 2, 3], responseIds: [4, 5], temperature: 1 };
  const saves = () => fake.requests.filter((r) => r.path === '/save_weights_for_sampler').length;
  const scoredOn = () => fake.requests.filter((r) => r.path === '/asample').map((r) => r.body.model_path ?? r.body.base_model);
  try {
    // Nothing trained: the served (base) weights, nothing saved.
    await engine.scoreTrained(req);
    await engine.generateTrained({ promptIds: [1, 2, 3], maxTokens: 2, temperature: 1 });
    assert.equal(saves(), 0);
    assert.equal(scoredOn().at(-1), 'Qwen/Qwen3-8B');

    await engine.trainStep(samples, TRAIN_OPTS);
    await Promise.all([engine.scoreTrained(req), engine.scoreTrained(req)]);
    await engine.scoreTrained(req);
    const many = await engine.scoreTrainedMany(Array.from({ length: 10 }, () => req));
    assert.equal(many.length, 10);
    assert.ok(many.every((lp) => lp.length === 2));
    assert.equal(saves(), 1, 'one staged save per trained state');
    const staged = scoredOn().at(-1);
    assert.match(String(staged), /sampler_weights/);
    // The replay evaluation samples the staged version on that same path (no second save).
    const answer = await engine.generateTrained({ promptIds: [1, 2, 3], maxTokens: 2, temperature: 1, seed: 7 });
    assert.equal(answer.version, 0);
    assert.equal(scoredOn().at(-1), staged);
    assert.equal(saves(), 1);
    assert.equal(engine.version(), 0, 'staging serves nothing');
    assert.equal((await engine.score(req)).version, 0);

    assert.equal(await engine.publish(), 1);
    assert.equal(saves(), 1, 'publish reused the staged path');
    assert.equal(engine.samplerPath(), staged);
    await engine.scoreTrained(req);
    assert.equal(saves(), 1, 'after publish scoreTrained is the served path');
    assert.equal(scoredOn().at(-1), staged);

    // A new step invalidates the staged path; publish without staging saves as before.
    await engine.trainStep(samples, TRAIN_OPTS);
    await engine.scoreTrained(req);
    assert.equal(saves(), 2);
    await engine.trainStep(samples, TRAIN_OPTS);
    assert.equal(await engine.publish(), 2);
    assert.equal(saves(), 3, 'the stale staged path was not served');
    assert.notEqual(engine.samplerPath(), scoredOn().at(-1));
  } finally {
    await engine.close();
    await fake.close();
  }
});

test('on SkyRL profiles the training model scores trained weights with forward: the gate checks versions, nothing is staged', async () => {
  const fake = await startFakeTinker();
  const dir = tmp();
  const client = new TinkerClient({ baseUrl: fake.url, stateDir: dir, pollIntervalMs: 5, server: 'skyrl-jax' });
  const engine = new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: dir });
  const config = parseConfig(
    {},
    {
      env: {},
      overrides: {
        output_dir: dir,
        'training.batch_size': 2,
        mode: 'openclaw-rl',
        'rollout.temperature': 1,
        'evaluation.holdout_fraction': 0.4,
        'evaluation.gate': { metric: 'holdout_reward_logprob', max_drop: 0, min_samples: 1, on_fail: 'rollback' },
      },
    },
  );
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  const warnings: string[] = [];
  const log = { warn: (...a: unknown[]) => warnings.push(a.map(String).join(' ')), info: () => undefined, error: () => undefined } as any;
  const trainer = new Trainer({ engine, store, config, log });
  const staged = () => fake.requests.filter((r) => r.path === '/save_weights_for_sampler' && /staged/.test(String(r.body.path))).length;
  try {
    await engine.trainStep(samples, TRAIN_OPTS);
    // Response token t of a 3-token prompt sits at datum position 2 + t: −0.03, −0.04.
    const scored = await engine.scoreTrained({ promptIds: [1, 2, 3], responseIds: [4, 5], temperature: 1 });
    assert.deepEqual(scored.logprobs, [-0.03, -0.04]);
    assert.equal(scored.version, 0, 'scored before it serves');
    const fwd = fake.requests.filter((r) => r.path === '/forward').at(-1)!.body;
    assert.equal(fwd.forward_input.loss_fn, 'cross_entropy');
    assert.deepEqual(fwd.forward_input.data[0].model_input.chunks[0].tokens, [1, 2, 3, 4]);
    assert.deepEqual(fwd.forward_input.data[0].loss_fn_inputs.weights.data, [0, 0, 1, 1]);
    await assert.rejects(engine.scoreTrained({ promptIds: [1], responseIds: [2], temperature: 0.7 }), /temperature 1/);
    // Many answers: one forward call with a datum each, every answer's slice in request order.
    const forwards = () => fake.requests.filter((r) => r.path === '/forward').length;
    const before = forwards();
    const many = await engine.scoreTrainedMany([
      { promptIds: [1, 2, 3], responseIds: [4, 5], temperature: 1 },
      { promptIds: [7], responseIds: [8, 9, 10], temperature: 1 },
    ]);
    assert.deepEqual(many, [
      [-0.03, -0.04],
      [-0.01, -0.02, -0.03],
    ]);
    assert.equal(forwards(), before + 1, 'one forward call for both answers');
    assert.equal(fake.requests.filter((r) => r.path === '/forward').at(-1)!.body.forward_input.data.length, 2);
    assert.deepEqual(await engine.scoreTrainedMany([]), []);

    for (let t = 1; t <= 12; t++) store.addSample(makeSample('s', t, { policyVersion: 0 }));
    const m = await trainer.trainOnce();
    assert.notEqual(m?.gate_passed, undefined, 'the gate checked the version');
    assert.ok((m?.gate_samples ?? 0) > 0);
    assert.equal(staged(), 0, 'no sampler path was staged (it would load into the training adapter)');
    assert.equal(warnings.filter((w) => /serves unchecked/.test(w)).length, 0);
  } finally {
    store.close();
    await engine.close();
    await fake.close();
  }
});
