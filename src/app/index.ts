// The app: wires a validated Config into running components — the policy (channel, engine,
// teacher), session tracker, record file, sample store, scoring pipeline, trainer, metrics,
// dashboard and the HTTP gateway — and closes them in order. The CLI's `api-server` and `train`
// are thin shells around `startServer`, which reads as the start-up's steps in order; each step
// lives in its own file here.
import type { Config } from '../config/index.ts';
import { redact } from '../config/index.ts';
import { PROTOCOL_TABLE, SessionViews, TokenResolver } from '../gateway/index.ts';
import type { Trainer } from '../trainer/index.ts';
import { openRun } from './open-run.ts';
import { openJournal } from './open-journal.ts';
import { createScoringStage } from './scoring-stage.ts';
import { createTracker, startIdleSweep } from './tracker.ts';
import { dashboardFor } from './dashboard.ts';
import { createTrainer, trainerState } from './background-trainer.ts';
import { serverMetrics } from './metrics.ts';
import { Forgetter, startRetention } from './forget.ts';
import { gatewayFor } from './gateway.ts';
import { closeServer, listenAndStart, type LiveServer } from './lifecycle.ts';
import { createLogger } from './log.ts';
import type { RunningServer, StartOptions } from './options.ts';

export { assertTrainable, createPolicy, rolloutProvider, ROLLOUT_PROVIDERS, BASE_CHECKPOINT, type Policy } from './policy.ts';
export { finishForgets, forgetOffline, runFiles, type ForgetReport } from './forget.ts';
export { parseBefore } from './admin.ts';
export { createLogger } from './log.ts';
export type { RunningServer, ServerHooks, StartOptions } from './options.ts';

/** Starts the server on config.server.host:port; resolves once listening. */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger();
  log.info({ config: redact(config) }, 'openclaw-rl starting');
  // 1. Storage and engines: the sample store, where training resumes, the policy.
  const { store, policy, resume, archivedTo } = await openRun(config, opts, log);
  // 2. The journal: finish cut-short forgets, replay, open for appending; storage faults hold the trainer.
  let trainer: Trainer | undefined;
  const journal = await openJournal(config, store, log, (degraded) => (degraded ? trainer?.pause() : trainer?.resume()));
  const { files, records, storage, checkpoints } = journal;
  // 3. Scoring and sessions.
  const views = new SessionViews();
  const hooks = opts.hooks ?? {};
  const pipeline = await createScoringStage(config, {
    store,
    views,
    log,
    policy,
    parts: opts.scoring,
    onStorageError: journal.onStorageError,
  });
  const tracker = createTracker(config, { store, journal, views, pipeline, hooks });
  // 4. What watches the run: the dashboard, the trainer, the metrics.
  const dashboard = dashboardFor(config, { channel: policy.channel, views, store, tracker, trainerState: () => trainerState(trainer) });
  const training = createTrainer(config, opts, { policy, store, log, storage, pipeline, steps: dashboard.steps, resume });
  trainer = training?.trainer;
  const tokens = new TokenResolver(policy.retokenizer);
  const metrics = serverMetrics({ tracker, tokens, policy, pipeline, trainer: () => trainer });
  // 5. Forgetting on request and by age, then the gateway over all of it.
  const protocols = PROTOCOL_TABLE.map((row) => row());
  const live = { tracker, views, records, pipeline, protocols, forgetCheckpoints: (id: string) => checkpoints.forgetSession(id) };
  const forgetter = new Forgetter(store, files, live, log, hooks.onForgetStep);
  const retention = startRetention(config.storage.retention_days, forgetter, log);
  const apiKey = opts.apiKey ?? config.server.api_key ?? process.env.OPENCLAW_RL_API_KEY;
  const parts = { policy, store, records, tracker, views, pipeline, checkpoints, storage, trainer, tokens, metrics, dashboard, log };
  const app = gatewayFor(config, { ...parts, protocols, forgetter, apiKey });
  // 6. Listen, start the background parts; on close, close them in order.
  const timers = [startIdleSweep(config, tracker), retention];
  const running: LiveServer = { ...parts, app, evaluation: training?.evaluation, timers };
  const url = await listenAndStart(config, running);
  return {
    app,
    url,
    tracker,
    records,
    views,
    channel: policy.channel,
    engine: policy.engine,
    metrics,
    store,
    pipeline,
    trainer,
    dashboardSteps: dashboard.steps,
    resume,
    archivedTo,
    log,
    close: () => closeServer(config, running),
  };
}
