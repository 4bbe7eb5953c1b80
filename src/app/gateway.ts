// Start-up's gateway step: the HTTP gateway over the running parts — the served model's names and
// limits from the config, turns refused while storage is degraded, the scoring stage drained when
// no request is in flight, /healthz's report, and the app's own routes (feedback, admin, forget,
// dashboard, evaluation). In: the config and the running parts. Out: the Fastify app, not listening.
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import {
  buildGateway,
  sideCallRules,
  type ServerMetrics,
  type SessionViews,
  type TokenResolver,
  type WireProtocol,
} from '../gateway/index.ts';
import { registerFeedbackRoute, type ScoringStage } from '../pipeline/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { SessionTracker } from '../sessions/index.ts';
import type { Trainer } from '../trainer/index.ts';
import { registerDashboard, isDashboardShellPath, type DashboardSource } from '../dashboard/index.ts';
import { registerEvaluationRoute, type Evaluation } from '../evaluation/index.ts';
import { registerAdminRoutes, registerForgetRoutes } from './admin.ts';
import { recordsAge, type Forgetter } from './forget.ts';
import type { Policy } from './policy.ts';
import type { StorageMonitor } from './storage.ts';

/** The running parts the gateway serves and reports on. */
export interface GatewayParts {
  protocols: WireProtocol[];
  policy: Policy;
  tracker: SessionTracker;
  tokens: TokenResolver;
  views: SessionViews;
  metrics: ServerMetrics;
  store: SampleStore;
  storage: StorageMonitor;
  pipeline: ScoringStage;
  trainer?: Trainer;
  forgetter: Forgetter;
  dashboard: { source: DashboardSource; evaluation: () => Evaluation };
  apiKey?: string;
  log: Logger;
}

export function gatewayFor(config: Config, parts: GatewayParts): FastifyInstance {
  const { policy, storage, pipeline, apiKey, log } = parts;
  const s = config.server;
  return buildGateway({
    protocols: parts.protocols,
    channel: policy.channel,
    tracker: parts.tracker,
    tokens: parts.tokens,
    views: parts.views,
    metrics: parts.metrics,
    servedModelName: s.served_model_name ?? config.rollout.model_id,
    upstreamModelId: config.rollout.model_id,
    maxTokensLimit: config.rollout.max_tokens,
    returnTokenIds: config.rollout.return_token_ids,
    sidePatterns: s.side_turn_patterns.map((p) => new RegExp(p)),
    sideCalls: sideCallRules(s.side_calls),
    modelAliases: s.model_aliases,
    renderPrompt: policy.renderPrompt,
    contextGuard: policy.contextGuard,
    bodyLimitBytes: Math.round(s.body_limit_mb * 1024 * 1024),
    shutdownGraceMs: s.shutdown_grace_s * 1000,
    onDrained: (r) => log.info(r, 'answers in flight at shutdown: finished within the grace period, or cut'),
    apiKey,
    publicPath: isDashboardShellPath,
    degraded: () => storage.degraded,
    refuseTurn: () => storage.refusal(),
    afterResponse: (inFlight) => {
      if (inFlight === 0) pipeline.drainIntake();
    },
    health: () => healthReport(config, parts),
    extraRoutes: (server) => {
      registerFeedbackRoute(server, pipeline);
      const keyed = apiKey !== undefined && apiKey !== '';
      registerAdminRoutes(server, { trainer: parts.trainer, outputDir: config.output_dir, keyed });
      registerForgetRoutes(server, { forgetter: parts.forgetter, keyed });
      registerDashboard(server, parts.dashboard.source);
      registerEvaluationRoute(server, parts.dashboard.evaluation);
    },
    onWarning: (kind, count) => warnMissingHeader(config, log, kind, count),
  });
}

/** /healthz beyond the gateway's own fields: mode, storage, scoring and the trainer. */
function healthReport(config: Config, parts: GatewayParts): Record<string, unknown> {
  const { store, trainer } = parts;
  return {
    mode: config.mode,
    storage: { ...parts.storage.health(), ...recordsAge(store, config.storage.retention_days) },
    scoring: parts.pipeline.health(),
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
  };
}

/** A request without a session id or turn type: the first occurrence, then every 100th (visible without flooding the log). */
function warnMissingHeader(config: Config, log: Logger, kind: string, count: number): void {
  if (count !== 1 && count % 100 !== 0) return;
  const s = config.server;
  log.warn(
    { kind, count },
    kind === 'no_session_id'
      ? `request without X-Session-Id/session_id (${count} so far): session ${s.session_fallback === 'infer' ? 'inferred from the message history' : "defaulted to 'anonymous'"}`
      : `request without X-Turn-Type/turn_type (${count} so far): treated as '${s.default_turn_type}'`,
  );
}
