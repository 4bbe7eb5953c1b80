import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenClawError } from '../../errors/index.ts';
import type { TrainOptions, TrainSample } from '../types.ts';
import { EmbeddedEngine } from './engine.ts';
import { WorkerEngine } from './worker-engine.ts';

const cfg = { vocabSize: 48, dModel: 24, nLayer: 2, nHead: 2, ctx: 256 };
const prompt = [1, 2, 3, 4, 5];
const trainOpts: TrainOptions = {
  loss: { clipRatio: 0.2, clipRatioHigh: 0.28, klCoef: 0.05, entropyCoef: 0, distillTopKCoef: 0 },
  lr: 2e-2,
  epochs: 1,
  minibatches: 1,
  maxGradNorm: 1,
  weightDecay: 0,
  temperature: 1,
};

// One engine for most tests (starting worker threads dominates the run time); tests that
// publish compare versions relative to the one they start from.
let w: WorkerEngine;
before(async () => {
  w = await WorkerEngine.create(cfg, { seed: 3 });
});
after(async () => {
  await w.close();
});

function sampleOf(promptIds: number[], r: { tokenIds: number[]; logprobs: number[] }, advantage = 1): TrainSample {
  return {
    promptIds,
    responseIds: r.tokenIds,
    rolloutLogprobs: r.logprobs,
    advantages: r.tokenIds.map(() => advantage),
    lossMask: r.tokenIds.map(() => 1),
  };
}

test('worker generate, score and train equal the in-process engine for the same seed', async () => {
  const e = await EmbeddedEngine.create(cfg, { seed: 3 });
  try {
    const req = { promptIds: prompt, maxTokens: 12, temperature: 0.8, topP: 0.9, seed: 7 };
    const streamed: Array<[number, number]> = [];
    const a = await w.generate(req, (id, lp) => streamed.push([id, lp]));
    const b = await e.generate(req);
    assert.deepEqual(a, b);
    assert.deepEqual(
      streamed,
      a.tokenIds.map((id, i) => [id, a.logprobs[i]]),
    );

    const scoreReq = { promptIds: prompt, responseIds: a.tokenIds, temperature: 0.8, topK: 3 };
    assert.deepEqual(await w.score(scoreReq), await e.score(scoreReq));

    const samples = [sampleOf(prompt, a, 1), sampleOf(prompt, await e.generate({ ...req, seed: 8 }), -1)];
    assert.deepEqual(await w.trainStep(samples, trainOpts), await e.trainStep(samples, trainOpts));
    assert.equal(await w.publish(), 1);
    assert.equal(await e.publish(), 1);
    assert.equal(w.version(), 1);
    assert.deepEqual(await w.score(scoreReq), await e.score(scoreReq));
    assert.deepEqual(await w.generate(req), await e.generate(req));
  } finally {
    await e.close();
  }
});

test('generate and score requests complete while a training step runs in the training worker', async () => {
  const v0 = w.version();
  const rollout = await w.generate({ promptIds: prompt, maxTokens: 40, temperature: 1, seed: 1 });
  // Several epochs over a batch make the step long compared with one small request.
  const samples = Array.from({ length: 8 }, () => sampleOf(prompt, rollout));
  let trainingDone = false;
  const step = w.trainStep(samples, { ...trainOpts, epochs: 6 }).then((m) => {
    trainingDone = true;
    return m;
  });
  let duringStep = 0;
  while (!trainingDone) {
    const g = await w.generate({ promptIds: prompt, maxTokens: 4, temperature: 1, seed: duringStep });
    const s = await w.score({ promptIds: prompt, responseIds: g.tokenIds, temperature: 1 });
    assert.equal(s.logprobs.length, 4);
    if (!trainingDone) duringStep += 1;
  }
  const metrics = await step;
  assert.equal(metrics.updates, 6);
  assert.ok(duringStep >= 1, 'no generate+score pair completed while the training step ran');
  assert.equal(w.version(), v0, 'training alone must not change the served weights');
});

test('publish mid-generation: the running generation ends on its snapshot, the next one sees the new version', async () => {
  const v0 = w.version();
  const req = { promptIds: prompt, maxTokens: 240, temperature: 1, seed: 9 };
  const reference = await w.generate(req);
  await w.trainStep([sampleOf(prompt, { tokenIds: reference.tokenIds.slice(0, 20), logprobs: reference.logprobs.slice(0, 20) })], {
    ...trainOpts,
    lr: 0.05,
  });
  let received = 0;
  let receivedAtPublish = -1;
  let publishing: Promise<number> | null = null;
  const running = w.generate(req, () => {
    received += 1;
    publishing ??= w.publish().then((v) => {
      receivedAtPublish = received;
      return v;
    });
  });
  const during = await running;
  assert.equal(await publishing, v0 + 1);
  assert.ok(receivedAtPublish < during.tokenIds.length, `publish finished only after the generation (${receivedAtPublish} tokens)`);
  assert.equal(during.version, v0);
  assert.deepEqual(during, reference);
  const next = await w.generate(req);
  assert.equal(next.version, v0 + 1);
  assert.notDeepEqual(next.logprobs.slice(0, 5), reference.logprobs.slice(0, 5));
});

