// The app: wires a validated Config into running components — the policy (channel, engine,
// teacher), session tracker, record file, sample store, scoring pipeline, trainer, metrics,
// dashboard and the HTTP gateway — and closes them in order. The CLI's `api-server` and `train`
// are thin shells around `startServer`.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { redact, type Config } from '../config/index.ts';
import { modeSpec } from '../methods/index.ts';
import type { ChatChannel, PolicyEngine } from '../engines/types.ts';
import {
  SessionTracker,
  RecordWriter,
  compileIgnorePatterns,
  compileStripPatterns,
  type JournalPosition,
  type Turn,
} from '../sessions/index.ts';
import { buildGateway, PROTOCOL_TABLE, ServerMetrics, SessionViews, TokenResolver, sideCallRules } from '../gateway/index.ts';
import { SampleStore, SAMPLE_STORE_FILE } from '../samples/index.ts';
import { createScoringPipeline, registerFeedbackRoute, ScoringThread, type PipelineParts, type ScoringStage } from '../pipeline/index.ts';
import { Trainer, STEP_KEYS, archivePreviousRun, planResume, type ResumePlan, type StepMetrics } from '../trainer/index.ts';
import { registerDashboard, isDashboardShellPath, type StepBuffer } from '../dashboard/index.ts';
import { registerEvaluationRoute } from '../evaluation/index.ts';
import { createPolicy, rolloutProvider, type Policy } from './policy.ts';
import { dashboardFor } from './dashboard.ts';
import { evaluationPartsFor } from './evaluation.ts';
import { JournalCheckpoints, replayFromCheckpoint } from './journal.ts';
import { registerAdminRoutes, registerForgetRoutes } from './admin.ts';
import { Forgetter, finishForgets, recordsAge, runFiles, startRetention, type ForgetStep } from './forget.ts';
import { StorageMonitor } from './storage.ts';
import { createLogger } from './log.ts';

export { createPolicy, rolloutProvider, ROLLOUT_PROVIDERS, BASE_CHECKPOINT, type Policy } from './policy.ts';
export { finishForgets, forgetOffline, runFiles, type ForgetReport } from './forget.ts';
export { parseBefore } from './admin.ts';
export { createLogger } from './log.ts';

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

/** The engine kind that trains in this process for a config, if any (what checkpoints record). */
function trainingEngineKind(config: Config, opts: StartOptions): string | undefined {
  if (!opts.train || opts.channel !== undefined) return undefined;
  return rolloutProvider(config).trainingKind;
}

/**
 * The scoring stage: in a worker thread when the config allows it and everything it needs can be
 * built there from the config; otherwise a ScoringPipeline on this thread with the given parts.
 */
async function createScoringStage(
  config: Config,
  deps: {
    store: SampleStore;
    views: SessionViews;
    log: Logger;
    policy: Policy;
    parts?: PipelineParts;
    onStorageError?: (err: unknown, path: string) => void;
  },
): Promise<ScoringStage> {
  const { store, views, log, policy, parts, onStorageError } = deps;
  // An embedded engine's teacher and prompt renderer live in this process; OPD modes need them.
  const inProcessParts =
    parts !== undefined || policy.teacher !== undefined || (policy.engine !== undefined && modeSpec(config.mode).teacher);
  if (config.scoring.worker_thread && !inProcessParts) {
    const stage = await ScoringThread.start({ config, storePath: store.path, views, log });
    log.info('scoring runs in a worker thread');
    return stage;
  }
  if (config.scoring.worker_thread) log.info('scoring runs on the main thread: its teacher or prompt renderer lives in this process');
  return createScoringPipeline(
    config,
    { store, views, log, onStorageError },
    {
      teacher: policy.teacher,
      renderPrompt: policy.renderPrompt,
      ...parts,
    },
  );
}

