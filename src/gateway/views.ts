// What `GET /sessions/:id` and `POST /session` show: a bounded, in-memory summary of each
// session's turns (newest sessions, and the newest turns of each, kept: an agent's session can
// run for days), updated as turns complete, get their next state, and (from the scoring stage)
// their judgement. Every turn stays in records/turns.jsonl. Detected secrets show as
// `[SECRET:type]`: these views are served (GET /sessions/:id, the dashboard), the journal is the data.
import type { Turn } from '../sessions/index.ts';
import { contentText } from '../sessions/index.ts';
import { redactSecrets } from '../privacy/index.ts';

/** Judgement of a turn as shown to users (filled by the scoring stage). */
export interface TurnJudgement {
  score: number | null;
  votes: Array<number | 'fail'>;
  loss_mask: 0 | 1 | null;
  hint_accepted: boolean;
  hint: string | null;
  sample_type: string | null;
  dropped_reason?: string;
}

/** One turn in a session view. */
export interface TurnSummary {
  turn_id: number;
  started_at: string;
  completed_at: string;
  policy_version: number;
  finish_reason: string | null;
  response: string;
  tool_calls: number;
  next_state: { role: string; content: string } | null | 'pending';
  next_state_reason?: string;
  token_warnings?: string[];
  judgement?: TurnJudgement;
}

/** A turn summary as served: detected secrets in its texts as `[SECRET:type]`. */
function shown(t: TurnSummary): TurnSummary {
  const ns = t.next_state;
  return {
    ...t,
    response: redactSecrets(t.response),
    next_state: ns !== null && ns !== 'pending' ? { ...ns, content: redactSecrets(ns.content) } : ns,
    ...(t.judgement !== undefined && t.judgement.hint !== null
      ? { judgement: { ...t.judgement, hint: redactSecrets(t.judgement.hint) } }
      : {}),
  };
}

/** Keeps turn summaries for the most recent `maxSessions` sessions, the newest `maxTurns` turns of each. */
export class SessionViews {
  private readonly sessions = new Map<string, Map<number, TurnSummary>>();
  private readonly maxSessions: number;
  private readonly maxTurns: number;

  constructor(maxSessions = 5000, maxTurns = 1000) {
    this.maxSessions = maxSessions;
    this.maxTurns = maxTurns;
  }

  private session(id: string, create: boolean): Map<number, TurnSummary> | undefined {
    let s = this.sessions.get(id);
    if (!s && create) {
      s = new Map();
      this.sessions.set(id, s);
      if (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    }
    return s;
  }

  turnCompleted(turn: Turn): void {
    const r = turn.response!;
    const turns = this.session(turn.sessionId, true)!;
    // Most recently active last, so the dashboard lists active sessions first.
    this.sessions.delete(turn.sessionId);
    this.sessions.set(turn.sessionId, turns);
    turns.set(turn.turnId!, {
      turn_id: turn.turnId!,
      started_at: new Date(turn.startedAt).toISOString(),
      completed_at: new Date(turn.completedAt!).toISOString(),
      policy_version: r.policyVersion,
      finish_reason: r.finishReason,
      response: contentText(r.message.content),
      tool_calls: Array.isArray(r.message.tool_calls) ? r.message.tool_calls.length : 0,
      next_state: 'pending',
      token_warnings: r.tokenWarnings && r.tokenWarnings.length > 0 ? r.tokenWarnings : undefined,
    });
    // Turns complete in order, so the map's first entry is the oldest.
    if (turns.size > this.maxTurns) turns.delete(turns.keys().next().value as number);
  }

  /** Drops a session's turns up to `throughTurn` (openclaw-rl forget). */
  forget(sessionId: string, throughTurn: number): void {
    const turns = this.sessions.get(sessionId);
    if (turns === undefined) return;
    for (const id of [...turns.keys()]) if (id <= throughTurn) turns.delete(id);
    if (turns.size === 0) this.sessions.delete(sessionId);
  }

  turnFinalized(turn: Turn): void {
    const t = this.session(turn.sessionId, false)?.get(turn.turnId!);
    if (!t) return;
    t.next_state = turn.nextState ? { role: turn.nextState.role, content: turn.nextState.content } : null;
    if (!turn.nextState) t.next_state_reason = turn.noNextStateReason;
  }

  /** Attaches (or replaces) the judgement of a turn. */
  judge(sessionId: string, turnId: number, judgement: TurnJudgement): void {
    const t = this.session(sessionId, false)?.get(turnId);
    if (t) t.judgement = judgement;
  }

  /** Known session ids, least recently active first. */
  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * The turns of a session in order, or undefined if unknown. Secrets are replaced here, when the
   * texts are read (`texts: false` for counts only), not on every turn.
   */
  turns(sessionId: string, texts = true): TurnSummary[] | undefined {
    const s = this.sessions.get(sessionId);
    if (s === undefined) return undefined;
    const sorted = [...s.values()].sort((a, b) => a.turn_id - b.turn_id);
    return texts ? sorted.map(shown) : sorted;
  }

  /** Judged turns of a session (those with a judgement). */
  judgedTurns(sessionId: string): Array<{ turn_id: number } & TurnJudgement> {
    return (this.turns(sessionId) ?? []).filter((t) => t.judgement).map((t) => ({ turn_id: t.turn_id, ...t.judgement! }));
  }
}
