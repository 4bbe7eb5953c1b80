// The kill test of forget (issue 38), short: 6 rounds of plant, forget, SIGKILL at a random moment,
// restart (`npm run bench:forget-kill` runs it long). Nothing of a forgotten session is left under
// the output folder, and no kept session lost a turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runForgetKill } from '../support/forget-kill.ts';

test('forget survives SIGKILL at any point: no marker left anywhere, no other turn lost', { timeout: 240_000 }, async () => {
  const r = await runForgetKill({ rounds: 6, seed: 3 });
  assert.deepEqual(r.leaks, []);
  assert.deepEqual(r.lost, []);
  assert.equal(r.rounds, 6);
});
