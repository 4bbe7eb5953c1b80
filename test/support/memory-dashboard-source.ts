// An in-memory DashboardSource whose contents a test sets directly (steps, sessions, header
// numbers, the evaluation), for driving the dashboard's routes without a running server.
import type { Evaluation } from '../../src/evaluation/index.ts';
import type { TurnSummary } from '../../src/gateway/index.ts';
import {
  StepBuffer,
  sessionsPage,
  turnsPage,
  type DashboardSource,
  type DashboardStatus,
  type Page,
  type PageRequest,
  type SessionListItem,
  type SessionViewsLike,
  type StepPoint,
} from '../../src/dashboard/index.ts';

export class MemoryDashboardSource implements DashboardSource {
  readonly stepBuffer: StepBuffer;
  private current: DashboardStatus;
  private currentEvaluation: Evaluation = {
    object: 'evaluation',
    generated_at: new Date(0).toISOString(),
    serving_policy_version: null,
    intervals: { reward: 'student_t_95', rates: 'wilson_95' },
    versions: [],
    dropped_turns_without_version: {},
  };
  private readonly sessionMap = new Map<string, Map<number, TurnSummary>>();
  private readonly views: SessionViewsLike = {
    sessionIds: () => [...this.sessionMap.keys()],
    turns: (id) => {
      const s = this.sessionMap.get(id);
      return s ? [...s.values()].sort((a, b) => a.turn_id - b.turn_id) : undefined;
    },
  };

  constructor(status: Partial<DashboardStatus> = {}, capacity?: number) {
    this.stepBuffer = new StepBuffer(capacity);
    this.current = {
      policy_version: 0,
      mode: 'openclaw-combine',
      step: null,
      samples_ready: 0,
      samples_pending: 0,
      live_sessions: 0,
      ...status,
    };
  }

  /** Changes some header numbers. */
  setStatus(patch: Partial<DashboardStatus>): void {
    this.current = { ...this.current, ...patch };
  }

  /** Replaces the per-version evaluation the page charts. */
  setEvaluation(evaluation: Evaluation): void {
    this.currentEvaluation = evaluation;
  }

  /** Records a training step; the header's step follows it. */
  addStep(point: StepPoint): void {
    this.stepBuffer.push(point);
    this.current = { ...this.current, step: point.step };
  }

  /** Adds or replaces a turn of a session (a new session is the newest). */
  putTurn(sessionId: string, turn: TurnSummary): void {
    let s = this.sessionMap.get(sessionId);
    if (!s) {
      s = new Map();
      this.sessionMap.set(sessionId, s);
    }
    s.set(turn.turn_id, turn);
  }

  status(): DashboardStatus {
    return this.current;
  }

  steps(sinceStep: number, limit: number): StepPoint[] {
    return this.stepBuffer.since(sinceStep, limit);
  }

  sessions(page: PageRequest): Page<SessionListItem> {
    return sessionsPage(this.views, page);
  }

  sessionTurns(sessionId: string, page: PageRequest): Page<TurnSummary> | undefined {
    return turnsPage(this.views, sessionId, page);
  }

  evaluation(): Evaluation {
    return this.currentEvaluation;
  }
}
