import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Turn } from '../sessions/index.ts';
import { SessionViews } from './views.ts';

function turn(sessionId: string, turnId: number): Turn {
  return {
    sessionId,
    turnId,
    messages: [],
    prefix: [],
    startedAt: 0,
    completedAt: 1,
    finalized: false,
    failed: false,
    response: { message: { role: 'assistant', content: `answer ${turnId}` }, finishReason: 'stop', policyVersion: 0 },
    nextState: { role: 'user', content: `reply to ${turnId}`, messages: 1 },
  };
}

test('a long session keeps only its newest turns in memory; the kept ones still get next states and judgements', () => {
  const views = new SessionViews(10, 3);
  for (let id = 1; id <= 5; id++) views.turnCompleted(turn('long', id));
  assert.deepEqual(
    views.turns('long')!.map((t) => t.turn_id),
    [3, 4, 5],
  );
  views.turnFinalized(turn('long', 1)); // dropped: nothing to update, no error
  views.turnFinalized(turn('long', 4));
  views.judge('long', 2, { score: 1, votes: [1], loss_mask: 1, hint_accepted: false, hint: null, sample_type: 'rl' });
  views.judge('long', 5, { score: -1, votes: [-1], loss_mask: 1, hint_accepted: false, hint: null, sample_type: 'rl' });
  assert.deepEqual(
    views.turns('long')!.map((t) => t.next_state),
    ['pending', { role: 'user', content: 'reply to 4' }, 'pending'],
  );
  assert.deepEqual(
    views.judgedTurns('long').map((t) => [t.turn_id, t.score]),
    [[5, -1]],
  );
});

test('only the most recently active sessions are kept', () => {
  const views = new SessionViews(2, 10);
  views.turnCompleted(turn('a', 1));
  views.turnCompleted(turn('b', 1));
  views.turnCompleted(turn('a', 2)); // a is now the most recent
  views.turnCompleted(turn('c', 1));
  assert.deepEqual(views.sessionIds(), ['a', 'c']);
  assert.equal(views.turns('b'), undefined);
  assert.deepEqual(
    views.turns('a')!.map((t) => t.turn_id),
    [1, 2],
  );
});
