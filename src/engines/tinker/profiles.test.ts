// One test per way the servers differ (profiles.ts), against scripted servers that answer as the
// real ones' sources do: test/support/fake-skyrl.ts (SkyRL, JAX or FSDP/Megatron backend) and
// test/support/fake-tinker.ts (hosted-shaped). Each failed on the client before server profiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OpenClawError, exitCodeFor } from '../../errors/index.ts';
import { ppoBatchLoss } from '../../rl/index.ts';
import { startFakeSkyrl, type FakeSkyrl } from '../../../test/support/fake-skyrl.ts';
import { startFakeTinker, type FakeTinker } from '../../../test/support/fake-tinker.ts';
import type { TrainOptions, TrainSample } from '../types.ts';
import { SDK_VERSION, TinkerClient } from './client.ts';
import { forwardBackwardBody, planForwardBackward } from './datums.ts';
import { TinkerEngine } from './engine.ts';
import { NEGATIVE_SAMPLE, TRAIN_OPTS } from '../../../test/fixtures/tinker/train.ts';
import type { TinkerServerSetting } from './profiles.ts';
import { readTinkerCheckpoint } from './state.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'tinker-profile-'));
const OPTS: TrainOptions = { ...TRAIN_OPTS, weightDecay: 0 };
// A long prompt and a short one: a per-datum mean over ALL positions would shrink the first.
const samples: TrainSample[] = [
  {
    promptIds: Array.from({ length: 40 }, (_, i) => i + 1),
    responseIds: [4, 5],
    rolloutLogprobs: [-0.5, -1],
    advantages: [1, 1],
    lossMask: [1, 1],
  },
  NEGATIVE_SAMPLE,
];
const ourLoss = ppoBatchLoss(
  samples.map((s) => ({ newLogprobs: s.rolloutLogprobs, oldLogprobs: s.rolloutLogprobs, advantages: s.advantages, lossMask: s.lossMask })),
  { clipRatio: 0.2, clipRatioHigh: 0.28 },
).pg_loss;

function clientOn(url: string, server: TinkerServerSetting = 'auto', extra: Partial<ConstructorParameters<typeof TinkerClient>[0]> = {}) {
  const notes: string[] = [];
  const client = new TinkerClient({
    baseUrl: url,
    stateDir: tmp(),
    pollIntervalMs: 5,
    server,
    baseModel: 'Qwen/Qwen3-8B',
    onInfo: (m) => notes.push(m),
    onWarning: (m) => notes.push(m),
    ...extra,
  });
  return { client, notes };
}

async function withSkyrl(backend: 'jax' | 'train', fn: (fake: FakeSkyrl) => Promise<void>, maxLoraAdapters?: number) {
  const fake = await startFakeSkyrl({ backend, maxLoraAdapters });
  try {
    await fn(fake);
  } finally {
    await fake.close();
  }
}

/** Runs `fn` with an engine on a SkyRL fake of `backend` (auto-detected profile), closing it after. */
function withSkyrlEngine(backend: 'jax' | 'train', fn: (engine: TinkerEngine, fake: FakeSkyrl, notes: string[]) => Promise<void>) {
  return withSkyrl(backend, async (fake) => {
    const { client, notes } = clientOn(fake.url);
    const engine = new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: tmp() });
    try {
      await fn(engine, fake, notes);
    } finally {
      await engine.close();
    }
  });
}

/** Runs `fn` with a client of the hosted profile on a fresh hosted-shaped fake, closing both after. */
async function withHosted(fn: (client: TinkerClient, fake: FakeTinker) => Promise<void>) {
  const fake = await startFakeTinker();
  const { client } = clientOn(fake.url, 'hosted');
  try {
    await fn(client, fake);
  } finally {
    await client.close();
    await fake.close();
  }
}

test('auto: SkyRL-JAX, SkyRL-train and hosted are told apart from their answers, and the choice is logged', async () => {
  for (const backend of ['jax', 'train'] as const) {
    await withSkyrl(backend, async (fake) => {
      const { client, notes } = clientOn(fake.url);
      try {
        const d = await client.server();
        assert.equal(d.profile.name, backend === 'jax' ? 'skyrl-jax' : 'skyrl-train');
        assert.match(d.reason, /Tinker API Mock/);
        assert.ok(notes.some((n) => n.includes(`server profile skyrl-${backend}`)));
      } finally {
        await client.close();
      }
    });
  }
  const hosted = await startFakeTinker();
  const { client } = clientOn(hosted.url);
  try {
    assert.equal((await client.server()).profile.name, 'hosted');
  } finally {
    await client.close();
    await hosted.close();
  }
});

