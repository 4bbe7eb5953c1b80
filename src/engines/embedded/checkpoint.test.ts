import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedEngine } from './engine.ts';
import { decodeSafetensors, encodeSafetensors } from './safetensors.ts';
import { trainBpe } from './tokenizer.ts';
import type { TrainOptions, TrainSample } from '../types.ts';

const opts: TrainOptions = {
  loss: { clipRatio: 0.2, clipRatioHigh: 0.28, klCoef: 0.02, entropyCoef: 0, distillTopKCoef: 0 },
  lr: 1e-2,
  epochs: 1,
  minibatches: 1,
  maxGradNorm: 1,
  weightDecay: 0.01,
  temperature: 1,
};

test('safetensors bytes: header length, aligned JSON header, little-endian F32 data', () => {
  const bytes = encodeSafetensors(
    { b: { shape: [2], data: Float32Array.of(1.5, -2) }, a: { shape: [1, 1], data: Float32Array.of(0.25) } },
    { step: '3' },
  );
  const headerLength = Number(bytes.readBigUInt64LE(0));
  assert.equal((8 + headerLength) % 8, 0);
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8'));
  assert.deepEqual(header.a, { dtype: 'F32', shape: [1, 1], data_offsets: [0, 4] });
  assert.deepEqual(header.b, { dtype: 'F32', shape: [2], data_offsets: [4, 12] });
  assert.deepEqual(header.__metadata__, { step: '3' });
  assert.equal(bytes.readFloatLE(8 + headerLength + 4), 1.5);
  const back = decodeSafetensors(bytes);
  assert.deepEqual(Array.from(back.tensors.b.data), [1.5, -2]);
  assert.equal(back.metadata.step, '3');
});

test('checkpoint round trip restores weights, tokenizer, version and optimizer state exactly', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'openclaw-ckpt-'));
  try {
    const tokenizer = trainBpe(['hello world, hello there', 'the world is wide'], 270);
    const cfg = { vocabSize: tokenizer.vocabSize, dModel: 16, nLayer: 1, nHead: 2, ctx: 32 };
    const a = await EmbeddedEngine.create(cfg, { seed: 21, tokenizer });
    const prompt = tokenizer.encode('hello world');
    const gen = await a.generate({ promptIds: prompt, maxTokens: 6, temperature: 1, seed: 2 });
    const sample: TrainSample = {
      promptIds: prompt,
      responseIds: gen.tokenIds,
      rolloutLogprobs: gen.logprobs,
      advantages: gen.tokenIds.map(() => 1),
      lossMask: gen.tokenIds.map(() => 1),
    };
    await a.trainStep([sample], opts);
    await a.publish();
    await a.save(dir);

    const b = await EmbeddedEngine.load(dir);
    assert.equal(b.version(), 1);
    assert.equal(b.optimizerStep, 1);
    assert.deepEqual(b.tokenizer?.toJSON(), tokenizer.toJSON());
    const req = { promptIds: prompt, responseIds: gen.tokenIds, temperature: 1 };
    assert.deepEqual((await b.score(req)).logprobs, (await a.score(req)).logprobs);

    // Resume: the same next step on both engines gives identical weights only if the AdamW
    // moments, step count and the KL reference were all restored.
    const ma = await a.trainStep([sample], opts);
    const mb = await b.trainStep([sample], opts);
    assert.equal(mb.kl_loss, ma.kl_loss);
    await a.publish();
    await b.publish();
    assert.deepEqual((await b.score(req)).logprobs, (await a.score(req)).logprobs);
    assert.equal(b.optimizerStep, 2);

    const model = decodeSafetensors(await readFile(join(dir, 'model.safetensors')));
    assert.deepEqual(model.tensors.wte.shape, [tokenizer.vocabSize, 16]);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    assert.equal(config.model.dModel, 16);
    await a.close();
    await b.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('loading a folder without a checkpoint names the missing file', async () => {
  await assert.rejects(EmbeddedEngine.load(join(tmpdir(), 'no-such-openclaw-ckpt')), /config\.json is missing/);
});
