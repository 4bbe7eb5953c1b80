// SessionTracker: which session a request belongs to, main vs side turns, turn numbering, the
// next state of each turn, and session end (done, idle expiry, LRU cap). It owns no I/O: it
// reports completed and finalised turns through listeners (records, scoring).
//
// Session resolution, strongest first: explicit id (header/body) → client hint (OpenClaw runtime
// sessionId, prompt_cache_key) → longest recorded-history prefix of the message list (hash index)
// → traceparent trace id of an earlier request → a new inferred session. Per request this costs one
// hash pass over the messages and one map lookup per message, whatever the number of sessions.
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../engines/types.ts';
import { extendHash, EMPTY_PREFIX_HASH } from './canonical.ts';
import type { SessionHints } from './hints.ts';
import { nextStateFrom, type NextState } from './nextState.ts';

/** How the session of a request was determined. */
export type SessionSource = 'explicit' | 'runtime_hint' | 'prompt_cache_key' | 'prefix' | 'trace' | 'new' | 'anonymous';

/** Why a turn ended without a next state. */
export type NoNextStateReason = 'session_done' | 'expired' | 'evicted' | 'no_new_message' | 'shutdown';

/** What the gateway knows about a request before calling the policy. */
export interface TurnRequest {
  explicitSessionId?: string;
  /** Explicit turn type from header/body, if any. */
  turnType?: string;
  sessionDone: boolean;
  messages: ChatMessage[];
  /** prefixHashes(messages), computed once by the caller. */
  prefix: string[];
  hints: SessionHints;
  /** True when a side-call rule matched (e.g. a summarisation request). */
  sideByRule?: boolean;
}

/** What the policy produced, as recorded for training. */
export interface TurnResponse {
  message: ChatMessage;
  finishReason: string | null;
  promptText?: string;
  promptIds?: number[];
  responseIds?: number[];
  logprobs?: number[];
  policyVersion: number;
  tokenWarnings?: string[];
}

/** A main turn from request to finalisation. */
export interface Turn {
  sessionId: string;
  /** 1-based within the session; assigned when the response completed. */
  turnId?: number;
  messages: ChatMessage[];
  prefix: string[];
  tools?: unknown;
  startedAt: number;
  response?: TurnResponse;
  completedAt?: number;
  /** undefined = not yet known; null = there will be none (see noNextStateReason). */
  nextState?: NextState | null;
  noNextStateReason?: NoNextStateReason;
  finalized: boolean;
  failed: boolean;
}

/** The result of resolving a request: its session and whether it is a training turn. */
export interface TurnHandle {
  sessionId: string;
  turnType: 'main' | 'side';
  source: SessionSource;
  /** Present for main turns. */
  turn?: Turn;
  sessionDone: boolean;
}

/** Listeners: where completed/finalised turns and closed sessions go. */
export interface TrackerListeners {
  onTurnCompleted?(turn: Turn): void;
  onTurnFinalized?(turn: Turn): void;
  onSessionClosed?(sessionId: string, reason: NoNextStateReason): void;
}

export interface TrackerOptions {
  defaultTurnType: 'main' | 'side';
  fallback: 'infer' | 'anonymous';
  idleTimeoutMs: number;
  maxSessions: number;
  ignorePatterns: RegExp[];
  now?: () => number;
}

/** Counters exposed at /healthz and /metrics. */
export interface TrackerCounters {
  requests_without_session_id: number;
  requests_without_turn_type: number;
  sessions_inferred: number;
  sessions_by_source: Record<SessionSource, number>;
  main_turns: number;
  side_turns: number;
  turns_without_next_state: number;
  sessions_expired: number;
  sessions_evicted: number;
}

interface SessionState {
  id: string;
  turnCount: number;
  last?: Turn;
  keys: string[];
  traceIds: string[];
  lastActive: number;
  closing?: NoNextStateReason;
  inferred: boolean;
}

/** Tracks live sessions; see the file header for the resolution rules. */
export class SessionTracker {
  private readonly sessions = new Map<string, SessionState>(); // insertion order = LRU order
  private readonly prefixIndex = new Map<string, { sessionId: string; length: number }>();
  private readonly traceIndex = new Map<string, string>();
  private readonly opts: TrackerOptions;
  private readonly listeners: TrackerListeners;
  private readonly now: () => number;
  readonly counters: TrackerCounters = {
    requests_without_session_id: 0,
    requests_without_turn_type: 0,
    sessions_inferred: 0,
    sessions_by_source: { explicit: 0, runtime_hint: 0, prompt_cache_key: 0, prefix: 0, trace: 0, new: 0, anonymous: 0 },
    main_turns: 0,
    side_turns: 0,
    turns_without_next_state: 0,
    sessions_expired: 0,
    sessions_evicted: 0,
  };

