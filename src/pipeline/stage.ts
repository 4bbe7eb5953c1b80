// What the app and the gateway see of the scoring stage, wherever it runs: a ScoringPipeline on
// the main thread, or a ScoringThread that runs one in a worker thread.
import type { Mode } from '../methods/index.ts';
import type { Turn } from '../sessions/index.ts';
import type { FeedbackRequest } from './feedback.ts';
import type { FeedbackResult } from './feedback-service.ts';

/** The scoring stage of a running server (see ScoringPipeline for the semantics). */
export interface ScoringStage {
  readonly mode: Mode;
  /** Queues a finalised main turn until the next `drainIntake`. */
  queueTurnFinalized(turn: Turn): void;
  /** Queues the end of a session behind its queued turns. */
  queueSessionClosed(sessionId: string): void;
  /** Hands the queued turns to the judges (call when no request is in flight). */
  drainIntake(): void;
  /** Re-judges the turns a previous process left pending. Call once, after start-up. */
  start(): void;
  submitFeedback(req: FeedbackRequest): FeedbackResult | Promise<FeedbackResult>;
  /** Numbers for /metrics (fixed key set). */
  gauges(): Record<string, number>;
  /** The scoring section of /healthz. */
  health(): Record<string, unknown>;
  /** Forgets a session's turns up to `throughTurn` in the stage's memory and logs (ScoringPipeline.forget); resolves with the log lines blanked. */
  forget(sessionId: string, throughTurn: number): number | Promise<number>;
  /** Resolves when no turn is queued or being judged. */
  whenIdle(): Promise<void>;
  /** Waits (bounded) for judging in flight, then stops. */
  close(drainMs?: number): Promise<void>;
}
