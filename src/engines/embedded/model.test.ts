import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from './backend.ts';
import { Gpt, paramCount, forwardFlops } from './model.ts';
import { AdamW } from './optimizer.ts';
import { lossTerms, packBatch } from './train.ts';
import { scoreTokens } from './sampling.ts';
import type { TrainOptions, TrainSample } from '../types.ts';

before(async () => {
  await initBackend();
});

const cfg = { vocabSize: 40, dModel: 16, nLayer: 2, nHead: 2, ctx: 24 };

test('the fast Slice kernel returns the same block as a reference gather', () => {
  const x = tf.tensor3d(
    Float32Array.from({ length: 2 * 3 * 4 }, (_, i) => i),
    [2, 3, 4],
  );
  const s = tf.slice(x, [1, 1, 1], [1, 2, 2]);
  assert.deepEqual(Array.from(s.dataSync()), [17, 18, 21, 22]);
  tf.dispose([x, s]);
});

test('parameter count and FLOP formula of a known shape', () => {
  // wte 40·16 + wpe 24·16 + 2 layers · (4·16 LN + 16·48 + 16·16 + 16·64 + 64·16) + 2·16 final LN
  assert.equal(paramCount(cfg), 640 + 384 + 2 * (64 + 768 + 256 + 1024 + 1024) + 32);
  assert.equal(forwardFlops({ ...cfg, nLayer: 1 }, 1, 2), 2 * 2 * 12 * 256 + 2 * 2 * 16 * 40 + 4 * 1 * 4 * 16);
});

test('KV-cache decoding gives the same log-probs as a full forward pass', () => {
  const model = Gpt.create(cfg, 3);
  const ids = [1, 5, 9, 2, 7, 3, 4, 11];
  const P = 5;
  const full = tf.tidy(() => tf.logSoftmax(model.logits(model.hidden(Int32Array.from(ids), 1, ids.length))).arraySync() as number[][]);
  let state = model.prefill(ids.slice(0, P));
  for (let t = P; t <= ids.length; t++) {
    const lp = tf.tidy(() => tf.logSoftmax(state.logits).dataSync());
    for (let v = 0; v < cfg.vocabSize; v++) assert.ok(Math.abs(lp[v] - full[t - 1][v]) < 1e-5, `position ${t - 1}, token ${v}`);
    if (t === ids.length) break;
    const next = model.decode(state.cache, ids[t]);
    tf.dispose([...state.cache.k, ...state.cache.v, state.logits]);
    state = next;
  }
  tf.dispose([...state.cache.k, ...state.cache.v, state.logits]);
  model.dispose();
});

test('padding a sequence in a batch does not change its log-probs', () => {
  const model = Gpt.create(cfg, 4);
  const a = [3, 4, 5, 6, 7, 8];
  const b = [9, 10, 11];
  const alone = tf.tidy(() => tf.logSoftmax(model.logits(model.hidden(Int32Array.from(b), 1, 3))).dataSync());
  const batch = tf.tidy(() => tf.logSoftmax(model.logits(model.hidden(Int32Array.from([...a, ...b, 0, 0, 0]), 2, 6))).dataSync());
  for (let i = 0; i < 3 * cfg.vocabSize; i++) assert.ok(Math.abs(alone[i] - batch[6 * cfg.vocabSize + i]) < 1e-5);
  model.dispose();
});

