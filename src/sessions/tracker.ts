// SessionTracker: which session a request belongs to, main vs side turns, turn numbering, the
// next state of each turn, and session end (done, idle expiry, LRU cap). It owns no I/O: it
// reports completed and finalised turns through listeners (records, views, scoring).
//
// Session resolution — the first rule that applies wins:
//  1. explicit id: `X-Session-Id` header or `session_id` body field (the gateway passes it in);
//  2. `server.session_fallback: anonymous`: every header-less request shares session `anonymous`;
//  3. client hints: OpenClaw's `Runtime: … sessionId=X` trailer in the first user message →
//     session `openclaw-X`; else `prompt_cache_key` "X:<n>" → session `pck-X`;
//  4. prefix: a live session whose latest history end — (its last request + our answer), and
//     also (that request minus its last message + our answer), because OpenClaw drops its
//     trailing internal-context block from the next request — is a prefix of the new message
//     list. Found by hash lookup, longest match first;
//  5. trace: the W3C `traceparent` trace id of a recent main request of a live session (all
//     requests of one OpenClaw user turn, tool follow-ups included, share it);
//  6. otherwise a new inferred session `s-<uuid>`.
// Message identity (canonical.ts): role, content text and tool calls by name + arguments.
// Tool-call ids and any other fields are ignored: clients rewrite ids (`call_rec_2` → `callrec2`).
//
// Cost per request: one hash pass over the request's own messages (linear in the request, like
// parsing it) plus at most one map lookup per assistant message in it; nothing depends on the
// number of sessions or on what is stored for them. Each live session keeps ≤ 2 index keys (its
// latest history end only), ≤ 4 trace ids and its last turn (whose request it holds until the
// turn is finalised: memory ≈ live sessions × last request size, capped by `maxSessions`).
//
// Next state of a main turn = the messages the next main request of its session appended after
// our answer (everything after the matched history; without a match, everything after the
// request's last assistant message), keeping `user`/`tool` messages that match no ignore
// pattern (`server.ignore_message_patterns`, OpenClaw's internal-context markers by default).
// Several tool results become one next state with role `tool`. Nothing left → no next state
// (`no_new_message`).
//
// Turn type: an explicit `X-Turn-Type`/`turn_type` wins (`main` trains; anything else is a side
// turn). Without one, a request whose system prompt matches `server.side_turn_patterns` is a side
// turn (e.g. a client's summarisation/compaction call), else `server.default_turn_type` (main).
// Side turns are forwarded and never recorded; they do not touch session state, except that a
// side request carrying `session_done` for an explicit id still closes that session.
//
// Turn numbers start at 1 per session and are given when the answer completes; failed turns get
// none. A session ends on `session_done` (after that request's answer), after `idleTimeoutMs`
// without requests (`expireIdle`), by LRU eviction beyond `maxSessions`, or at shutdown; its
// last turn is then finalised with no next state and its index entries are freed at once (a
// turn still in flight is finalised when its answer arrives). When a closed session's id comes
// back, numbering continues (the last `maxSessions` closed ids are remembered).
//
// Limits (inference is a heuristic; explicit ids or hints avoid all of these):
//  - two sessions with identical histories (same system prompt, user text and answer) share
//    index keys: the later one owns them, so the other one's next request starts a new session;
//  - only a continuation of a session's latest answer matches: a client that rewrites history
//    (compaction, edits, regenerating an earlier turn) starts a new inferred session;
//  - a client that alters replayed text (trimmed answers, reformatted tool arguments) defeats
//    prefix matching (the trace id may still tie one user turn's requests together);
//  - a request that arrives while the session's previous turn is still in flight cannot contain
//    that turn's answer, so that turn ends with no next state (`overlapped`);
//  - after a server restart, numbering continues only as the app seeds it (`resumeNumbering`,
//    `lastTurnIdOf`), and a session waits for its next state only if the app restores it (`restore`).
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../engines/types.ts';
import type { RawJson } from '../raw-json/json-text.ts';
import { extendHash, EMPTY_PREFIX_HASH } from './canonical.ts';
import type { SessionHints } from './hints.ts';
import { nextStateFrom, type NextState } from './next-state.ts';

/** How the session of a request was determined. */
export type SessionSource =
  | 'explicit'
  | 'runtime_hint'
  | 'prompt_cache_key'
  | 'metadata_user_id'
  | 'prefix'
  | 'trace'
  | 'new'
  | 'anonymous';

