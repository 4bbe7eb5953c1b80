// The app: wires a validated Config into running components — the policy channel, session
// tracker, record file, metrics and the HTTP gateway — and closes them in order. The CLI's
// `api-server` (and later `train`) are thin shells around `startServer`.
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { OpenClawError } from '../errors/index.ts';
import { redact, type Config } from '../config/index.ts';
import type { ChatChannel } from '../engines/types.ts';
import { OpenAICompatibleChannel } from '../engines/openai_compatible/index.ts';
import { SessionTracker, RecordWriter, compileIgnorePatterns, type Turn } from '../sessions/index.ts';
import { buildGateway, ServerMetrics, SessionViews, TokenResolver, type Retokenizer } from '../gateway/index.ts';
import { hfRetokenizer } from './retokenize.ts';
import { SampleStore, SAMPLE_STORE_FILE } from '../samples/index.ts';
import { createScoringPipeline, registerFeedbackRoute, type PipelineParts, type ScoringPipeline } from '../pipeline/index.ts';

/** A running server and its parts. */
export interface RunningServer {
  app: FastifyInstance;
  url: string;
  tracker: SessionTracker;
  records: RecordWriter;
  views: SessionViews;
  channel: ChatChannel;
  metrics: ServerMetrics;
  /** The run's durable sample store (`<output_dir>/samples.sqlite`). */
  store: SampleStore;
  /** The scoring stage: finalised turns → samples. */
  pipeline: ScoringPipeline;
  log: Logger;
  close(): Promise<void>;
}

/** Hooks for later stages (scoring, training) to observe turns without editing the app. */
export interface ServerHooks {
  onTurnCompleted?(turn: Turn): void;
  onTurnFinalized?(turn: Turn): void;
  onSessionClosed?(sessionId: string, reason: string): void;
}

/** Builds the rollout ChatChannel the config asks for. */
export function createRolloutChannel(config: Config): ChatChannel {
  const r = config.rollout;
  if (r.provider === 'openai_compatible') {
    return new OpenAICompatibleChannel({
      channel: 'rollout',
      baseUrl: r.base_url!,
      apiKey: r.api_key,
      model: r.model_id,
      timeoutMs: r.timeout_s * 1000,
      firstTokenTimeoutMs: r.first_token_timeout_s * 1000,
      maxRetries: r.max_retries,
    });
  }
  throw new OpenClawError('config', 'rollout.provider: embedded is not available in this build yet; set rollout.provider: openai_compatible with rollout.base_url');
}

/** Starts the gateway on config.server.host:port; resolves once listening. */
export async function startServer(
  config: Config,
  opts: { apiKey?: string; channel?: ChatChannel; retokenizer?: Retokenizer; log?: Logger; hooks?: ServerHooks; /** Judge call, teacher, prompt renderer, feedback policy instead of the config's. */ scoring?: PipelineParts } = {},
): Promise<RunningServer> {
  const log = opts.log ?? pino({ level: process.env.OPENCLAW_RL_LOG_LEVEL ?? 'info' }, pino.destination(2));
  log.info({ config: redact(config) }, 'openclaw-rl starting');
  const channel = opts.channel ?? createRolloutChannel(config);
  const records = new RecordWriter(join(config.output_dir, 'records', 'turns.jsonl'));
  const views = new SessionViews();
  const hooks = opts.hooks ?? {};
  const store = SampleStore.open(join(config.output_dir, SAMPLE_STORE_FILE));
  const pipeline = await createScoringPipeline(config, { store, views, log }, opts.scoring);
  const tracker = new SessionTracker(
    {
      defaultTurnType: config.server.default_turn_type,
      fallback: config.server.session_fallback,
      idleTimeoutMs: config.server.session_idle_timeout_s * 1000,
      maxSessions: config.server.max_sessions,
      ignorePatterns: compileIgnorePatterns(config.server.ignore_message_patterns),
    },
    {
      onTurnCompleted(turn) {
        records.turnCompleted(turn);
        views.turnCompleted(turn);
        hooks.onTurnCompleted?.(turn);
      },
      onTurnFinalized(turn) {
        records.turnFinalized(turn);
        views.turnFinalized(turn);
        hooks.onTurnFinalized?.(turn);
        pipeline.onTurnFinalized(turn);
      },
      onSessionClosed(id, reason) {
        hooks.onSessionClosed?.(id, reason);
        pipeline.onSessionClosed(id);
      },
    },
  );
  const metrics = new ServerMetrics();
  let retokenizer = opts.retokenizer;
  if (!retokenizer && config.rollout.tokenizer !== undefined && config.rollout.provider === 'openai_compatible') {
    const hf = await hfRetokenizer(config.rollout.tokenizer);
    retokenizer = hf.retokenize;
    metrics.addGauges('alignment', 'Re-tokenisation counter', () => ({ ...hf.counters }));
  }
  const tokens = new TokenResolver(retokenizer);
  metrics.addGauges('sessions', 'Session tracker counter', () => {
    const c = tracker.counters;
    const { sessions_by_source: _s, ...flat } = c;
    return { ...flat, live: tracker.size };
  });
  metrics.addGauges('tokens', 'Token alignment counter', () => ({ ...tokens.counters }));
  metrics.addGauges('scoring', 'Scoring pipeline', () => pipeline.gauges());
  const app = buildGateway({
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
    bodyLimitBytes: Math.round(config.server.body_limit_mb * 1024 * 1024),
    apiKey: opts.apiKey ?? config.server.api_key ?? process.env.OPENCLAW_RL_API_KEY,
    health: () => ({ mode: config.mode, scoring: pipeline.health() }),
    extraRoutes: (server) => registerFeedbackRoute(server, pipeline),
    onWarning(kind, count) {
      // First occurrence, then every 100th: visible without flooding the log.
      if (count === 1 || count % 100 === 0) {
        log.warn({ kind, count }, kind === 'no_session_id'
          ? `request without X-Session-Id/session_id (${count} so far): session ${config.server.session_fallback === 'infer' ? 'inferred from the message history' : "defaulted to 'anonymous'"}`
          : `request without X-Turn-Type/turn_type (${count} so far): treated as '${config.server.default_turn_type}'`);
      }
    },
  });
  const sweep = setInterval(() => tracker.expireIdle(), Math.min(60_000, Math.max(1000, config.server.session_idle_timeout_s * 250)));
  sweep.unref();
  await app.listen({ host: config.server.host, port: config.server.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.server.port;
  const url = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;
  log.info({ url, model: config.rollout.model_id, mode: config.mode }, 'openclaw-rl listening');
  pipeline.start();
  return {
    app, url, tracker, records, views, channel, metrics, store, pipeline, log,
    async close() {
      clearInterval(sweep);
      await app.close();
      tracker.closeAll();
      await pipeline.close();
      store.close();
      records.close();
      await channel.close();
    },
  };
}
