// At-least-one while sessions are still running (openclaw-rl): which decided turns must wait for
// their session's end, and when that end has come. `finishSession` (session.ts) is the rule on a
// whole session; this is the bookkeeping that lets a caller apply it turn by turn. No I/O, no
// timers: the caller stores, judges and counts, and tells this machine what happened.
//
// Per session:  untracked ──track──▶ open ──close──▶ closed ──finish (none in flight)──▶ untracked
// In open and closed, a decided turn is
//  - HELD when it is a judged sample with loss mask 0 and the session has no trainable sample yet
//    (at session end it may be the one promoted);
//  - otherwise resolved as decided; a trainable one (loss mask 1) makes the session trainable, and
//    every turn held so far is released, final as it is (no promotion can happen any more).
// A session of a previous process is restored as closed. If it goes on after the restart, its new
// turns start a new open state, trainable when the store already has a trainable turn of it.
import type { Decision } from './types.ts';

interface SessionHold<T> {
  held: Map<number, T>;
  trainable: boolean;
  closed: boolean;
}

/** What to do with a decided turn. */
export type HoldStep<T> =
  /** Keep it waiting (stored as pending): its decision may still change at session end. */
  | { hold: true }
  /** Resolve it as decided, then `released` (held turns now final), in turn order. */
  | { hold: false; released: T[] };

/** At-least-one holds of every running session; a disabled machine holds nothing. */
export class AtLeastOneHolds<T> {
  private readonly sessions = new Map<string, SessionHold<T>>();

  constructor(readonly enabled: boolean) {}

  /** Sessions with state (tracked and not yet finished). */
  get size(): number {
    return this.sessions.size;
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** A turn of the session goes to judging: the session is tracked until `finish` (`trainable`: it already has a trainable turn). */
  track(sessionId: string, trainable = false): void {
    if (this.enabled && !this.sessions.has(sessionId)) this.sessions.set(sessionId, { held: new Map(), trainable, closed: false });
  }

  /** A session left by a previous process: already ended; `trainable` when it has a trainable sample. */
  restore(sessionId: string, trainable: boolean): void {
    if (this.enabled && !this.sessions.has(sessionId)) this.sessions.set(sessionId, { held: new Map(), trainable, closed: true });
  }

  /** A turn of the session was decided (first time, or again with feedback while held). */
  decided(sessionId: string, turnId: number, turn: T, decision: Decision): HoldStep<T> {
    const s = this.sessions.get(sessionId);
    if (s === undefined) return { hold: false, released: [] };
    if (!s.trainable && decision.kind === 'sample' && decision.sample.lossMask === 0 && decision.judged) {
      s.held.set(turnId, turn);
      return { hold: true };
    }
    s.held.delete(turnId);
    if (decision.kind !== 'sample' || decision.sample.lossMask !== 1) return { hold: false, released: [] };
    s.trainable = true;
    const released = inTurnOrder(s.held);
    s.held.clear();
    return { hold: false, released };
  }

  /** The held turn, if the session holds it. */
  heldTurn(sessionId: string, turnId: number): T | undefined {
    return this.sessions.get(sessionId)?.held.get(turnId);
  }

  /** The session ended (no-op when untracked). */
  close(sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (s !== undefined) s.closed = true;
  }

  /**
   * When the session is closed and `inFlight` (its turns still being judged) is 0: forgets it and
   * returns its held turns in turn order, for `finishSession`. Otherwise null, and nothing changes.
   */
  finish(sessionId: string, inFlight: number): T[] | null {
    const s = this.sessions.get(sessionId);
    if (s === undefined || !s.closed || inFlight > 0) return null;
    this.sessions.delete(sessionId);
    return inTurnOrder(s.held);
  }
}

function inTurnOrder<T>(held: Map<number, T>): T[] {
  return [...held.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
}