/** Why a turn ended without a next state. */
export type NoNextStateReason = 'session_done' | 'expired' | 'evicted' | 'no_new_message' | 'shutdown' | 'overlapped' | 'restart';

/** What the gateway knows about a request before calling the policy. */
export interface TurnRequest {
  explicitSessionId?: string;
  /** Where the explicit session id came from (a header name, `body.session_id`, …). */
  explicitSource?: string;
  /** Explicit turn type from header/body, if any. */
  turnType?: string;
  sessionDone: boolean;
  messages: ChatMessage[];
  /** prefixHashes(messages), computed once by the caller (main turns only: side turns ignore it). */
  prefix: string[];
  hints: SessionHints;
  /** True when a side-call rule matched (e.g. a summarisation request). */
  sideByRule?: boolean;
  /**
   * A side call that carries the session's whole history, ending with its own instruction (an
   * agent compacting its conversation): the next main request will hold only a summary, so what
   * this one appended after the last answer is that answer's next state.
   */
  carriesHistory?: boolean;
}

/** What the policy produced, as recorded for training. */
export interface TurnResponse {
  message: ChatMessage;
  finishReason: string | null;
  promptText?: string;
  promptIds?: number[];
  /** `promptIds` as the engine sent them (JSON text), written to the records file as is. */
  promptIdsJson?: string;
  responseIds?: number[];
  logprobs?: number[];
  /** 1 = the log-prob at this position is real; 0 = padded by token alignment (never trained on). */
  logprobMask?: number[];
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
  /** `tools` with the text the request spelled them with, for the record line (raw-json/json-text.ts). */
  toolsJson?: RawJson<unknown[]>;
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

/** Tracker settings (from the `server` config section). */
export interface TrackerOptions {
  defaultTurnType: 'main' | 'side';
  fallback: 'infer' | 'anonymous';
  idleTimeoutMs: number;
  maxSessions: number;
  ignorePatterns: RegExp[];
  /** Spans removed from next-state text (`server.strip_from_next_state`). */
  stripPatterns?: RegExp[];
  now?: () => number;
  /** The last turn number a session id had before this process (e.g. from the sample store); numbering continues after it. */
  lastTurnIdOf?: (sessionId: string) => number;
}

/** Counters exposed at /healthz and /metrics. */
export interface TrackerCounters {
  requests_without_session_id: number;
  requests_without_turn_type: number;
  sessions_inferred: number;
  sessions_by_source: Record<SessionSource, number>;
  /** Main turns whose session an explicit id named, by where the id came from. */
  sessions_by_id_source: Record<string, number>;
  main_turns: number;
  side_turns: number;
  turns_without_next_state: number;
  sessions_expired: number;
  sessions_evicted: number;
}

/** Sizes of the tracker's in-memory tables (all bounded by `maxSessions`). */
export interface TrackerMemory {
  sessions: number;
  prefixKeys: number;
  traceKeys: number;
  closedIds: number;
}

/** Turn counter shared by every incarnation of one session id (numbers never repeat). */
interface TurnCounter {
  n: number;
}

interface SessionState {
  id: string;
  counter: TurnCounter;
  last?: Turn;
  keys: string[];
  traceIds: string[];
  lastActive: number;
  closed?: NoNextStateReason;
  /** What named the session last: a header or field for explicit ids, else the inference source. */
  namedBy?: string;
}

const MAX_TRACE_IDS = 4;

/** Tracks live sessions; see the file header for the rules and their limits. */
export class SessionTracker {
  private readonly sessions = new Map<string, SessionState>(); // insertion order = LRU order
  private readonly prefixIndex = new Map<string, { sessionId: string; length: number }>();
  private readonly traceIndex = new Map<string, string>();
  private readonly closedCounters = new Map<string, TurnCounter>();
  private readonly owner = new WeakMap<Turn, SessionState>();
  private readonly opts: TrackerOptions;
  private readonly listeners: TrackerListeners;
  private readonly now: () => number;
  readonly counters: TrackerCounters = {
    requests_without_session_id: 0,
    requests_without_turn_type: 0,
    sessions_inferred: 0,
    sessions_by_source: {
      explicit: 0,
      runtime_hint: 0,
      prompt_cache_key: 0,
      metadata_user_id: 0,
      prefix: 0,
      trace: 0,
      new: 0,
      anonymous: 0,
    },
    sessions_by_id_source: {},
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

  /** What named a live session (a header such as `x-claude-code-session-id`, or how it was inferred). */
  namedBy(sessionId: string): string | undefined {
    return this.sessions.get(sessionId)?.namedBy;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Sizes of the in-memory tables, to show memory stays bounded. */
  memory(): TrackerMemory {
    return {
      sessions: this.sessions.size,
      prefixKeys: this.prefixIndex.size,
      traceKeys: this.traceIndex.size,
      closedIds: this.closedCounters.size,
    };
  }

  /** The turn type of a request: its explicit type, else side by rule, else the configured default. Pure. */
  turnTypeOf(req: Pick<TurnRequest, 'turnType' | 'sideByRule'>): 'main' | 'side' {
    if (req.turnType !== undefined) return req.turnType === 'main' ? 'main' : 'side';
    return req.sideByRule ? 'side' : this.opts.defaultTurnType;
  }

  /** Resolves the session and turn type of a request; for main turns, gives the previous turn its next state. */
  begin(req: TurnRequest): TurnHandle {
    if (req.turnType === undefined) this.counters.requests_without_turn_type++;
    // An explicit side turn is never trained, so a missing session id loses nothing: not counted.
    const explicitSide = req.turnType !== undefined && req.turnType !== 'main';
    if (req.explicitSessionId === undefined && !explicitSide) this.counters.requests_without_session_id++;
    const turnType = this.turnTypeOf(req);
    if (turnType === 'side') {
      this.counters.side_turns++;
      if (req.carriesHistory && req.explicitSessionId !== undefined) this.nextStateFromSideCall(req.explicitSessionId, req.messages);
      if (req.sessionDone && req.explicitSessionId !== undefined) this.close(req.explicitSessionId, 'session_done');
      return {
        sessionId: req.explicitSessionId ?? '',
        turnType,
        source: req.explicitSessionId !== undefined ? 'explicit' : 'new',
        sessionDone: req.sessionDone,
      };
    }
    const { state, source, matchedLength } = this.resolve(req);
    this.counters.sessions_by_source[source]++;
    state.namedBy = source === 'explicit' ? (req.explicitSource ?? 'explicit') : source;
    if (source === 'explicit') {
      const by = this.counters.sessions_by_id_source;
      by[state.namedBy] = (by[state.namedBy] ?? 0) + 1;
    }
    this.touch(state);
    const prev = state.last;
    if (prev && !prev.failed && prev.nextState === undefined) {
      if (prev.completedAt === undefined) this.setNextState(prev, null, 'overlapped');
      else {
        const appended = req.messages.slice(matchedLength ?? this.afterLastAssistant(req.messages));
        this.setNextState(prev, nextStateFrom(appended, this.opts.ignorePatterns, this.opts.stripPatterns) ?? null, 'no_new_message');
      }
    }
    const turn: Turn = {
      sessionId: state.id,
      messages: req.messages,
      prefix: req.prefix,
      startedAt: this.now(),
      finalized: false,
      failed: false,
    };
    this.owner.set(turn, state);
    state.last = turn;
    this.counters.main_turns++;
    return { sessionId: state.id, turnType, source, turn, sessionDone: req.sessionDone };
  }

  /** Records the policy's answer: numbers the turn, indexes the new history, finalises if due. */
  complete(handle: TurnHandle, response: TurnResponse): Turn | undefined {
    const turn = handle.turn;
    const state = turn ? this.owner.get(turn) : undefined;
    if (!turn || !state || turn.failed || turn.completedAt !== undefined) return undefined;
    turn.response = response;
    turn.completedAt = this.now();
    turn.turnId = ++state.counter.n;
    if (state.closed === undefined) {
      this.indexHistory(state, turn);
      this.touch(state);
    }
    this.listeners.onTurnCompleted?.(turn);
    if (turn.nextState !== undefined) this.finalize(turn);
    if (handle.sessionDone && state.closed === undefined) this.close(state.id, 'session_done');
    return turn;
  }

  /** The upstream failed: the turn is not a training turn and gets no number. */
  fail(handle: TurnHandle): void {
    const turn = handle.turn;
    const state = turn ? this.owner.get(turn) : undefined;
    if (!turn || !state || turn.completedAt !== undefined) return;
    turn.failed = true;
    if (state.last === turn) state.last = undefined;
    if (handle.sessionDone && state.closed === undefined) this.close(state.id, 'session_done');
  }

  /** Closes a session now: its last turn gets no next state; its index entries are freed. */
  close(sessionId: string, reason: NoNextStateReason): boolean {
    const state = this.sessions.get(sessionId);
    if (!state) return false;
    state.closed = reason;
    this.drop(state);
    const last = state.last;
    // A turn still in flight is finalised with this reason when its answer arrives.
    if (last && !last.failed && last.nextState === undefined) this.setNextState(last, null, reason);
    state.last = undefined;
    this.listeners.onSessionClosed?.(sessionId, reason);
    return true;
  }

  /**
   * Forgets a session (openclaw-rl forget): its state goes without any turn being finalised or
   * recorded, a turn in flight included (its answer still reaches the client). Numbering
   * continues. Returns the session's last turn number (0 for none).
   */
  forget(sessionId: string): number {
    const state = this.sessions.get(sessionId);
    if (state) {
      state.closed = 'session_done';
      this.drop(state);
      if (state.last !== undefined && state.last.completedAt === undefined) state.last.failed = true;
      state.last = undefined;
    }
    return this.closedCounters.get(sessionId)?.n ?? this.opts.lastTurnIdOf?.(sessionId) ?? 0;
  }

  /** Takes a session out of the live table and its index entries; its counter is kept. */
  private drop(state: SessionState): void {
    this.sessions.delete(state.id);
    for (const k of state.keys) if (this.prefixIndex.get(k)?.sessionId === state.id) this.prefixIndex.delete(k);
    for (const t of state.traceIds) if (this.traceIndex.get(t) === state.id) this.traceIndex.delete(t);
    state.keys = [];
    state.traceIds = [];
    this.rememberClosed(state.id, state.counter);
  }

  /** Closes sessions idle longer than the timeout; returns how many. */
  expireIdle(): number {
    const cutoff = this.now() - this.opts.idleTimeoutMs;
    let n = 0;
    for (const s of [...this.sessions.values()]) {
      if (s.lastActive > cutoff) break; // LRU order: the rest are newer
      if (this.close(s.id, 'expired')) {
        n++;
        this.counters.sessions_expired++;
      }
    }
    return n;
  }

  /** Closes every session (server shutdown). */
  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id, 'shutdown');
  }

