// Test support: finalised turns built by hand, as the session tracker emits them.
import type { NoNextStateReason, Turn } from '../../src/sessions/index.ts';

/** Turn `turnId` of a session with next state `next` (null: none, for `reason`); `tokens` false leaves out the response's token data. */
export function finalizedTurn(
  sessionId: string,
  turnId: number,
  next: string | null,
  reason: NoNextStateReason = 'session_done',
  tokens = true,
): Turn {
  return {
    sessionId,
    turnId,
    messages: [{ role: 'user', content: `question ${turnId}` }],
    prefix: [],
    startedAt: 0,
    completedAt: 1,
    response: {
      message: { role: 'assistant', content: `answer ${turnId}` },
      finishReason: 'stop',
      promptIds: [1, 2],
      responseIds: tokens ? [10 + turnId, 20 + turnId] : undefined,
      logprobs: tokens ? [-0.5, -0.25] : undefined,
      policyVersion: 3,
    },
    nextState: next === null ? null : { role: 'user', content: next, messages: 1 },
    noNextStateReason: next === null ? reason : undefined,
    finalized: true,
    failed: false,
  };
}
