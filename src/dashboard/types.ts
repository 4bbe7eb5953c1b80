// What the dashboard reads: the `DashboardSource` the app implements over the trainer log, the
// session views and the sample store, and the shapes the JSON API answers with.
import type { Evaluation } from '../evaluation/index.ts';
import type { TurnSummary } from '../gateway/index.ts';

/** The header numbers of the page: who is serving, what is waiting, how far training got. */
export interface DashboardStatus {
  /** Version of the policy that answers requests now. */
  policy_version: number;
  /** Training mode (openclaw-rl, openclaw-opd, openclaw-combine). */
  mode: string;
  /** Last finished training step; null before the first one (or when this process does not train). */
  step: number | null;
  /** Samples that the trainer can take now. */
  samples_ready: number;
  /** Finished main turns still waiting for their judge. */
  samples_pending: number;
  /** Sessions the tracker holds in memory. */
  live_sessions: number;
  /** Samples inside a trainer batch right now. */
  samples_leased?: number;
  /** Samples already used by a training step. */
  samples_trained?: number;
  /** Dropped samples plus turns that ended without a sample. */
  samples_dropped?: number;
  /** Drops by reason (hint_reject, no_next_state, stale, …). */
  drops_by_reason?: Record<string, number>;
  /** Free text about the trainer: 'training', 'idle', 'off', or the last error. */
  trainer_state?: string;
}

/** One training step as charted: the trainer's StepMetrics, plus the log time when known. */
export interface StepPoint {
  step: number;
  [key: string]: number | string | null | undefined;
}

/** One row of the sessions list. */
export interface SessionListItem {
  session_id: string;
  /** Main turns the server has seen in this session. */
  turns: number;
  /** Turns that already have a judgement. */
  judged: number;
  /** Completion time of the newest turn (ISO 8601), null if none completed. */
  last_turn_at: string | null;
  /** Policy version of the newest turn, null if none. */
  policy_version: number | null;
}

/** A page of a longer list: `total` is the length of the whole list. */
export interface Page<T> {
  total: number;
  items: T[];
}

/** Which part of a list to return. */
export interface PageRequest {
  offset: number;
  limit: number;
}

/** Something that may be computed now or fetched. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Everything the dashboard shows, read on demand. Each call is bounded by its arguments, so an
 * open page never pulls the whole store.
 */
export interface DashboardSource {
  /** Header numbers. */
  status(): MaybePromise<DashboardStatus>;
  /** Steps with `step > sinceStep`, oldest first; at most `limit`, the newest ones when there are more. */
  steps(sinceStep: number, limit: number): MaybePromise<StepPoint[]>;
  /** Sessions, newest first. */
  sessions(page: PageRequest): MaybePromise<Page<SessionListItem>>;
  /** Turns of one session in turn order, or undefined for an unknown session. */
  sessionTurns(sessionId: string, page: PageRequest): MaybePromise<Page<TurnSummary> | undefined>;
  /** The per-version evaluation (src/evaluation; one row per version, grouped in SQL); absent without a sample store. */
  evaluation?(): MaybePromise<Evaluation>;
}