  constructor(opts: TrackerOptions, listeners: TrackerListeners = {}) {
    this.opts = opts;
    this.listeners = listeners;
    this.now = opts.now ?? Date.now;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Resolves the session and turn type of a request; for main turns, gives the previous turn its next state. */
  begin(req: TurnRequest): TurnHandle {
    if (req.turnType === undefined) this.counters.requests_without_turn_type++;
    const turnType = req.turnType !== undefined ? (req.turnType === 'main' ? 'main' : 'side') : req.sideByRule ? 'side' : this.opts.defaultTurnType;
    if (req.explicitSessionId === undefined) this.counters.requests_without_session_id++;
    if (turnType === 'side') {
      this.counters.side_turns++;
      return { sessionId: req.explicitSessionId ?? '', turnType, source: req.explicitSessionId ? 'explicit' : 'new', sessionDone: req.sessionDone };
    }
    const { state, source, matchedLength } = this.resolve(req);
    this.counters.sessions_by_source[source]++;
    this.touch(state);
    const prev = state.last;
    if (prev && !prev.failed && prev.nextState === undefined) {
      const appended = req.messages.slice(matchedLength ?? this.afterLastAssistant(req.messages));
      const ns = nextStateFrom(appended, this.opts.ignorePatterns);
      this.setNextState(prev, ns ?? null, 'no_new_message');
    }
    const turn: Turn = { sessionId: state.id, messages: req.messages, prefix: req.prefix, startedAt: this.now(), finalized: false, failed: false };
    state.last = turn;
    this.counters.main_turns++;
    return { sessionId: state.id, turnType, source, turn, sessionDone: req.sessionDone };
  }

  /** Records the policy's answer: numbers the turn, indexes the new history, finalises if due. */
  complete(handle: TurnHandle, response: TurnResponse): Turn | undefined {
    const turn = handle.turn;
    if (!turn) return undefined;
    const state = this.sessions.get(turn.sessionId);
    turn.response = response;
    turn.completedAt = this.now();
    if (!state) {
      // The session was closed while this turn was in flight: record it, with no next state.
      turn.turnId = 1;
      this.listeners.onTurnCompleted?.(turn);
      this.setNextState(turn, null, 'expired');
      return turn;
    }
    turn.turnId = ++state.turnCount;
    this.indexHistory(state, turn);
    this.listeners.onTurnCompleted?.(turn);
    if (turn.nextState !== undefined) this.finalize(turn);
    if (handle.sessionDone) this.close(state.id, 'session_done');
    else if (state.closing) this.close(state.id, state.closing);
    return turn;
  }

  /** The upstream failed: the turn is not a training turn and gets no number. */
  fail(handle: TurnHandle): void {
    const turn = handle.turn;
    if (!turn) return;
    turn.failed = true;
    const state = this.sessions.get(turn.sessionId);
    if (state && state.last === turn) state.last = undefined;
    if (state && handle.sessionDone) this.close(state.id, 'session_done');
  }

  /** Closes a session: its last turn gets no next state; its index entries go. */
  close(sessionId: string, reason: NoNextStateReason): boolean {
    const state = this.sessions.get(sessionId);
    if (!state) return false;
    const last = state.last;
    if (last && !last.failed && last.completedAt === undefined) {
      // In flight: finish closing when its answer arrives.
      state.closing = reason;
      return true;
    }
    if (last && !last.failed && last.nextState === undefined) this.setNextState(last, null, reason);
    this.sessions.delete(sessionId);
    for (const k of state.keys) if (this.prefixIndex.get(k)?.sessionId === sessionId) this.prefixIndex.delete(k);
    for (const t of state.traceIds) if (this.traceIndex.get(t) === sessionId) this.traceIndex.delete(t);
    this.listeners.onSessionClosed?.(sessionId, reason);
    return true;
  }

  /** Closes sessions idle longer than the timeout; returns how many. */
  expireIdle(): number {
    const cutoff = this.now() - this.opts.idleTimeoutMs;
    let n = 0;
    for (const s of [...this.sessions.values()]) {
      if (s.lastActive > cutoff) break; // LRU order: the rest are newer
      if (this.close(s.id, 'expired')) { n++; this.counters.sessions_expired++; }
    }
    return n;
  }

  /** Closes every session (server shutdown). */
  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id, 'shutdown');
  }

  /** Live session ids (for tests and the dashboard). */
  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  private resolve(req: TurnRequest): { state: SessionState; source: SessionSource; matchedLength?: number } {
    if (req.explicitSessionId !== undefined) {
      const state = this.getOrCreate(req.explicitSessionId, false);
      return { state, source: 'explicit', matchedLength: this.matchOwnHistory(state, req.prefix) };
    }
    if (this.opts.fallback === 'anonymous') {
      const state = this.getOrCreate('anonymous', false);
      return { state, source: 'anonymous', matchedLength: this.matchOwnHistory(state, req.prefix) };
    }
    const hinted = req.hints.runtimeSessionId !== undefined ? { id: `openclaw-${req.hints.runtimeSessionId}`, source: 'runtime_hint' as const }
      : req.hints.promptCacheKey !== undefined ? { id: `pck-${req.hints.promptCacheKey}`, source: 'prompt_cache_key' as const } : undefined;
    if (hinted) {
      const state = this.getOrCreate(hinted.id, true);
      return { state, source: hinted.source, matchedLength: this.matchOwnHistory(state, req.prefix) };
    }
    for (let k = req.prefix.length; k >= 1; k--) {
      const hit = this.prefixIndex.get(req.prefix[k - 1]);
      if (hit && hit.length === k) {
        const state = this.sessions.get(hit.sessionId);
        if (state) return { state, source: 'prefix', matchedLength: k };
      }
    }
    if (req.hints.traceId !== undefined) {
      const id = this.traceIndex.get(req.hints.traceId);
      const state = id !== undefined ? this.sessions.get(id) : undefined;
      if (state) return { state, source: 'trace', matchedLength: this.matchOwnHistory(state, req.prefix) };
    }
    const state = this.getOrCreate(`s-${randomUUID()}`, true);
    return { state, source: 'new', matchedLength: req.prefix.length };
  }

  /** Where this session's recorded history ends in the new message list, if it is a prefix. */
  private matchOwnHistory(state: SessionState, prefix: string[]): number | undefined {
    for (const k of state.keys) {
      const hit = this.prefixIndex.get(k);
      if (hit && hit.sessionId === state.id && prefix[hit.length - 1] === k) return hit.length;
    }
    return undefined;
  }

  private afterLastAssistant(messages: ChatMessage[]): number {
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i + 1;
    return Math.max(0, messages.length - 1);
  }

  private getOrCreate(id: string, inferred: boolean): SessionState {
    let state = this.sessions.get(id);
    if (!state) {
      state = { id, turnCount: 0, keys: [], traceIds: [], lastActive: this.now(), inferred };
      this.sessions.set(id, state);
      if (inferred) this.counters.sessions_inferred++;
      while (this.sessions.size > this.opts.maxSessions) {
        const oldest = this.sessions.keys().next().value as string;
        if (oldest === id) break;
        this.close(oldest, 'evicted');
        this.sessions.delete(oldest); // even if its turn is in flight, the cap holds
        this.counters.sessions_evicted++;
      }
    }
    return state;
  }

  private touch(state: SessionState): void {
    state.lastActive = this.now();
    this.sessions.delete(state.id);
    this.sessions.set(state.id, state);
  }

  /**
   * After our answer, the session's history is (request messages + answer). Clients may drop
   * the request's trailing message next time (OpenClaw's internal-context block), so both
   * (all messages + answer) and (all but the last + answer) are indexed.
   */
  private indexHistory(state: SessionState, turn: Turn): void {
    for (const k of state.keys) if (this.prefixIndex.get(k)?.sessionId === state.id) this.prefixIndex.delete(k);
    state.keys = [];
    const answer = turn.response!.message;
    const n = turn.prefix.length;
    const full = extendHash(n > 0 ? turn.prefix[n - 1] : EMPTY_PREFIX_HASH, answer);
    this.prefixIndex.set(full, { sessionId: state.id, length: n + 1 });
    state.keys.push(full);
    if (n >= 1) {
      const dropped = extendHash(n > 1 ? turn.prefix[n - 2] : EMPTY_PREFIX_HASH, answer);
      if (!this.prefixIndex.has(dropped) || this.prefixIndex.get(dropped)!.sessionId === state.id) {
        this.prefixIndex.set(dropped, { sessionId: state.id, length: n });
        state.keys.push(dropped);
      }
    }
  }

  /** Remembers a request's trace id for the session (tool follow-ups share it). */
  noteTrace(sessionId: string, traceId: string | undefined): void {
    const state = this.sessions.get(sessionId);
    if (!state || traceId === undefined || state.traceIds.includes(traceId)) return;
    state.traceIds.push(traceId);
    if (state.traceIds.length > 4) {
      const old = state.traceIds.shift()!;
      if (this.traceIndex.get(old) === sessionId) this.traceIndex.delete(old);
    }
    this.traceIndex.set(traceId, sessionId);
  }

  private setNextState(turn: Turn, ns: NextState | null, reason: NoNextStateReason): void {
    turn.nextState = ns;
    if (ns === null) {
      turn.noNextStateReason = reason;
      this.counters.turns_without_next_state++;
    }
    if (turn.completedAt !== undefined) this.finalize(turn);
  }

  private finalize(turn: Turn): void {
    if (turn.finalized) return;
    turn.finalized = true;
    this.listeners.onTurnFinalized?.(turn);
  }
}
