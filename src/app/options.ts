// The app's outer shapes: what startServer takes (the options beside the config, the hooks callers
// observe turns with) and what it returns (the running server and its parts). Their own file so
// the start-up steps can name them without importing index.ts.
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { ChatChannel, PolicyEngine } from '../engines/types.ts';
import type { SessionTracker, RecordWriter, Turn } from '../sessions/index.ts';
import type { ServerMetrics, SessionViews } from '../gateway/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { PipelineParts, ScoringStage } from '../pipeline/index.ts';
import type { Trainer, ResumePlan, StepMetrics } from '../trainer/index.ts';
import type { StepBuffer } from '../dashboard/index.ts';
import type { ForgetStep } from './forget.ts';

/** A running server and its parts. */
export interface RunningServer {
  app: FastifyInstance;
  url: string;
  tracker: SessionTracker;
  records: RecordWriter;
  views: SessionViews;
  channel: ChatChannel;
  /** The in-process policy engine (embedded rollout), if any. */
  engine?: PolicyEngine;
  metrics: ServerMetrics;
  /** The run's durable sample store (`<output_dir>/samples.sqlite`). */
  store: SampleStore;
  /** The scoring stage: finalised turns → samples (in a worker thread or on the main thread). */
  pipeline: ScoringStage;
  /** The background trainer (`train`), if any. */
  trainer?: Trainer;
  /** Training steps as the dashboard sees them. */
  dashboardSteps: StepBuffer;
  /** Where training continued from (`train` with an in-process engine). */
  resume?: ResumePlan;
  /** Where --fresh moved the previous run's files. */
  archivedTo?: string;
  log: Logger;
  close(): Promise<void>;
}

/** Hooks for callers (demo, tests) to observe turns without editing the app. */
export interface ServerHooks {
  onTurnCompleted?(turn: Turn): void;
  onTurnFinalized?(turn: Turn): void;
  onSessionClosed?(sessionId: string, reason: string): void;
  /** After each training step (with its logged numbers). */
  onTrainStep?(metrics: StepMetrics): void;
  /** Between the steps of a forget (forget.ts): the kill test widens each window with a pause here. */
  onForgetStep?(step: ForgetStep): Promise<void> | void;
}

/** Options of startServer beyond the config. */
export interface StartOptions {
  apiKey?: string;
  /** Serve from this channel instead of the config's rollout (tests). */
  channel?: ChatChannel;
  log?: Logger;
  hooks?: ServerHooks;
  /** Judge call, teacher, prompt renderer, feedback policy instead of the config's. */
  scoring?: PipelineParts;
  /** Train in the background (`openclaw-rl train`; needs an in-process engine). */
  train?: boolean;
  /** Trainer poll interval while waiting for a batch (tests, demo). */
  trainerPollMs?: number;
  /**
   * Nice steps of the embedded engine's training thread (default 10, so serving keeps the CPU).
   * 0 for a caller that waits on each step with nothing served meanwhile (the demo's lockstep runs).
   */
  trainingNice?: number;
  /** `train --fresh`: move the previous run's files aside and start from the configured weights. */
  fresh?: boolean;
}
