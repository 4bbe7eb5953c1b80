import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initBackend } from './backend.ts';
import { Gpt } from './model.ts';
import { AdamW } from './optimizer.ts';
import { cosineLr, packSupervised, supervisedLoss, supervisedStep } from './pretrain.ts';
import { scoreTokens } from './sampling.ts';

const cfg = { vocabSize: 40, dModel: 16, nLayer: 1, nHead: 2, ctx: 32 };
// Different target lengths, so a token mean and a sample mean differ.
const examples = [
  { promptIds: [1, 2, 3], targetIds: [7, 8, 9, 10, 11, 12, 13, 14] },
  { promptIds: [4, 5], targetIds: [20, 21] },
];

test('supervisedLoss is the mean cross-entropy over all target tokens (token mean)', async () => {
  await initBackend();
  const model = Gpt.create(cfg, 3);
  try {
    const logprobs = examples.flatMap((e) => scoreTokens(model, e.promptIds, e.targetIds, 1).logprobs);
    const expected = -logprobs.reduce((a, b) => a + b, 0) / logprobs.length;
    assert.ok(Math.abs(supervisedLoss(model, examples) - expected) < 1e-4);
  } finally {
    model.dispose();
  }
});

test('supervised steps lower the loss of the trained examples', async () => {
  await initBackend();
  const model = Gpt.create(cfg, 3);
  const optimizer = new AdamW();
  try {
    const before = supervisedLoss(model, examples);
    const first = supervisedStep(model, optimizer, examples, { lr: 1e-2, weightDecay: 0, maxGradNorm: 1 });
    assert.ok(Math.abs(first.loss - before) < 1e-4, 'the reported loss is the one before the update');
    assert.equal(first.tokens, 10);
    for (let i = 0; i < 30; i++) supervisedStep(model, optimizer, examples, { lr: 1e-2, weightDecay: 0, maxGradNorm: 1 });
    const after = supervisedLoss(model, examples);
    assert.ok(after < before / 2, `loss ${before.toFixed(3)} → ${after.toFixed(3)}`);
    assert.equal(optimizer.step, 31);
  } finally {
    model.dispose();
    optimizer.dispose();
  }
});

test('packSupervised weights every target token equally and refuses empty targets', async () => {
  await initBackend();
  const model = Gpt.create(cfg, 3);
  try {
    const batch = packSupervised(model, examples);
    assert.equal(batch.count, 10);
    assert.deepEqual(
      Array.from(batch.weights),
      Array.from({ length: 10 }, () => Math.fround(0.1)),
    );
    assert.throws(() => packSupervised(model, [{ promptIds: [1], targetIds: [] }]), /no target tokens/);
    assert.throws(
      () => packSupervised(model, [{ promptIds: [1], targetIds: Array.from({ length: 40 }, () => 2) }]),
      /exceed the model context/,
    );
  } finally {
    model.dispose();
  }
});

test('cosineLr: linear warm-up, then cosine from the peak down to peak·minRatio', () => {
  const o = { peak: 1, warmupSteps: 10, minRatio: 0.1 };
  assert.equal(cosineLr(0, 110, o), 0.1);
  assert.equal(cosineLr(9, 110, o), 1);
  assert.equal(cosineLr(10, 110, o), 1);
  assert.ok(Math.abs(cosineLr(60, 110, o) - 0.55) < 1e-12, 'halfway: (1 + 0.1) / 2');
  assert.ok(Math.abs(cosineLr(110, 110, o) - 0.1) < 1e-12);
});

test('a fixed tokenNormalizer gives every token the weight 1/normalizer and still reports the token-mean loss', async () => {
  await initBackend();
  const model = Gpt.create(cfg, 3);
  const optimizer = new AdamW();
  try {
    // 10 target tokens, normalizer 40: each token weighs 0.025 instead of 0.1.
    assert.deepEqual(
      Array.from(packSupervised(model, examples, 40).weights),
      Array.from({ length: 10 }, () => Math.fround(0.025)),
    );
    const before = supervisedLoss(model, examples);
    const step = supervisedStep(model, optimizer, examples, { lr: 1e-2, weightDecay: 0, maxGradNorm: 0, tokenNormalizer: 40 });
    assert.ok(Math.abs(step.loss - before) < 1e-4, `reported ${step.loss} vs token mean ${before}`);
    assert.throws(() => packSupervised(model, examples, 0), /tokenNormalizer must be > 0/);
  } finally {
    model.dispose();
    optimizer.dispose();
  }
});

test('with a fixed normalizer the gradient scales with the token count: a short batch no longer weighs as much as a long one', async () => {
  await initBackend();
  const short = [examples[1]];
  // Plain token mean: the 2-token batch's gradient norm is that of a mean; with normalizer 10
  // its tokens weigh 1/10 each, so the norm shrinks by the factor 2/10 exactly.
  const norm = (tokenNormalizer?: number) => {
    const model = Gpt.create(cfg, 3);
    const optimizer = new AdamW();
    try {
      return supervisedStep(model, optimizer, short, { lr: 0, weightDecay: 0, maxGradNorm: 0, tokenNormalizer }).gradNorm;
    } finally {
      model.dispose();
      optimizer.dispose();
    }
  };
  const ratio = norm(10) / norm();
  assert.ok(Math.abs(ratio - 0.2) < 1e-4, `ratio ${ratio}`);
});
