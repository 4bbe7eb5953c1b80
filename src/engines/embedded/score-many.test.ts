import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../../errors/index.ts';
import { EmbeddedEngine } from './engine.ts';

test('scoreTrainedMany: the log-probs scoreTrained gives each answer, in request order, several answers per forward pass', async () => {
  const engine = await EmbeddedEngine.create({ vocabSize: 40, ctx: 64, nLayer: 2, nHead: 2, dModel: 16 }, { seed: 3 });
  try {
    // Lengths that differ (padding), one empty answer, more answers than one forward pass takes.
    const reqs = Array.from({ length: 11 }, (_, i) => ({
      promptIds: Array.from({ length: 2 + ((i * 5) % 9) }, (_, k) => (k * 7 + i) % 40),
      responseIds: i === 4 ? [] : Array.from({ length: 1 + ((i * 3) % 7) }, (_, k) => (k * 11 + i * 2) % 40),
      temperature: 0.7,
    }));
    const many = await engine.scoreTrainedMany(reqs);
    for (const [i, r] of reqs.entries()) {
      const one = (await engine.scoreTrained(r)).logprobs;
      assert.equal(many[i].length, one.length);
      for (let t = 0; t < one.length; t++)
        assert.ok(Math.abs(many[i][t] - one[t]) < 1e-4, `answer ${i} token ${t}: ${many[i][t]} vs ${one[t]}`);
    }
    await assert.rejects(
      engine.scoreTrainedMany([reqs[0], { ...reqs[1], temperature: 1 }]),
      (e: unknown) => e instanceof OpenClawError && /same temperature/.test(e.message),
    );
  } finally {
    await engine.close();
  }
});
