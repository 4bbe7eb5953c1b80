import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from '../../engines/embedded/backend.ts';
import { Gpt } from '../../engines/embedded/model.ts';
import { trainLogprobs } from '../../engines/embedded/train.ts';
import { learnerLogprobs } from './head.ts';
import { packDatums, type LearnerDatum } from './learner.ts';

/** Values and gradients of Σ c_r·lp_r through the plain head and the chunked one. */
function run(model: Gpt, datums: LearnerDatum[], coef: Float32Array, chunkRows?: number) {
  const batch = packDatums(datums, model.config.vocabSize);
  let values: Float32Array = new Float32Array();
  const { value, grads } = tf.variableGrads(() => {
    const lp = chunkRows === undefined ? trainLogprobs(model, batch, 1).chosen : learnerLogprobs(model, batch, chunkRows);
    values = lp.dataSync() as Float32Array;
    return tf.sum(tf.mul(lp, tf.tensor1d(coef))) as tf.Scalar;
  }, model.variables());
  value.dispose();
  const g = Object.fromEntries(Object.entries(grads).map(([k, t]) => [k, t.dataSync() as Float32Array]));
  tf.dispose(Object.values(grads));
  return { values, grads: g };
}

for (const tie of [true, false]) {
  test(`chunked head (${tie ? 'tied' : 'separate head'}): the same log-probs and gradients as the plain head, rows with zero gradient skipped`, async () => {
    await initBackend();
    const model = Gpt.create({ vocabSize: 53, dModel: 8, nLayer: 1, nHead: 2, ctx: 32, tieEmbeddings: tie }, 3);
    const datums: LearnerDatum[] = [
      { input: [1, 5, 9, 2, 7, 3], targets: [5, 9, 2, 7, 3, 11] },
      { input: [4, 4, 8, 52], targets: [4, 8, 52, 0] },
    ];
    // Prompt-like rows (coefficient 0) next to response rows, a negative one among them.
    const coef = Float32Array.from([0, 0, 0, 1, -0.5, 2, 0, 0.25, 1, 0]);
    const plain = run(model, datums, coef);
    for (const rows of [1, 3, 64]) {
      const chunked = run(model, datums, coef, rows);
      for (let i = 0; i < plain.values.length; i++)
        assert.ok(Math.abs(plain.values[i] - chunked.values[i]) < 1e-5, `value ${i}, ${rows} rows`);
      for (const [name, g] of Object.entries(plain.grads)) {
        const c = chunked.grads[name];
        assert.ok(c !== undefined, name);
        let maxDiff = 0;
        for (let i = 0; i < g.length; i++) maxDiff = Math.max(maxDiff, Math.abs(g[i] - c[i]));
        assert.ok(maxDiff < 1e-5, `${name}: max |Δ| ${maxDiff} with ${rows} rows per chunk`);
      }
    }
    model.dispose();
  });
}
