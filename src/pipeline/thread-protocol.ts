// What ScoringThread (main thread) and its worker (thread-worker.ts) exchange.
import type { TurnJudgement } from '../gateway/index.ts';
import type { Turn, TurnResponse } from '../sessions/index.ts';

/**
 * Nice steps the scoring thread runs below the main thread: enough that serving wins a contended
 * core, not so many that judging starves under sustained load (the embedded trainer uses 10).
 */
export const SCORING_NICE = 5;

/** How the worker is started. */
export interface ScoringThreadArgs {
  storePath: string;
  synchronous: 'FULL' | 'NORMAL';
  logLevel: string;
  /** How often the worker sends its numbers for /metrics and /healthz. */
  statsIntervalMs: number;
}

/** The part of a Turn the pipeline reads (the prefix hashes stay behind). */
export type IntakeTurn = Pick<Turn, 'sessionId' | 'turnId' | 'messages' | 'tools' | 'nextState' | 'noNextStateReason'> & {
  response?: PackedResponse;
};

const ID_ARRAYS = ['promptIds', 'responseIds', 'logprobMask'] as const;

/** A TurnResponse whose number arrays travel as typed arrays: copied as bytes, not value by value. */
export type PackedResponse = Omit<TurnResponse, (typeof ID_ARRAYS)[number] | 'logprobs' | 'promptIdsJson'> & {
  promptIds?: Int32Array;
  responseIds?: Int32Array;
  logprobMask?: Int32Array;
  logprobs?: Float64Array;
};

/** The intake form of a turn, and the buffers to transfer with it. */
export function packTurn(turn: Turn): { turn: IntakeTurn; transfer: ArrayBuffer[] } {
  const { sessionId, turnId, messages, tools, response, nextState, noNextStateReason } = turn;
  const transfer: ArrayBuffer[] = [];
  let packed: PackedResponse | undefined;
  if (response !== undefined) {
    // promptIdsJson stays behind: only the records file (main thread) reads it.
    const { promptIds, responseIds, logprobMask, logprobs, promptIdsJson: _json, ...rest } = response;
    const keep = <T extends Int32Array | Float64Array>(t: T): T => (transfer.push(t.buffer as ArrayBuffer), t);
    const ints = (a: number[] | undefined) => (a === undefined ? undefined : keep(Int32Array.from(a)));
    packed = {
      ...rest,
      promptIds: ints(promptIds),
      responseIds: ints(responseIds),
      logprobMask: ints(logprobMask),
      logprobs: logprobs && keep(Float64Array.from(logprobs)),
    };
  }
  return { turn: { sessionId, turnId, messages, tools, response: packed, nextState, noNextStateReason }, transfer };
}

/** The Turn the pipeline takes, from its intake form. */
export function unpackTurn(t: IntakeTurn): Turn {
  const r = t.response;
  const list = (a: Int32Array | Float64Array | undefined) => (a === undefined ? undefined : Array.from(a));
  const response: TurnResponse | undefined = r && {
    ...r,
    promptIds: list(r.promptIds),
    responseIds: list(r.responseIds),
    logprobMask: list(r.logprobMask),
    logprobs: list(r.logprobs),
  };
  return { ...t, response, prefix: [], startedAt: 0, finalized: true, failed: false };
}

/** One queued piece of intake, in order. */
export type IntakeItem = { kind: 'turn'; turn: IntakeTurn } | { kind: 'closed'; sessionId: string };

/** The pipeline's numbers. */
export interface ScoringStats {
  gauges: Record<string, number>;
  health: Record<string, unknown>;
}

/** worker → main, unasked. */
export type ScoringEvent =
  | { kind: 'judge'; sessionId: string; turnId: number; judgement: TurnJudgement }
  | { kind: 'stats'; stats: ScoringStats }
  | { kind: 'log'; record: Record<string, unknown> };