test('skyrl-jax prompt log-probs (P − 1, no leading null) score the right response tokens', () =>
  withSkyrlEngine('jax', async (engine) => {
    // prompt [1,2,3] + response [4,5]: log p(token i) = −(i+1)/10 → tokens 3 and 4 of the sequence
    const r = await engine.score({ promptIds: [1, 2, 3], responseIds: [4, 5], temperature: 1 });
    assert.deepEqual(r.logprobs, [-0.4, -0.5]);
  }));

test('skyrl-train prompt log-probs (P, leading null) score the same tokens', () =>
  withSkyrlEngine('train', async (engine) => {
    const r = await engine.score({ promptIds: [1, 2, 3], responseIds: [4, 5], temperature: 1 });
    assert.deepEqual(r.logprobs, [-0.4, -0.5]);
  }));

test("skyrl-jax reduction: weights = the response mask, no fold — the server's per-datum mean over datums equals our sample-mean loss", () =>
  withSkyrlEngine('jax', async (engine, fake) => {
    await engine.trainStep(samples, OPTS);
    assert.equal(fake.stepLosses.length, 1);
    assert.ok(Math.abs(fake.stepLosses[0] - ourLoss) < 1e-9, `server ${fake.stepLosses[0]} vs ours ${ourLoss}`);
    const fb = fake.requests.find((r) => r.path === '/forward_backward')!.body;
    const d0 = fb.forward_backward_input.data[0].loss_fn_inputs;
    assert.equal(d0.weights.data.filter((w: number) => w === 1).length, 2);
    assert.deepEqual(d0.advantages.data.slice(-2), [1, 1], 'advantages as they are');
  }));

test('skyrl-train reduction: a sum (advantages folded), its pg_loss:sum and skyrl.ai/grad_norm read', () =>
  withSkyrlEngine('train', async (engine, fake) => {
    const m = await engine.trainStep(samples, OPTS);
    assert.ok(Math.abs(fake.stepLosses[0] - ourLoss) < 1e-9, `server ${fake.stepLosses[0]} vs ours ${ourLoss}`);
    assert.ok(Math.abs(m.pg_loss - ourLoss) < 1e-9);
    assert.equal(m.grad_norm, 0.5);
    const fb = fake.requests.find((r) => r.path === '/forward_backward')!.body;
    assert.equal(fb.forward_backward_input.data[0].loss_fn_inputs.weights, undefined);
  }));

test('skyrl: no grad_clip_norm is sent, and training.max_grad_norm is named once as not honoured', () =>
  withSkyrlEngine('jax', async (engine, fake, notes) => {
    const m = await engine.trainStep(samples, OPTS);
    await engine.trainStep(samples, OPTS);
    const adam = fake.requests.find((r) => r.path === '/optim_step')!.body.adam_params;
    assert.equal(adam.grad_clip_norm, undefined);
    assert.equal(adam.learning_rate, 2e-5);
    assert.equal(m.grad_norm, 0.5, 'skyrl.ai/grad_norm');
    assert.equal(notes.filter((n) => n.includes('training.max_grad_norm')).length, 1);
  }));

test('session hygiene: a heartbeat as soon as the session exists, unload_model on close', async () => {
  await withSkyrl('jax', async (fake) => {
    const { client } = clientOn(fake.url, 'skyrl-jax', { heartbeatMs: 60_000 });
    const engine = new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: tmp() });
    await engine.trainStep(samples, OPTS);
    const [session] = [...fake.sessions.entries()];
    assert.notEqual(session[1], null, 'heartbeat sent at once (SkyRL never reaps a session without one)');
    assert.equal(fake.models.size, 1);
    await engine.close();
    assert.equal(fake.models.size, 0, 'the LoRA slot is freed');
  });
});