test('errors in a worker reject with the OpenClawError the engine raised', async () => {
  await assert.rejects(w.generate({ promptIds: [1, 999], maxTokens: 3, temperature: 1 }), (err: unknown) => {
    assert.ok(err instanceof OpenClawError);
    assert.equal(err.kind, 'invalid_request');
    assert.equal(err.param, 'promptIds');
    assert.match(err.message, /999/);
    return true;
  });
  await assert.rejects(
    w.score({ promptIds: [], responseIds: [1], temperature: 1 }),
    (err: unknown) => err instanceof OpenClawError && err.kind === 'invalid_request',
  );
  const bad: TrainSample = { promptIds: prompt, responseIds: [1, 2], rolloutLogprobs: [-1], advantages: [1, 1], lossMask: [1, 1] };
  await assert.rejects(
    w.trainStep([bad], trainOpts),
    (err: unknown) => err instanceof OpenClawError && err.kind === 'data' && /rolloutLogprobs has 1 entries for 2/.test(err.message),
  );
  // The engine still works after failed requests.
  assert.equal((await w.generate({ promptIds: prompt, maxTokens: 3, temperature: 1, seed: 1 })).tokenIds.length, 3);
});

test('an abort signal rejects the generation with its reason; the engine keeps serving', async () => {
  const ac = new AbortController();
  const reason = new OpenClawError('invalid_request', 'client went away');
  let tokens = 0;
  const req = { promptIds: prompt, maxTokens: 240, temperature: 1, seed: 2, signal: ac.signal };
  await assert.rejects(
    w.generate(req, () => {
      tokens += 1;
      if (tokens === 3) ac.abort(reason);
    }),
    (err) => err === reason,
  );
  await assert.rejects(w.generate(req), (err) => err === reason, 'an already aborted signal rejects at once');
  const next = await w.generate({ promptIds: prompt, maxTokens: 5, temperature: 1, seed: 2 });
  assert.equal(next.tokenIds.length, 5);
});

test('a worker thread that dies rejects pending and later requests instead of hanging', async () => {
  const lone = await WorkerEngine.create(cfg, { seed: 8, train: false });
  try {
    const serving = (lone as unknown as { serving: { worker: { terminate(): Promise<number> } } }).serving;
    let killed = false;
    const pending = lone.generate({ promptIds: prompt, maxTokens: 240, temperature: 1, seed: 3 }, () => {
      if (!killed) {
        killed = true;
        void serving.worker.terminate();
      }
    });
    await assert.rejects(pending, (err: unknown) => err instanceof OpenClawError && /serving worker thread stopped/.test(err.message));
    assert.deepEqual(lone.running(), { serving: false, training: false });
    await assert.rejects(lone.score({ promptIds: prompt, responseIds: [1], temperature: 1 }), /serving worker thread stopped/);
  } finally {
    await lone.close();
  }
});

test('a checkpoint that cannot be loaded rejects load() with the reason', async () => {
  await assert.rejects(
    WorkerEngine.load(join(tmpdir(), 'openclaw-no-such-checkpoint')),
    (err: unknown) => err instanceof OpenClawError && err.kind === 'config' && /config\.json is missing/.test(err.message),
  );
});

test('close stops both threads; pending and later calls reject', async () => {
  const c = await WorkerEngine.create(cfg, { seed: 9 });
  assert.deepEqual(c.running(), { serving: true, training: true });
  const rollout = await c.generate({ promptIds: prompt, maxTokens: 40, temperature: 1, seed: 1 });
  const step = c.trainStep(Array(8).fill(sampleOf(prompt, rollout)), { ...trainOpts, epochs: 4 });
  const stepRejected = assert.rejects(step, /closed/);
  await c.close();
  await stepRejected;
  assert.deepEqual(c.running(), { serving: false, training: false });
  await assert.rejects(c.generate({ promptIds: prompt, maxTokens: 2, temperature: 1 }), /closed/);
  await c.close(); // idempotent
});

test('save from the training worker, load into a new WorkerEngine (and a serve-only one)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'openclaw-worker-'));
  try {
    const g = await w.generate({ promptIds: prompt, maxTokens: 8, temperature: 1, seed: 4 });
    await w.trainStep([sampleOf(prompt, g)], trainOpts);
    const version = await w.publish();
    await w.save(dir);
    const req = { promptIds: prompt, responseIds: g.tokenIds, temperature: 1 };
    const expected = await w.score(req);
    const [loaded, serveOnly] = await Promise.all([WorkerEngine.load(dir), WorkerEngine.load(dir, { train: false })]);
    try {
      assert.equal(loaded.version(), version);
      assert.equal(serveOnly.version(), version);
      assert.deepEqual(await loaded.score(req), expected);
      assert.deepEqual(await serveOnly.score(req), expected);
      assert.deepEqual(serveOnly.running(), { serving: true, training: false });
      await assert.rejects(serveOnly.trainStep([sampleOf(prompt, g)], trainOpts), /serve only/);
    } finally {
      await Promise.all([loaded.close(), serveOnly.close()]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
