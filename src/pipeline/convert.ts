// Conversions between the tracker's Turn, the store's PendingTurn and the inputs of the judges
// and the mode logic. The PendingTurn is the durable form: after a restart everything is rebuilt
// from it, so it carries the request's tools and any feedback in `extra`.
import type { ChatMessage } from '../engines/types.ts';
import type { FinishedTurn } from '../methods/index.ts';
import type { JudgedNextState, JudgedTurnInput } from '../scoring/index.ts';
import type { PendingTurn } from '../samples/index.ts';
import { contentText, type Turn } from '../sessions/index.ts';
import { hasPersonalData, hasSecret } from '../privacy/index.ts';
import type { Feedback } from './types.ts';

/** A message's text as training would see it: its content, its reasoning and its tool-call arguments. */
function answerText(m: ChatMessage): string {
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls.map((tc) => JSON.stringify(tc.function ?? tc)).join('\n') : '';
  const reasoning = typeof m.reasoning_content === 'string' ? m.reasoning_content : '';
  return `${contentText(m.content)}\n${reasoning}\n${calls}`;
}

/**
 * Why a turn cannot be trained before any judging, or null when it can: an answer that holds a
 * secret (a key the policy echoed, whatever a judge would say: training on it teaches the key),
 * or token data that is missing or padded.
 */
export function tokenDataProblem(turn: Turn): string | null {
  const r = turn.response;
  if (r === undefined) return 'no_token_data';
  if (hasSecret(answerText(r.message))) return 'secret_in_response';
  const ids = r.responseIds;
  if (r.promptIds === undefined || r.promptIds.length === 0 || ids === undefined || ids.length === 0) return 'no_token_data';
  if (r.logprobs === undefined || r.logprobs.length !== ids.length) return 'no_token_data';
  // A padded position carries log-prob 0 (probability 1) and a sample has no per-token mask.
  if (r.logprobMask !== undefined && r.logprobMask.some((m) => m === 0)) return 'padded_logprobs';
  return null;
}

/** True when the turn's prompt (every message's text and tool-call arguments) holds a secret. */
export function promptHasSecret(turn: Turn): boolean {
  return turn.messages.some((m) => hasSecret(answerText(m)));
}

/** True when the turn's prompt or answer holds personal data (privacy.mode: strict). */
export function turnHasPersonalData(turn: Turn): boolean {
  return (
    turn.messages.some((m) => hasPersonalData(answerText(m))) ||
    (turn.response !== undefined && hasPersonalData(answerText(turn.response.message)))
  );
}

/**
 * The durable pending form of a finalised turn; token arrays are empty when the turn has none.
 * `problem`: why it cannot be trained (default: its token data's problem, if any).
 */
export function toPendingTurn(turn: Turn, feedback: Feedback | undefined, now: number, problem = tokenDataProblem(turn)): PendingTurn {
  const r = turn.response!;
  const complete = problem === null;
  const tools = Array.isArray(turn.tools) ? turn.tools : undefined;
  return {
    sessionId: turn.sessionId,
    turnId: turn.turnId!,
    policyVersion: r.policyVersion,
    promptMessages: turn.messages,
    // Shared, not copied: a finished turn's token data is never changed (16k prompt ids are common).
    promptIds: complete ? r.promptIds! : [],
    responseText: contentText(r.message.content),
    responseIds: complete ? r.responseIds! : [],
    rolloutLogprobs: complete ? r.logprobs! : [],
    toolCalls: Array.isArray(r.message.tool_calls) && r.message.tool_calls.length > 0 ? r.message.tool_calls : null,
    nextState: turn.nextState ? [{ role: turn.nextState.role, content: turn.nextState.content }] : null,
    createdAt: now,
    extra: {
      tools: tools ?? null,
      next_state_reason: turn.nextState ? null : (turn.noNextStateReason ?? null),
      feedback: feedback ?? null,
      token_problem: problem,
    },
  };
}

/** The request's tools as stored in `extra`. */
export function toolsOf(p: PendingTurn): unknown[] | undefined {
  const tools = p.extra?.tools;
  return Array.isArray(tools) && tools.length > 0 ? tools : undefined;
}

/** Feedback stored with a pending turn (given before it was acknowledged), if any. */
export function storedFeedback(p: PendingTurn): Feedback | undefined {
  const f = p.extra?.feedback as Feedback | null | undefined;
  return f !== null && f !== undefined && typeof f.score === 'number' ? f : undefined;
}

/** The next state as one message, or null when the turn got none. */
export function nextStateOf(p: PendingTurn): JudgedNextState | null {
  if (p.nextState === null || p.nextState.length === 0) return null;
  const roleOf = (m: ChatMessage) => (m.role === 'tool' ? 'tool' : 'user');
  if (p.nextState.length === 1) return { role: roleOf(p.nextState[0]), content: p.nextState[0].content ?? '' };
  const allTool = p.nextState.every((m) => m.role === 'tool');
  return {
    role: allTool ? 'tool' : 'user',
    content: p.nextState.map((m) => (allTool ? contentText(m.content) : `[${m.role}] ${contentText(m.content)}`)).join('\n\n'),
  };
}

/** What the judges read about a turn that has a next state. */
export function judgeInput(p: PendingTurn): JudgedTurnInput | null {
  const next = nextStateOf(p);
  if (next === null) return null;
  return { promptMessages: p.promptMessages, responseText: p.responseText, responseToolCalls: p.toolCalls ?? [], nextState: next };
}

/** The mode logic's view of a turn; feedback counts as evidence that something followed it. */
export function finishedTurn(p: PendingTurn, hasFeedback: boolean): FinishedTurn {
  return {
    sessionId: p.sessionId,
    turnId: p.turnId,
    policyVersion: p.policyVersion,
    promptIds: p.promptIds,
    responseIds: p.responseIds,
    rolloutLogprobs: p.rolloutLogprobs,
    hasNextState: p.nextState !== null || hasFeedback,
  };
}