/** Starts the server on config.server.host:port; resolves once listening. */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger();
  log.info({ config: redact(config) }, 'openclaw-rl starting');
  const engineKind = trainingEngineKind(config, opts);
  // tinker.resume: never (the key of earlier versions) asks for the same as --fresh.
  const fresh = opts.fresh === true || (engineKind === 'tinker' && config.tinker.resume === 'never');
  const archivedTo = fresh && engineKind !== undefined ? archivePreviousRun(config.output_dir) : undefined;
  if (archivedTo !== undefined) log.info({ archivedTo }, 'fresh start: the previous run was moved aside');
  const store = SampleStore.open(join(config.output_dir, SAMPLE_STORE_FILE), {
    synchronous: config.storage.synchronous === 'full' ? 'FULL' : 'NORMAL',
  });
  let policy: Policy;
  let resume: ResumePlan | undefined;
  try {
    // Resume first: the engine starts from the checkpoint the records were rewound to.
    resume = engineKind !== undefined ? planResume(config.output_dir, store, engineKind) : undefined;
    if (resume !== undefined) {
      log.info(
        {
          checkpoint: resume.from?.dir ?? null,
          step: resume.step,
          policy_version: resume.version,
          samples_returned: resume.requeued,
          steps_discarded: resume.discardedSteps,
        },
        resume.from ? 'resuming training from the newest checkpoint' : 'no checkpoint: training starts from the configured weights',
      );
    }
    policy = await createPolicy(config, { channel: opts.channel, train: opts.train, resume, trainingNice: opts.trainingNice });
  } catch (err) {
    store.close();
    throw err;
  }
  const { channel } = policy;
  const files = runFiles(config.output_dir);
  const recordsPath = files.journalPath;
  // A forget a crash cut short is finished before anything reads the journal (forget.ts).
  await finishForgets(store, files, log);
  // The journal is the source of truth: what the store missed before a crash is found here.
  const replay = replayFromCheckpoint(recordsPath, store, log);
  const records = new RecordWriter(recordsPath, {
    segmentBytes: Math.round(config.storage.records_segment_mb * 1024 * 1024),
    sync: config.storage.synchronous === 'full',
  });
  let trainer: Trainer | undefined;
  let evaluation: { close: () => Promise<void> } | undefined;
  // Storage faults (a removed folder, read-only or full disk) become /healthz's `degraded`, a 503
  // for new turns and a held trainer, never a loop (storage.ts).
  const storage = new StorageMonitor({
    outputDir: config.output_dir,
    journal: records,
    log,
    onChange: (degraded) => (degraded ? trainer?.pause() : trainer?.resume()),
  });
  const onStorageError = (err: unknown, path: string) => storage.report(path === store.path ? 'store' : 'judge_log', path, err);
  const checkpoints = new JournalCheckpoints(store, records, log, (err) => storage.report('store', store.path, err));
  const views = new SessionViews();
  const hooks = opts.hooks ?? {};
  const pipeline = await createScoringStage(config, { store, views, log, policy, parts: opts.scoring, onStorageError });
  const tracker = new SessionTracker(
    {
      defaultTurnType: config.server.default_turn_type,
      fallback: config.server.session_fallback,
      idleTimeoutMs: config.server.session_idle_timeout_s * 1000,
      maxSessions: config.server.max_sessions,
      ignorePatterns: compileIgnorePatterns(config.server.ignore_message_patterns),
      stripPatterns: compileStripPatterns(config.server.strip_from_next_state),
      lastTurnIdOf: (id) => store.lastTurnId(id),
    },
    {
      onTurnCompleted(turn) {
        let at: JournalPosition;
        try {
          at = records.turnCompleted(turn);
        } catch (err) {
          // Not acknowledged: the client gets this error (a 503 naming the path and errno) instead of its answer.
          storage.report('journal', records.path, err);
          throw storage.refusal() ?? err;
        }
        storage.ok('journal');
        checkpoints.written(turn, at);
        views.turnCompleted(turn);
        hooks.onTurnCompleted?.(turn);
      },
      onTurnFinalized(turn) {
        try {
          records.turnFinalized(turn);
        } catch (err) {
          // The turn still goes to the store below; only its journal line (for replay) is missing.
          // Never thrown: this runs inside the next request's bookkeeping and at shutdown.
          storage.report('journal', records.path, err);
        }
        views.turnFinalized(turn);
        hooks.onTurnFinalized?.(turn);
        // A turn is finalised while the *next* request is being read; storing and judging it
        // wait until the gateway has no request in flight.
        pipeline.queueTurnFinalized(turn);
      },
      onSessionClosed(id, reason) {
        hooks.onSessionClosed?.(id, reason);
        pipeline.queueSessionClosed(id);
      },
    },
  );
  // Turn ids continue across restarts (the replayed part here, the store for the rest), so a resumed
  // session never reuses one; sessions waiting for a next state are restored.
  tracker.resumeNumbering(replay.lastTurnIds);
  for (const { turn, at } of replay.open) {
    tracker.restore(turn);
    views.turnCompleted(turn);
    checkpoints.written(turn, at);
  }
  const metrics = new ServerMetrics();
  const tokens = new TokenResolver(policy.retokenizer);
  metrics.addGauges('sessions', 'Session tracker counter', () => {
    const { sessions_by_source: _s, sessions_by_id_source: _i, ...flat } = tracker.counters;
    return { ...flat, live: tracker.size };
  });
  metrics.addGauges('tokens', 'Token alignment counter', () => ({ ...tokens.counters }));
  if (policy.alignmentCounters) metrics.addGauges('alignment', 'Re-tokenisation counter', () => ({ ...policy.alignmentCounters! }));
  metrics.addGauges('scoring', 'Scoring pipeline', () => pipeline.gauges());
  metrics.addGauges('policy', 'Policy', () => ({ version: channel.version() }));
  if (policy.gauges) metrics.addGauges('policy_chat', 'Policy chat channel counter', policy.gauges);
  // The latest step's numbers, under the train.log key names (all keys exist from the start).
  metrics.addGauges('train', 'Latest training step', () => ({
    ...Object.fromEntries(STEP_KEYS.map((k) => [k, 0])),
    ...(trainer?.log.latest ?? {}),
  }));
  const dashboard = dashboardFor(config, {
    channel,
    views,
    store,
    tracker,
    trainerState: () => (!trainer ? 'off' : trainer.lastError ? `error: ${trainer.lastError}` : 'running'),
  });
  if (opts.train && policy.engine) {
    const built = evaluationPartsFor(config, policy, opts.scoring);
    evaluation = built;
    trainer = new Trainer({
      engine: policy.engine,
      evaluation: built.parts,
      store,
      config,
      log,
      pollMs: opts.trainerPollMs,
      startStep: resume?.step,
      // No checkpoint into a folder that is gone or cannot take it: Node's mkdir would re-create a
      // removed folder (or, on a relative path, loop forever), and the trainer's error says why.
      assertWritable: (what) => storage.assertWritable(what),
      // The trainer's failures (train.log, the store, a checkpoint) count as storage faults when they are.
      onError: (err, during, path) => storage.report(during === 'checkpoint' ? 'checkpoint' : 'train', path, err),
      extraStats: () => ({ hint_accept_rate: pipeline.gauges().hint_accept_rate ?? 0 }),
      onStep: (m) => {
        dashboard.steps.push(m);
        hooks.onTrainStep?.(m);
      },
    });
  }
  const apiKey = opts.apiKey ?? config.server.api_key ?? process.env.OPENCLAW_RL_API_KEY;
  const protocols = PROTOCOL_TABLE.map((row) => row());
  const forgetter = new Forgetter(
    store,
    files,
    { tracker, views, records, pipeline, protocols, forgetCheckpoints: (id) => checkpoints.forgetSession(id) },
    log,
    hooks.onForgetStep,
  );
  const retention = startRetention(config.storage.retention_days, forgetter, log);
  const app = buildGateway({
    protocols,
    channel,
    tracker,
    tokens,
    views,
    metrics,
    servedModelName: config.server.served_model_name ?? config.rollout.model_id,
    upstreamModelId: config.rollout.model_id,
    maxTokensLimit: config.rollout.max_tokens,
    returnTokenIds: config.rollout.return_token_ids,
    sidePatterns: config.server.side_turn_patterns.map((p) => new RegExp(p)),
    sideCalls: sideCallRules(config.server.side_calls),
    modelAliases: config.server.model_aliases,
    renderPrompt: policy.renderPrompt,
    contextGuard: policy.contextGuard,
    bodyLimitBytes: Math.round(config.server.body_limit_mb * 1024 * 1024),
    shutdownGraceMs: config.server.shutdown_grace_s * 1000,
    onDrained: (r) => log.info(r, 'answers in flight at shutdown: finished within the grace period, or cut'),
    apiKey,
    publicPath: isDashboardShellPath,
    degraded: () => storage.degraded,
    refuseTurn: () => storage.refusal(),
    afterResponse: (inFlight) => {
      if (inFlight === 0) pipeline.drainIntake();
    },
    health: () => ({
      mode: config.mode,
      storage: { ...storage.health(), ...recordsAge(store, config.storage.retention_days) },
      scoring: pipeline.health(),
      ...(trainer
        ? {
            trainer: {
              step: trainer.step,
              last_error: trainer.lastError ?? null,
              samples_ready: store.countReady(),
              batch_size: config.training.batch_size,
              // How long the serving version has served: refusals one after another show here.
              seconds_since_last_served_version: Math.round((Date.now() - trainer.lastServedAt) / 1000),
              ...(config.evaluation.gate !== undefined ? { gate: { refused: trainer.gateRefusals, last: trainer.lastGate ?? null } } : {}),
            },
          }
        : {}),
    }),
    extraRoutes: (server) => {
      registerFeedbackRoute(server, pipeline);
      const keyed = apiKey !== undefined && apiKey !== '';
      registerAdminRoutes(server, { trainer, outputDir: config.output_dir, keyed });
      registerForgetRoutes(server, { forgetter, keyed });
      registerDashboard(server, dashboard.source);
      registerEvaluationRoute(server, dashboard.evaluation);
    },
    onWarning(kind, count) {
      // First occurrence, then every 100th: visible without flooding the log.
      if (count === 1 || count % 100 === 0) {
        log.warn(
          { kind, count },
          kind === 'no_session_id'
            ? `request without X-Session-Id/session_id (${count} so far): session ${config.server.session_fallback === 'infer' ? 'inferred from the message history' : "defaulted to 'anonymous'"}`
            : `request without X-Turn-Type/turn_type (${count} so far): treated as '${config.server.default_turn_type}'`,
        );
      }
    },
  });
  const sweep = setInterval(() => tracker.expireIdle(), Math.min(60_000, Math.max(1000, config.server.session_idle_timeout_s * 250)));
  sweep.unref();
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (err) {
    clearInterval(sweep);
    clearInterval(retention);
    await pipeline.close();
    await evaluation?.close();
    store.close();
    records.close();
    await policy.close();
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.server.port;
  const url = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;
  log.info({ url, model: config.rollout.model_id, mode: config.mode, training: trainer !== undefined }, 'openclaw-rl listening');
  // Re-judges the turns left pending, those replay found missing in the store among them.
  pipeline.start();
  checkpoints.start();
  storage.start();
  trainer?.start();
  return {
    app,
    url,
    tracker,
    records,
    views,
    channel,
    engine: policy.engine,
    metrics,
    store,
    pipeline,
    trainer,
    dashboardSteps: dashboard.steps,
    resume,
    archivedTo,
    log,
    async close() {
      // One grace period for everything in flight: answers (drained by app.close) and judge calls.
      const deadline = Date.now() + config.server.shutdown_grace_s * 1000;
      clearInterval(sweep);
      clearInterval(retention);
      checkpoints.stop();
      storage.stop();
      // Each part is closed even when one before it failed (a final checkpoint into a full disk
      // must not leave the server listening); the first failure is thrown at the end.
      let failure: unknown;
      const step = async (what: string, fn: () => unknown) => {
        try {
          await fn();
        } catch (err) {
          failure ??= err;
          log.error({ err: (err as Error)?.message ?? String(err) }, `shutdown: ${what} failed; closing the rest`);
        }
      };
      await step('stopping the trainer', () => trainer?.stop());
      await step('closing the HTTP server', () => app.close());
      await step('ending the sessions', () => tracker.closeAll());
      await step('closing the scoring pipeline', () => pipeline.close(Math.max(0, deadline - Date.now())));
      await step('saving the journal checkpoint', () => checkpoints.advance());
      await step('closing the sample store', () => store.close());
      await step('closing the journal', () => records.close());
      await step('closing the evaluation clients', () => evaluation?.close());
      await step('closing the policy', () => policy.close());
      if (failure !== undefined) throw failure;
    },
  };
}
