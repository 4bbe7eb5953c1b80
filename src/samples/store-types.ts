// Types of the durable sample store: what goes in (pending turns, outcomes) and what comes out
// (stored samples with their state, leases, counters).
import type { ChatMessage } from '../engines/types.ts';
import type { Sample, SampleType } from './types.ts';

/** Where a sample is in its life: trainable, taken by a trainer batch, used, or thrown away. */
export type SampleState = 'ready' | 'leased' | 'trained' | 'dropped';

/** Identifies one main turn of one session. */
export interface TurnRef {
  sessionId: string;
  turnId: number;
}

/**
 * A finished main turn whose next state is settled (known, or known to be absent at session end)
 * and that has not been judged yet: everything needed to judge it and build its sample.
 */
export interface PendingTurn extends TurnRef {
  /** Policy version that generated the response. */
  policyVersion: number;
  /** The prompt as chat messages (what the judge and the hinted teacher prompt are built from). */
  promptMessages: ChatMessage[];
  promptIds: number[];
  responseText: string;
  responseIds: number[];
  /** Rollout (behaviour) log-probs, one per response token. */
  rolloutLogprobs: number[];
  toolCalls: Array<Record<string, unknown>> | null;
  /** Messages the next request appended after this answer; null = the session ended without one. */
  nextState: ChatMessage[] | null;
  createdAt: number;
  /** Free-form JSON the caller needs later (request tools, sampling settings); null if none. */
  extra?: Record<string, unknown> | null;
}

/** How a judged turn ends: as sample(s) for training, or as a recorded drop with a reason. */
export type TurnOutcome =
  | { kind: 'samples'; samples: Sample[] }
  | { kind: 'dropped'; reason: string; info?: Record<string, unknown> | null };

/** A sample as stored: the Sample plus its state, drop reason and current lease. */
export interface StoredSample extends Sample {
  state: SampleState;
  dropReason: string | null;
  leaseId: string | null;
  /** How many times a trainer batch has taken this sample (a sample that keeps failing shows here). */
  leaseCount: number;
}

/** What `getTurnOutcome` knows about a turn. */
export type TurnStatus =
  | { status: 'pending'; turn: PendingTurn }
  | { status: 'samples'; samples: StoredSample[] }
  | { status: 'dropped'; reason: string; info: Record<string, unknown> | null; droppedAt: number };

/** Options of `leaseBatch`: the staleness bound is applied only when both are given. */
export interface LeaseOptions {
  currentVersion?: number;
  maxStaleness?: number;
  /**
   * Which ready samples make the batch, and their order in it: 'arrival' (default) the oldest
   * stored first; 'session' by session id, then turn, whatever order judging finished in (a
   * reproducible run, whose concurrent episodes are judged in no fixed order).
   */
  order?: LeaseOrder;
}

/** See LeaseOptions.order. */
export type LeaseOrder = 'arrival' | 'session';

/** A batch taken by a trainer: `markTrained` or `releaseLease` it by `leaseId`. */
export interface Lease {
  leaseId: string;
  samples: StoredSample[];
  /** Ready samples dropped as too stale while taking this batch. */
  staleDropped: number;
}

/** Row counts for dashboards and metrics. */
export interface StoreCounts {
  pending: number;
  ready: number;
  leased: number;
  trained: number;
  /** Samples dropped after they were stored (e.g. 'stale'). */
  droppedSamples: number;
  /** Turns that ended without a sample (e.g. 'hint_reject', 'no_next_state'). */
  droppedTurns: number;
}

/** What `open` repaired after the previous process stopped. */
export interface RecoveryReport {
  /** Leased-but-untrained samples put back to ready. */
  leasesReturned: number;
  /** Turns still waiting for a judge; the caller re-judges them (`pendingTurns()`). */
  pendingTurns: number;
}

/** Options of `SampleStore.open`. */
export interface OpenOptions {
  /**
   * SQLite `synchronous` level. FULL (default) fsyncs the WAL at every commit, so an acknowledged
   * write survives power loss too; NORMAL survives a process crash but may lose the last commits
   * on power loss or an OS crash.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** Return leased samples to ready on open (default true). Off for a second, read-mostly process. */
  recoverLeases?: boolean;
  /** Milliseconds to wait for another process's write lock (default 5000). */
  busyTimeoutMs?: number;
  /**
   * Open an existing store for reading only (reports on a stopped or running run): nothing is
   * created, migrated or repaired, and every write fails. The file must exist.
   */
  readOnly?: boolean;
}

/** Filters and pagination of `listSamples` / `countSamples`. */
export interface ListOptions {
  sessionId?: string;
  state?: SampleState;
  limit?: number;
  offset?: number;
}

/**
 * Samples grouped by what a per-version evaluation reads (`tallyByVersion`): one row per distinct
 * combination, with how many samples share it.
 */
export interface SampleTallyRow {
  policyVersion: number;
  type: SampleType;
  state: SampleState;
  dropReason: string | null;
  reward: number;
  /** The sample carries a non-empty hint. */
  hasHint: boolean;
  /** At least one judge vote that is not 'fail' (a turn without a next state has none). */
  hasVote: boolean;
  n: number;
  /** Oldest and newest `created_at` (ms) of the group. */
  firstAt: number;
  lastAt: number;
}

/** Turn drops by reason and the policy version recorded in the drop's info (null: none recorded). */
export interface DropTallyRow {
  policyVersion: number | null;
  reason: string;
  n: number;
}

/** What `tallyByVersion` returns. */
export interface VersionTally {
  samples: SampleTallyRow[];
  turnDrops: DropTallyRow[];
  /** The replay evaluation's numbers per version (absent: none recorded). */
  evaluations?: VersionEvaluationRow[];
}

/** One judge-free number of a policy version (`version_evaluations`): replay evaluation, probes. */
export interface VersionEvaluationRow {
  policyVersion: number;
  /** `replay_opd_advantage`, `replay_hint_satisfied`, `probe_kl`, … (docs/evaluation.md). */
  metric: string;
  value: number;
  /** Held-out samples or probes it was computed on. */
  samples: number;
  /** When it was measured (ms since the epoch). */
  at: number;
}

/** What `SampleStore.forgetSession` deleted, and which training steps had used the session's samples. */
export interface ForgetOutcome {
  pending: number;
  samples: number;
  drops: number;
  /** Of the samples, those a training step in progress had taken (it may still train on them). */
  leased: number;
  /** Training steps that trained on a sample of the session (weights cannot unlearn them). */
  trainedSteps: number[];
  /** Some trained sample predates the record of steps (a store from an older version). */
  trainedWithoutStep: boolean;
}
