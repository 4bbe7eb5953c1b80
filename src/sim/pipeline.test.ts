// The simulated user against the real RL server (scripted policy, the offline rules judge,
// openclaw-combine): the persona's complaint with a correction trains the first answer with
// r = −1 and the correction as hint, its thanks trains the redo with r = +1, the closing turn
// yields nothing, and held-out evaluation leaves no trace in the store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { outcomeOf, samplesByTurn, startScoring, type ScoringHarness } from '../../test/pipeline/helpers.ts';
import { Rng } from '../rl/index.ts';
import { runEpisode } from './episode.ts';
import { evaluatePersona } from './evaluate.ts';
import { PERSONAS } from './personas.ts';
import { CORRECTIONS } from './phrases.ts';
import { TRAIN_TASKS } from './tasks.ts';

const MARKDOWN = 'Here is how.\n1. **Boil water.** Use a big pot.\n2. **Add pasta.** Stir it.';
const PLAIN = 'Boil salted water, cook the pasta for about ten minutes, then drain it.';

let h: ScoringHarness;
before(async () => {
  h = await startScoring({ mode: 'openclaw-combine' });
});
after(async () => {
  await h.close();
});

test('an episode through the gateway becomes an opd+rl sample with the correction as hint and an rl sample for the thanks', async () => {
  h.policy.script({ kind: 'text', text: MARKDOWN }, { kind: 'text', text: PLAIN }, { kind: 'text', text: 'Glad to help.' });
  // Seed 2: the first complaint carries a concrete correction.
  const result = await runEpisode({
    baseUrl: `${h.url}/v1`,
    model: 'policy',
    persona: PERSONAS['no-markdown'],
    task: TRAIN_TASKS[0],
    sessionId: 'sim-1',
    rng: new Rng(2),
  });
  const correction = result.turns[0].reply.correction;
  assert.ok(correction !== null && CORRECTIONS.markdown.includes(correction), `a markdown correction: ${correction}`);
  assert.deepEqual(result.ratings, [0, 1]);
  await h.server.pipeline.whenIdle();
  const s = samplesByTurn(h, 'sim-1');
  const t1 = s.get(1)!;
  assert.deepEqual([t1.type, t1.reward, t1.lossMask, t1.hint], ['opd+rl', -1, 1, correction]);
  const t2 = s.get(2)!;
  assert.deepEqual([t2.type, t2.reward, t2.lossMask, t2.hint], ['rl', 1, 1, null]);
  assert.equal(outcomeOf(h, 'sim-1', 3), 'dropped:no_next_state', 'the closing turn never trains');
});

test('held-out evaluation goes through the gateway as side turns and records nothing', async () => {
  h.policy.fallback = { kind: 'text', text: PLAIN };
  const counters = h.server.tracker.counters;
  const [main, side] = [counters.main_turns, counters.side_turns];
  const result = await evaluatePersona({ baseUrl: h.url, model: 'policy', persona: PERSONAS['no-markdown'], samples: 4 });
  assert.deepEqual([result.mean, result.n], [1, 4]);
  assert.deepEqual([counters.main_turns - main, counters.side_turns - side], [0, 4]);
});