test('full LoRA slots: the error names max_lora_adapters', async () => {
  await withSkyrl(
    'jax',
    async (fake) => {
      const { client } = clientOn(fake.url, 'skyrl-jax');
      try {
        await client.createModel('Qwen/Qwen3-8B', 32);
        await assert.rejects(
          client.createModel('Qwen/Qwen3-8B', 32),
          (e: OpenClawError) => e.code === 'tinker_lora_slots_full' && /max_lora_adapters/.test(e.message),
        );
      } finally {
        await client.close();
      }
    },
    2,
  );
});

test('skyrl: a save whose answer was lost is found in the checkpoint list, not sent again (no 409)', async () => {
  await withSkyrl('jax', async (fake) => {
    const { client } = clientOn(fake.url, 'skyrl-jax');
    try {
      const id = await client.createModel('Qwen/Qwen3-8B', 32);
      fake.loseAnswer.add('/save_weights');
      const path = await client.saveWeights(id, 'step-1');
      assert.equal(path, `tinker://${id}/weights/step-1`);
      assert.equal(fake.paths().filter((p) => p === '/save_weights').length, 1, 'one save, no second side effect');
      // an idempotent call (forward_backward dedupe) is simply resubmitted with its seq_id
      fake.loseAnswer.add('/optim_step');
      await client.optimStep(id, { learning_rate: 1e-5 });
      const optims = fake.requests.filter((r) => r.path === '/optim_step');
      assert.equal(optims.length, 2);
      assert.equal(optims[1].text, optims[0].text);
    } finally {
      await client.close();
    }
  });
});

test('repeated 410s are retried within the deadline (the SDK keeps trying)', () =>
  withHosted(async (client, fake) => {
    fake.pollScript.push({ status: 410 }, { status: 410 }, { status: 410 });
    await client.optimStep('m1', { learning_rate: 1e-5 });
    const submits = fake.requests.filter((r) => r.path === '/optim_step');
    assert.equal(submits.length, 4);
    assert.ok(submits.every((s) => s.text === submits[0].text));
  }));

test('hosted: a refused submit gives its seq_id back (no gap in the order)', () =>
  withHosted(async (client, fake) => {
    fake.submitScript.set('/optim_step', [{ status: 422, body: { detail: 'bad' } }]);
    await assert.rejects(client.optimStep('m9', { learning_rate: 1 }));
    await client.optimStep('m9', { learning_rate: 1 });
    assert.deepEqual(
      fake.requests.filter((r) => r.path === '/optim_step').map((r) => r.body.seq_id),
      [1, 1],
    );
    assert.equal(client.lastSeqId('m9'), 1);
  }));

test('wire: forward_backward without `type`; sdk_version a real JSON-era SDK; client/config read; never Accept protobuf', async () => {
  const plan = planForwardBackward(samples, { loss: OPTS.loss });
  assert.equal(JSON.parse(forwardBackwardBody('m', 1, plan.lossFnConfig, plan.chunks[0].datums)).type, undefined);
  assert.equal(SDK_VERSION, '0.18.0');
  await withHosted(async (client, fake) => {
    await client.createModel('Qwen/Qwen3-8B', 8);
    const cfg = fake.requests.find((r) => r.path === '/client/config')!;
    assert.deepEqual(cfg.body, { sdk_version: '0.18.0' });
    assert.equal(fake.requests.find((r) => r.path === '/create_session')!.body.sdk_version, '0.18.0');
    assert.ok(fake.requests.every((r) => !String(r.headers.accept ?? '').includes('protobuf')));
  });
});

test('sampling: through create_sampling_session + seq_id where the server has it, else model_path', async () => {
  await withSkyrl('train', async (fake) => {
    const { client } = clientOn(fake.url, 'skyrl-train');
    fake.models.add('m'); // SkyRL samples a sampler path only while its model is loaded
    try {
      await client.sample({ promptIds: [1, 2], maxTokens: 2, temperature: 1, modelPath: 'tinker://m/sampler_weights/a' });
      await client.sample({ promptIds: [1, 2], maxTokens: 2, temperature: 1, modelPath: 'tinker://m/sampler_weights/a' });
      const s = fake.requests.filter((r) => r.path === '/create_sampling_session');
      assert.equal(s.length, 1);
      assert.equal(s[0].body.model_path, 'tinker://m/sampler_weights/a');
      assert.equal(s[0].body.sampling_session_seq_id, 0);
      const asks = fake.requests.filter((r) => r.path === '/asample').map((r) => r.body);
      assert.deepEqual(
        asks.map((b) => [b.seq_id, b.model_path]),
        [
          [0, undefined],
          [1, undefined],
        ],
      );
      assert.ok(asks.every((b) => b.sampling_session_id === asks[0].sampling_session_id));
    } finally {
      await client.close();
    }
  });
  // the hosted-shaped fake has no create_sampling_session route
  await withHosted(async (client, old) => {
    await client.sample({ promptIds: [1, 2], maxTokens: 2, temperature: 1, modelPath: 'tinker://m/sampler_weights/a' });
    assert.equal(old.requests.find((r) => r.path === '/asample')!.body.model_path, 'tinker://m/sampler_weights/a');
  });
});

