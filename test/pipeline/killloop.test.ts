// A short kill loop (the full one is `npm run bench:killloop`): SIGKILLs at random moments while
// sessions continue across restarts; every answered turn ends as one sample or one drop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runKillLoop } from '../support/killloop.ts';

test('kill loop: 4 SIGKILLs at random moments, sessions going on across restarts, a slow judge: 0 lost, 0 twice', {
  timeout: 60_000,
}, async () => {
  const r = await runKillLoop({ kills: 4, sessions: 3, seed: 7, judgeDelayMs: 200, minUpMs: 300, maxUpMs: 900 });
  assert.deepEqual(r.lost, [], 'no turn lost');
  assert.deepEqual(r.twice, [], 'no turn twice');
  assert.ok(r.acked >= 8, `the clients got answers across the restarts (${r.acked})`);
  assert.ok(r.journalTurns >= r.acked, `every answered turn is in the journal (${r.journalTurns} lines, ${r.acked} answers)`);
});