  /**
   * Continues turn numbering after a restart: each id's next turn gets last+1 (pass
   * `lastTurnIds(readRecords(path).turns)`). Only the `maxSessions` most recent ids are kept.
   */
  resumeNumbering(last: Map<string, number>): void {
    for (const [id, n] of last) {
      const live = this.sessions.get(id);
      if (live) live.counter.n = Math.max(live.counter.n, n);
      else this.rememberClosed(id, { n: Math.max(this.closedCounters.get(id)?.n ?? 0, n) });
    }
  }

  /**
   * Restores a session whose last turn (completed, recorded, not yet finalised) was replayed from the
   * journal after a restart: the session's next request finds it (by id or by prefix) and gives it
   * its next state, as if the server had never stopped. No listener is called.
   */
  restore(turn: Turn): void {
    const state = this.getOrCreate(turn.sessionId, false);
    state.counter.n = Math.max(state.counter.n, turn.turnId ?? 0);
    if (state.last !== undefined && (state.last.turnId ?? 0) > (turn.turnId ?? 0)) return;
    state.last = turn;
    this.owner.set(turn, state);
    this.indexHistory(state, turn);
    this.touch(state);
  }

  /** Live session ids, least recently used first (for tests and the dashboard). */
  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Remembers a main request's trace id for its session (tool follow-ups share it). */
  noteTrace(sessionId: string, traceId: string | undefined): void {
    const state = this.sessions.get(sessionId);
    if (!state || traceId === undefined || state.traceIds.includes(traceId)) return;
    state.traceIds.push(traceId);
    if (state.traceIds.length > MAX_TRACE_IDS) {
      const old = state.traceIds.shift()!;
      if (this.traceIndex.get(old) === sessionId) this.traceIndex.delete(old);
    }
    this.traceIndex.set(traceId, sessionId);
  }