test('health: the engine reports the Tinker server from the last real call, not a constant ok', async () => {
  const fake = await startFakeTinker();
  const { client } = clientOn(fake.url, 'hosted');
  const engine = new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: tmp() });
  try {
    assert.equal((await engine.health()).ok, true);
    await fake.close();
    await assert.rejects(engine.generate({ promptIds: [1], maxTokens: 2, temperature: 1 }));
    const h = await engine.health();
    assert.equal(h.ok, false);
    assert.match(h.detail, /unreachable/);
  } finally {
    await engine.close();
  }
});

test('start-up check: an unreachable server or a missing base model is an upstream error (exit 3) with the reason', async () => {
  const dead = createServer();
  await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
  const port = (dead.address() as AddressInfo).port;
  await new Promise<void>((r) => dead.close(() => r()));
  const { client } = clientOn(`http://127.0.0.1:${port}`, 'hosted');
  const engine = new TinkerEngine({ client, baseModel: 'Qwen/Qwen3-8B', stateDir: tmp() });
  await assert.rejects(engine.checkServer(), (e: OpenClawError) => exitCodeFor(e) === 3 && /unreachable/.test(e.message));
  await engine.close();
  const fake = await startFakeTinker({ models: ['Qwen/Qwen3-4B'] });
  const b = new TinkerEngine({ client: clientOn(fake.url, 'hosted').client, baseModel: 'Qwen/Qwen3-8B', stateDir: tmp() });
  try {
    await assert.rejects(b.checkServer(), (e: OpenClawError) => exitCodeFor(e) === 3 && /Qwen\/Qwen3-4B/.test(e.message));
  } finally {
    await b.close();
    await fake.close();
  }
});

test('resume on SkyRL: the previous model is unloaded, the saved state goes into a new model, and a sampler of its own serves (the old path died with its model)', async () => {
  for (const crashed of [false, true]) {
    await withSkyrl('jax', async (fake) => {
      const dir = tmp();
      const a = new TinkerEngine({ client: clientOn(fake.url).client, baseModel: 'Qwen/Qwen3-8B', stateDir: dir });
      await a.trainStep(samples, OPTS);
      await a.publish();
      const ckDir = join(dir, 'ck');
      mkdirSync(ckDir);
      await a.save(ckDir);
      const ck = readTinkerCheckpoint(ckDir)!;
      // A graceful stop unloads the model (its sampler path then cannot serve); a crash leaves it holding a slot.
      if (!crashed) await a.close();
      assert.equal(fake.models.has(ck.model_id), crashed);

      const b = new TinkerEngine({
        client: clientOn(fake.url).client,
        baseModel: 'Qwen/Qwen3-8B',
        stateDir: dir,
        resume: { checkpoint: ck, version: 1 },
      });
      try {
        if (!crashed) await assert.rejects(b.generate({ promptIds: [1, 2], maxTokens: 2, temperature: 1 }), /KeyError/);
        const note = await b.prepareResume();
        assert.match(note ?? '', /published from the loaded state/);
        assert.ok(!fake.models.has(ck.model_id), 'the previous model no longer holds a slot');
        assert.notEqual(b.samplerPath(), ck.sampler_path);
        assert.equal(b.version(), 1, 'the same weights: the same version');
        const created = fake.requests.filter((r) => r.path === '/load_weights').at(-1)!;
        assert.equal(created.body.path, ck.weights_path);
        const g = await b.generate({ promptIds: [1, 2], maxTokens: 2, temperature: 1 });
        assert.equal(g.version, 1);
      } finally {
        await b.close();
        if (crashed) await a.close();
      }
    });
  }
});
