import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddedEngine } from './engine.ts';

const cfg = { vocabSize: 40, dModel: 16, nLayer: 1, nHead: 2, ctx: 48 };
const prompt = [1, 2, 3];

test('the sampled stop token and its log-prob end the result (includeStopToken defaults to true)', async () => {
  const engine = await EmbeddedEngine.create(cfg, { seed: 2 });
  try {
    const req = { promptIds: prompt, maxTokens: 30, temperature: 1, seed: 5 };
    const free = await engine.generate(req);
    // Make the 4th sampled token a stop token: same seed, so the same draws up to there.
    const stopId = free.tokenIds[3];
    const cut = free.tokenIds.indexOf(stopId);
    const streamed: number[] = [];
    const stopped = await engine.generate({ ...req, stopTokenIds: [stopId] }, (id) => streamed.push(id));
    assert.equal(stopped.finishReason, 'stop');
    assert.deepEqual(stopped.tokenIds, free.tokenIds.slice(0, cut + 1));
    assert.deepEqual(stopped.logprobs, free.logprobs.slice(0, cut + 1));
    assert.deepEqual(streamed, stopped.tokenIds);
    const scored = await engine.score({ promptIds: prompt, responseIds: stopped.tokenIds, temperature: 1 });
    assert.ok(
      Math.abs(scored.logprobs[cut] - stopped.logprobs[cut]) < 1e-5,
      'the stop token log-prob is the policy log-prob of that token',
    );

    const without = await engine.generate({ ...req, stopTokenIds: [stopId], includeStopToken: false });
    assert.equal(without.finishReason, 'stop');
    assert.deepEqual(without.tokenIds, free.tokenIds.slice(0, cut));
  } finally {
    await engine.close();
  }
});
