// A policy that echoes a key: the answer is never a training sample, whatever the judge says
// (issue 38: `secret_in_response`), on the main thread and in the scoring worker thread; the
// session's other turns train as usual.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { outcomeOf, runSession, startScoring, type ScoringHarness } from './helpers.ts';

// Built at run time, so no key-shaped literal sits in the source.
const KEY = `sk-proj-${'Qm7xR2pL9vT4'.repeat(4)}`;

for (const thread of [false, true]) {
  describe(thread ? 'scoring in the worker thread' : 'scoring on the main thread', () => {
    let h: ScoringHarness;
    before(async () => {
      h = await startScoring({ mode: 'openclaw-rl', thread });
    });
    after(async () => {
      await h.close();
    });

    test('an answer that echoes an API key is dropped as secret_in_response; the next answer trains', async () => {
      await runSession(
        h,
        'echo-1',
        ['What is my OpenAI key? I pasted it earlier.', 'Thanks, that works now!', 'Great, bye.'],
        [`Your key is ${KEY}. Keep it safe.`, 'Glad it works.', 'Bye!'],
      );
      await h.server.pipeline.whenIdle();
      assert.equal(outcomeOf(h, 'echo-1', 1), 'dropped:secret_in_response');
      assert.equal(outcomeOf(h, 'echo-1', 2), 'sample');
      const health = await (await fetch(`${h.url}/healthz`)).json();
      assert.equal(JSON.stringify(health).includes(KEY), false, '/healthz never shows the key');
    });
  });
}