  private resolve(req: TurnRequest): { state: SessionState; source: SessionSource; matchedLength?: number } {
    if (req.explicitSessionId !== undefined) return this.named(req, req.explicitSessionId, 'explicit', false);
    if (this.opts.fallback === 'anonymous') return this.named(req, 'anonymous', 'anonymous', false);
    if (req.hints.runtimeSessionId !== undefined) return this.named(req, `openclaw-${req.hints.runtimeSessionId}`, 'runtime_hint', true);
    if (req.hints.promptCacheKey !== undefined) return this.named(req, `pck-${req.hints.promptCacheKey}`, 'prompt_cache_key', true);
    if (req.hints.userSessionId !== undefined) return this.named(req, `user-${req.hints.userSessionId}`, 'metadata_user_id', true);
    // Every indexed history ends with our answer, so only assistant positions can match.
    for (let k = req.messages.length; k >= 1; k--) {
      if (req.messages[k - 1].role !== 'assistant') continue;
      const hit = this.prefixIndex.get(req.prefix[k - 1]);
      const state = hit && hit.length === k ? this.sessions.get(hit.sessionId) : undefined;
      if (state) return { state, source: 'prefix', matchedLength: k };
    }
    const traced = req.hints.traceId !== undefined ? this.traceIndex.get(req.hints.traceId) : undefined;
    const tracedState = traced !== undefined ? this.sessions.get(traced) : undefined;
    if (tracedState) return { state: tracedState, source: 'trace', matchedLength: this.matchOwnHistory(tracedState, req.prefix) };
    return { state: this.getOrCreate(`s-${randomUUID()}`, true), source: 'new', matchedLength: req.prefix.length };
  }

