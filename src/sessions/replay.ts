// Start-up replay of the turn journal: the journal is the source of truth, the sample store a
// view of it that may lag by the turns that were in flight when the process died. Replay streams
// the journal from the store's checkpoint (the position before which the store is known to hold
// every turn line) to its end, one line at a time, and finds:
//  - turns with a next state (or a recorded absence of one) that the store does not hold: handed
//    to `onFinished` as they are found (the app stores them as pending turns, which the pipeline
//    then judges like any turn a previous process left pending), so memory does not grow with them;
//  - the last turn of each session still waiting for its next state: restored into the tracker,
//    so that the session's next request, arriving after the restart, finalises it;
//  - the highest turn number per session seen, so numbering continues.
// A waiting turn followed by a later turn line of its session can never get a next state (a
// journal written by a version without replay): it is finalised with reason `restart`.
import type { ChatMessage } from '../engines/types.ts';
import { prefixHashes } from './canonical.ts';
import { readJournal, scanHeads, type JournalReadStats, type RecordedTurn } from './records.ts';
import type { JournalPosition } from './segments.ts';
import type { Turn } from './tracker.ts';
import { turnKey } from '../rl/index.ts';

/** What replay asks the sample store. */
export interface ReplayStore {
  hasTurn(sessionId: string, turnId: number): boolean;
}

/** A replayed turn and where its `turn` line starts. */
export interface ReplayedTurn {
  turn: Turn;
  at: JournalPosition;
}

/** What replay found (see the file header). */
export interface ReplayResult {
  /** How many finished turns the store lacked (each was handed to `onFinished`). */
  requeued: number;
  open: ReplayedTurn[];
  lastTurnIds: Map<string, number>;
  stats: JournalReadStats & { turns: number; ms: number };
}

/** The tracker's Turn of a recorded turn (prefix hashes only when `withPrefix`: restored turns need them for matching). */
export function turnOfRecord(rec: RecordedTurn, withPrefix: boolean): Turn {
  const messages = rec.messages as ChatMessage[];
  const turn: Turn = {
    sessionId: rec.session_id,
    turnId: rec.turn_id,
    messages,
    prefix: withPrefix ? prefixHashes(messages) : [],
    tools: rec.tools,
    startedAt: Date.parse(rec.started_at),
    completedAt: Date.parse(rec.completed_at),
    response: {
      message: rec.response as ChatMessage,
      finishReason: rec.finish_reason,
      promptText: rec.prompt_text,
      promptIds: rec.prompt_ids,
      responseIds: rec.response_ids,
      logprobs: rec.logprobs,
      logprobMask: rec.logprob_mask,
      policyVersion: rec.policy_version,
      tokenWarnings: rec.token_warnings,
    },
    finalized: rec.next_state !== undefined,
    failed: false,
  };
  if (rec.next_state !== undefined) {
    const ns = rec.next_state;
    turn.nextState = ns === null ? null : { role: ns.role === 'tool' ? 'tool' : 'user', content: ns.content, messages: 1 };
    if (ns === null) turn.noNextStateReason = (rec.next_state_reason ?? 'restart') as Turn['noNextStateReason'];
  }
  return turn;
}

/** Replays the journal whose active segment is `active` from `from` (the start when undefined). */
export function replayJournal(
  active: string,
  from: JournalPosition | undefined,
  store: ReplayStore,
  onFinished: (turn: Turn, at: JournalPosition) => void,
): ReplayResult {
  const t0 = performance.now();
  const stats = { skipped: 0, bytes: 0, turns: 0, ms: 0 };
  const waiting = new Map<string, { rec: RecordedTurn; at: JournalPosition }>();
  const waitingOf = new Map<string, string>(); // session → key of its waiting turn
  let requeued = 0;
  const lastTurnIds = new Map<string, number>();
  const finished = (rec: RecordedTurn, at: JournalPosition) => {
    if (store.hasTurn(rec.session_id, rec.turn_id)) return;
    requeued++;
    onFinished(turnOfRecord(rec, false), at);
  };
  // First the line heads only: the turn numbers, and which sessions have a turn the store lacks
  // (finished or waiting). Only those sessions' lines are parsed and rebuilt after.
  const wanted = new Set<string>();
  let unknownHeads = false;
  scanHeads(active, from, (head) => {
    if (head === undefined) unknownHeads = true;
    else if (head.type === 'turn') {
      stats.turns++;
      lastTurnIds.set(head.session, Math.max(lastTurnIds.get(head.session) ?? 0, head.turnId));
      if (!wanted.has(head.session) && !store.hasTurn(head.session, head.turnId)) wanted.add(head.session);
    }
  });
  for (const e of readJournal(active, from, stats, unknownHeads ? undefined : wanted)) {
    if (e.type === 'turn') {
      const rec = e.turn;
      lastTurnIds.set(rec.session_id, Math.max(lastTurnIds.get(rec.session_id) ?? 0, rec.turn_id));
      const older = waitingOf.get(rec.session_id);
      if (older !== undefined && waiting.has(older)) {
        const w = waiting.get(older)!;
        waiting.delete(older);
        w.rec.next_state = null;
        w.rec.next_state_reason = 'restart';
        finished(w.rec, w.at);
      }
      const key = turnKey(rec.session_id, rec.turn_id);
      waiting.set(key, { rec, at: e.at });
      waitingOf.set(rec.session_id, key);
    } else {
      const key = turnKey(e.line.session_id, e.line.turn_id);
      const w = waiting.get(key);
      if (w === undefined) continue; // its turn line is before `from`: the store holds it
      waiting.delete(key);
      w.rec.next_state = e.line.next_state;
      if (e.line.reason !== undefined) w.rec.next_state_reason = e.line.reason;
      finished(w.rec, w.at);
    }
  }
  stats.ms = performance.now() - t0;
  return {
    requeued,
    open: [...waiting.values()].map((w) => ({ turn: turnOfRecord(w.rec, true), at: w.at })),
    lastTurnIds,
    stats,
  };
}
