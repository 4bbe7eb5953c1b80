// The at-least-one hold machine on its own: which decided turns wait, what a trainable turn
// releases, when a closed session is finished, and that finished sessions leave no state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AtLeastOneHolds } from './holds.ts';
import { finishSession } from './session.ts';
import type { Decision } from './types.ts';

function sample(turnId: number, lossMask: 0 | 1, judged = true): Decision {
  const s = {
    id: `s:${turnId}`,
    sessionId: 's',
    turnId,
    policyVersion: 0,
    promptIds: [1],
    responseIds: [2],
    rolloutLogprobs: [-0.5],
    lossMask,
    reward: lossMask,
    teacherLogprobs: null,
    teacherTopK: null,
    type: 'rl' as const,
    votes: [],
    hint: null,
    createdAt: 0,
  };
  return { kind: 'sample', sample: s, judged, promoted: false };
}
const drop = (turnId: number): Decision => ({ kind: 'drop', sessionId: 's', turnId, reason: 'no_signal', judged: true });

test('holds: judged mask-0 samples wait; unjudged samples and drops resolve at once', () => {
  const h = new AtLeastOneHolds<string>(true);
  h.track('s');
  assert.deepEqual(h.decided('s', 2, 't2', sample(2, 0)), { hold: true });
  assert.deepEqual(h.decided('s', 1, 't1', sample(1, 0)), { hold: true });
  assert.deepEqual(h.decided('s', 3, 't3', sample(3, 0, false)), { hold: false, released: [] });
  assert.deepEqual(h.decided('s', 4, 't4', drop(4)), { hold: false, released: [] });
  assert.equal(h.heldTurn('s', 1), 't1');
  assert.equal(h.heldTurn('s', 3), undefined);
});

test('holds: a trainable turn releases every held turn in turn order, and later mask-0 turns are not held', () => {
  const h = new AtLeastOneHolds<string>(true);
  h.track('s');
  h.decided('s', 3, 't3', sample(3, 0));
  h.decided('s', 1, 't1', sample(1, 0));
  assert.deepEqual(h.decided('s', 2, 't2', sample(2, 1)), { hold: false, released: ['t1', 't3'] });
  assert.equal(h.heldTurn('s', 1), undefined);
  assert.deepEqual(h.decided('s', 4, 't4', sample(4, 0)), { hold: false, released: [] });
});

test('holds: a held turn decided again (feedback) can leave the hold', () => {
  const h = new AtLeastOneHolds<string>(true);
  h.track('s');
  h.decided('s', 1, 't1', sample(1, 0));
  assert.deepEqual(h.decided('s', 1, 't1', drop(1)), { hold: false, released: [] });
  assert.equal(h.heldTurn('s', 1), undefined);
});

test('holds: a closed session is finished only once none of its turns is in flight, then forgotten', () => {
  const h = new AtLeastOneHolds<number>(true);
  h.track('s');
  h.decided('s', 2, 2, sample(2, 0));
  assert.equal(h.finish('s', 0), null, 'still open');
  h.close('s');
  assert.equal(h.finish('s', 1), null, 'a turn is still being judged');
  h.decided('s', 1, 1, sample(1, 0));
  assert.equal(h.size, 1);
  assert.deepEqual(h.finish('s', 0), [1, 2]);
  assert.equal(h.size, 0);
  assert.equal(h.finish('s', 0), null, 'finished once');
  // What the caller does with them: the session rule promotes the first.
  const promoted = finishSession([sample(1, 0), sample(2, 0)], { mode: 'openclaw-rl', flags: { atLeastOne: true } });
  assert.deepEqual(
    promoted.map((d) => (d.kind === 'sample' ? d.sample.lossMask : null)),
    [1, 0],
  );
});

test('holds: a restored session is closed with the trainable flag it had; untracked and disabled hold nothing', () => {
  const h = new AtLeastOneHolds<string>(true);
  h.restore('old', true);
  assert.deepEqual(h.decided('old', 5, 't5', sample(5, 0)), { hold: false, released: [] }, 'already trainable');
  assert.deepEqual(h.finish('old', 0), []);
  h.restore('old2', false);
  assert.deepEqual(h.decided('old2', 1, 't1', sample(1, 0)), { hold: true });
  assert.deepEqual(h.finish('old2', 0), ['t1'], 'restored sessions count as closed');

  assert.deepEqual(h.decided('never', 1, 'x', sample(1, 0)), { hold: false, released: [] }, 'untracked session');
  h.close('never');
  assert.equal(h.finish('never', 0), null);

  const off = new AtLeastOneHolds<string>(false);
  off.track('s');
  off.restore('r', false);
  assert.equal(off.size, 0);
  assert.deepEqual(off.decided('s', 1, 'x', sample(1, 0)), { hold: false, released: [] });
});
