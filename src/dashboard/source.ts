// Builds a DashboardSource from the parts the app already has: a status function, the step
// buffer, and the session views (newest sessions last). (The tests' in-memory source is
// test/support/memory-dashboard-source.ts.)
import type { Evaluation } from '../evaluation/index.ts';
import type { TurnSummary } from '../gateway/index.ts';
import type { StepBuffer } from './steps.ts';
import type { DashboardSource, DashboardStatus, Page, PageRequest, SessionListItem, StepPoint } from './types.ts';

/** The part of SessionViews the dashboard reads. */
export interface SessionViewsLike {
  /** Known session ids, oldest first (the dashboard lists them newest first). */
  sessionIds(): string[];
  /** A session's turns in turn order, or undefined if unknown (`texts: false`: only counts and times are read). */
  turns(sessionId: string, texts?: boolean): TurnSummary[] | undefined;
}

/** The store calls the status needs (SampleStore has both). */
export interface StoreCountsLike {
  counts(): { pending: number; ready: number; leased: number; trained: number; droppedSamples: number; droppedTurns: number };
  dropsByReason(): Record<string, number>;
}

/** The sample-count fields of DashboardStatus, read from the store. */
export function storeStatusFields(
  store: StoreCountsLike,
): Pick<
  DashboardStatus,
  'samples_ready' | 'samples_pending' | 'samples_leased' | 'samples_trained' | 'samples_dropped' | 'drops_by_reason'
> {
  const c = store.counts();
  return {
    samples_ready: c.ready,
    samples_pending: c.pending,
    samples_leased: c.leased,
    samples_trained: c.trained,
    samples_dropped: c.droppedSamples + c.droppedTurns,
    drops_by_reason: store.dropsByReason(),
  };
}

/** The list row of one session. */
export function summarizeSession(sessionId: string, turns: TurnSummary[]): SessionListItem {
  const last = turns[turns.length - 1];
  return {
    session_id: sessionId,
    turns: turns.length,
    judged: turns.filter((t) => t.judgement !== undefined).length,
    last_turn_at: last?.completed_at ?? null,
    policy_version: last?.policy_version ?? null,
  };
}

/** One page of a list. */
export function pageOf<T>(all: readonly T[], page: PageRequest): Page<T> {
  return { total: all.length, items: all.slice(page.offset, page.offset + page.limit) };
}

/** One page of sessions, newest first; only that page is summarised, so thousands of sessions cost one slice. */
export function sessionsPage(views: SessionViewsLike, page: PageRequest): Page<SessionListItem> {
  const ids = views.sessionIds();
  const newestFirst: string[] = [];
  for (let i = ids.length - 1 - page.offset; i >= 0 && newestFirst.length < page.limit; i--) newestFirst.push(ids[i]);
  return { total: ids.length, items: newestFirst.map((id) => summarizeSession(id, views.turns(id, false) ?? [])) };
}

/** One page of a session's turns, or undefined for an unknown session. */
export function turnsPage(views: SessionViewsLike, sessionId: string, page: PageRequest): Page<TurnSummary> | undefined {
  const turns = views.turns(sessionId);
  return turns ? pageOf(turns, page) : undefined;
}

/** A DashboardSource over a status function, a StepBuffer, the session views and (optionally) the evaluation. */
export function createDashboardSource(parts: {
  status: () => DashboardStatus;
  steps: StepBuffer;
  views: SessionViewsLike;
  evaluation?: () => Evaluation;
}): DashboardSource {
  return {
    status: parts.status,
    steps: (since, limit) => parts.steps.since(since, limit),
    sessions: (page) => sessionsPage(parts.views, page),
    sessionTurns: (sessionId, page) => turnsPage(parts.views, sessionId, page),
    ...(parts.evaluation !== undefined ? { evaluation: parts.evaluation } : {}),
  };
}
