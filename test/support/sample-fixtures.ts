// Builders of small, distinct pending turns and samples for the store's tests.
import type { PendingTurn } from '../../src/samples/store-types.ts';
import type { Sample } from '../../src/samples/types.ts';

/** A pending turn whose numbers depend on (sessionId, turnId), so mix-ups show. */
export function makeTurn(sessionId: string, turnId: number, over: Partial<PendingTurn> = {}): PendingTurn {
  return {
    sessionId,
    turnId,
    policyVersion: 3,
    promptMessages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: `question ${turnId}` },
    ],
    promptIds: [151644, 8948, turnId, -1 + 2 ** 31],
    responseText: `answer ${turnId}`,
    responseIds: [9707, turnId + 100],
    rolloutLogprobs: [-0.1 * (turnId + 1), -2.302585092994046],
    toolCalls: null,
    nextState: [{ role: 'user', content: 'thanks!' }],
    createdAt: 1_700_000_000_000 + turnId,
    extra: null,
    ...over,
  };
}

/** A ready-to-store RL sample for (sessionId, turnId). */
export function makeSample(sessionId: string, turnId: number, over: Partial<Sample> = {}): Sample {
  return {
    id: `${sessionId}:${turnId}`,
    sessionId,
    turnId,
    policyVersion: 3,
    promptIds: [1, 2, turnId],
    responseIds: [7, 8, 9],
    rolloutLogprobs: [-0.5, -1e-300, -0.25 - turnId],
    lossMask: 1,
    reward: 1,
    teacherLogprobs: null,
    teacherTopK: null,
    type: 'rl',
    votes: [1, 1, 'fail'],
    hint: null,
    createdAt: 1_700_000_000_000 + turnId,
    ...over,
  };
}