  private named(
    req: TurnRequest,
    id: string,
    source: SessionSource,
    inferred: boolean,
  ): { state: SessionState; source: SessionSource; matchedLength?: number } {
    const state = this.getOrCreate(id, inferred);
    return { state, source, matchedLength: this.matchOwnHistory(state, req.prefix) };
  }

  /** Where this session's recorded history ends in the new message list, if it is a prefix. */
  private matchOwnHistory(state: SessionState, prefix: string[]): number | undefined {
    for (const k of state.keys) {
      const hit = this.prefixIndex.get(k);
      if (hit && hit.sessionId === state.id && prefix[hit.length - 1] === k) return hit.length;
    }
    return undefined;
  }

  /** A compaction request's history, minus its closing instruction, gives the pending turn its next state. */
  private nextStateFromSideCall(sessionId: string, messages: ChatMessage[]): void {
    const prev = this.sessions.get(sessionId)?.last;
    if (!prev || prev.failed || prev.nextState !== undefined || prev.completedAt === undefined) return;
    const appended = messages.slice(this.afterLastAssistant(messages), -1);
    const ns = nextStateFrom(appended, this.opts.ignorePatterns, this.opts.stripPatterns);
    if (ns !== undefined) this.setNextState(prev, ns, 'no_new_message');
  }

  private afterLastAssistant(messages: ChatMessage[]): number {
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i + 1;
    return Math.max(0, messages.length - 1);
  }

  private getOrCreate(id: string, inferred: boolean): SessionState {
    let state = this.sessions.get(id);
    if (state) return state;
    const counter = this.closedCounters.get(id) ?? { n: this.opts.lastTurnIdOf?.(id) ?? 0 };
    this.closedCounters.delete(id);
    state = { id, counter, keys: [], traceIds: [], lastActive: this.now() };
    this.sessions.set(id, state);
    if (inferred) this.counters.sessions_inferred++;
    while (this.sessions.size > this.opts.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      if (oldest === id) break;
      this.close(oldest, 'evicted');
      this.counters.sessions_evicted++;
    }
    return state;
  }

  private rememberClosed(id: string, counter: TurnCounter): void {
    this.closedCounters.delete(id);
    this.closedCounters.set(id, counter);
    if (this.closedCounters.size > this.opts.maxSessions) this.closedCounters.delete(this.closedCounters.keys().next().value as string);
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
      const owner = this.prefixIndex.get(dropped);
      if (owner === undefined || owner.sessionId === state.id || !this.sessions.has(owner.sessionId)) {
        this.prefixIndex.set(dropped, { sessionId: state.id, length: n });
        state.keys.push(dropped);
      }
    }
  }

  private setNextState(turn: Turn, ns: NextState | null, reason: NoNextStateReason): void {
    turn.nextState = ns;
    if (ns === null) turn.noNextStateReason = reason;
    if (turn.completedAt !== undefined) this.finalize(turn);
  }

  private finalize(turn: Turn): void {
    if (turn.finalized) return;
    turn.finalized = true;
    if (turn.nextState === null) this.counters.turns_without_next_state++;
    this.listeners.onTurnFinalized?.(turn);
  }
}
