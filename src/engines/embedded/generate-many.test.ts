import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddedEngine } from './engine.ts';

const close = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) < 1e-4);

test('generateTrainedMany: each answer as generateTrained gives it (same seed, same tokens), several decoded per pass', async () => {
  const engine = await EmbeddedEngine.create({ vocabSize: 40, ctx: 48, nLayer: 2, nHead: 2, dModel: 16 }, { seed: 4 });
  try {
    for (const temperature of [0, 1]) {
      // Prompts of different lengths; answers that stop at different points or run to max_tokens;
      // one prompt near the end of the context (it stops for length there).
      const reqs = [3, 9, 1, 5, 44].map((n, i) => ({
        promptIds: Array.from({ length: n }, (_, k) => (k * 13 + i * 7 + 1) % 40),
        maxTokens: i === 2 ? 0 : 6 + i * 3,
        temperature,
        stopTokenIds: [7, 11],
        seed: 100 + i,
      }));
      const many = await engine.generateTrainedMany(reqs);
      for (const [i, r] of reqs.entries()) {
        const one = await engine.generateTrained(r);
        assert.deepEqual(many[i].tokenIds, one.tokenIds, `T=${temperature} answer ${i}`);
        assert.ok(close(many[i].logprobs, one.logprobs), `T=${temperature} answer ${i}: ${many[i].logprobs} vs ${one.logprobs}`);
        assert.equal(many[i].finishReason, one.finishReason, `T=${temperature} answer ${i}`);
      }
    }
  } finally {
    await engine.close();
  }
});