/** Central finite differences of the full loss (PPO + KL + top-K distillation) for a few weights. */
test('gradient of the loss matches finite differences', () => {
  const policy = Gpt.create(cfg, 7);
  const reference = Gpt.create(cfg, 8);
  const prompts = [
    [1, 2, 3],
    [4, 5],
  ];
  const responses = [
    [6, 7, 8, 9],
    [10, 11, 12],
  ];
  const offsets = [
    [0.05, -0.04, 1.0, 0.03],
    [-0.06, 0.02, 0.04],
  ]; // 1.0: a ratio far outside the band
  const adv = [
    [1, 1, 1, -0.5],
    [-1, 0.7, 2],
  ];
  const samples: TrainSample[] = prompts.map((p, i) => {
    const now = scoreTokens(policy, p, responses[i], 0.8, 3);
    return {
      promptIds: p,
      responseIds: responses[i],
      rolloutLogprobs: now.logprobs.map((lp, t) => lp - offsets[i][t]),
      advantages: adv[i],
      lossMask: responses[i].map((_, t) => (i === 1 && t === 1 ? 0 : 1)),
      // A sharper "teacher": the student's own top-3 ids with shifted log-probs.
      teacherTopK: now.topK?.map((k) => ({ ids: k.ids, logprobs: Array.from(k.logprobs, (x, j) => x + (j === 0 ? 0.2 : -0.3)) })),
    };
  });
  const opts: TrainOptions = {
    loss: { clipRatio: 0.2, clipRatioHigh: 0.28, klCoef: 0.3, entropyCoef: 0.01, distillTopKCoef: 0.5 },
    lr: 0,
    epochs: 1,
    minibatches: 1,
    maxGradNorm: 0,
    weightDecay: 0,
    temperature: 0.8,
  };
  const batch = packBatch(samples, cfg.vocabSize, true);
  const ref = tf.tidy(() => scoreTokensRows(reference, samples, opts.temperature));
  const lossValue = () => tf.tidy(() => lossTerms(policy, batch, opts, ref).loss.dataSync()[0]);
  const vars = policy.variables();
  const { value, grads } = tf.variableGrads(() => lossTerms(policy, batch, opts, ref).loss, vars);
  value.dispose();
  const names = ['wte', 'wpe', 'h.0.attn.wqkv', 'h.1.attn.wproj', 'h.0.mlp.wfc', 'h.1.ln1.g', 'lnf.b'];
  const h = 2e-3;
  let checked = 0;
  for (const name of names) {
    const v = policy.params[name] as tf.Variable;
    const g = grads[v.name].dataSync();
    // The two entries with the largest analytic gradient: well above float32 noise.
    const order = Array.from(g.keys())
      .sort((a, b) => Math.abs(g[b]) - Math.abs(g[a]))
      .slice(0, 2);
    for (const idx of order) {
      const base = v.dataSync().slice() as Float32Array;
      const at = (delta: number) => {
        const w = base.slice();
        w[idx] += delta;
        v.assign(tf.tensor(w, v.shape));
        return lossValue();
      };
      const fd = (at(h) - at(-h)) / (2 * h);
      v.assign(tf.tensor(base, v.shape));
      const tol = 0.03 * Math.abs(g[idx]) + 3e-4;
      if (process.env.SHOW_GRADCHECK !== undefined) console.log(name, idx, g[idx], fd);
      assert.ok(Math.abs(fd - g[idx]) <= tol, `${name}[${idx}]: analytic ${g[idx]} vs finite-difference ${fd}`);
      checked++;
    }
  }
  assert.equal(checked, 2 * names.length);
  tf.dispose(Object.values(grads));
  policy.dispose();
  reference.dispose();
});

function scoreTokensRows(model: Gpt, samples: TrainSample[], T: number): Float32Array {
  const out: number[] = [];
  for (const s of samples) {
    const lp = scoreTokens(model, s.promptIds, s.responseIds, T).logprobs;
    s.lossMask.forEach((m, t) => m > 0 && out.push(lp[t]));
  }
  return Float32Array.from(out);
}

test('AdamW with zero gradient leaves weights unchanged when weight decay is 0', () => {
  const v = tf.variable(
    tf.tensor2d([
      [1, 2],
      [3, 4],
    ]),
  );
  const opt = new AdamW();
  opt.apply({ w: v }, { w: tf.zeros([2, 2]) }, 10, 0);
  assert.deepEqual(Array.from(v.dataSync()), [1, 2, 3, 4]);
  opt.apply({ w: v }, { w: tf.ones([2, 2]) }, 0.1, 0);
  // Step 2: m = 0.1, v = 0.001; m̂ = 0.1/(1−0.9²) = 0.526316, v̂ = 0.001/(1−0.999²) = 0.500250;
  // the weight moves by lr·m̂/√v̂ = 0.1·0.526316/0.707284 = 0.0744137.
  Array.from(v.dataSync()).forEach((x, i) => assert.ok(Math.abs(x - ([1, 2, 3, 4][i] - 0.0744137)) < 1e-5, `w[${i}] = ${x}`));
  assert.equal(opt.step, 2);
  opt.dispose();
  v.dispose();
});
