// `GET /healthz` and `GET /metrics`, what monitors read: the upstream's health (cached 2 s), the
// policy version, session and token counters, per-protocol counts and warnings; the Prometheus
// registry. In: the channel, tracker, tokens, metrics and the app's extra health fields. Out: routes.
import type { FastifyInstance } from 'fastify';
import type { GatewayOptions } from '../options.ts';
import type { ProtocolCounters } from '../protocol-counters.ts';

type HealthOptions = Pick<GatewayOptions, 'channel' | 'tracker' | 'tokens' | 'metrics' | 'degraded' | 'health'>;

/** Requests the tracker had to guess for, each with the warning /healthz gives once there are any. */
const UNLABELLED_REQUESTS = [
  [
    'requests_without_session_id',
    'requests carried no session id (X-Session-Id / session_id); their sessions were inferred or defaulted (server.session_fallback)',
  ],
  [
    'requests_without_turn_type',
    'requests carried no turn type (X-Turn-Type / turn_type); they got the default turn type (server.default_turn_type)',
  ],
] as const;

export function registerHealthRoutes(app: FastifyInstance, opts: HealthOptions, protocolCounters: ProtocolCounters): void {
  let cachedHealth: { at: number; value: { ok: boolean; detail: string } } | undefined;
  app.get('/healthz', async () => {
    if (!cachedHealth || Date.now() - cachedHealth.at > 2000) cachedHealth = { at: Date.now(), value: await opts.channel.health() };
    const c = opts.tracker.counters;
    const warnings = UNLABELLED_REQUESTS.filter(([counter]) => c[counter] > 0).map(([counter, text]) => `${c[counter]} ${text}`);
    return {
      status: cachedHealth.value.ok && opts.degraded?.() !== true ? 'ok' : 'degraded',
      upstream: cachedHealth.value,
      policy_version: opts.channel.version(),
      live_sessions: opts.tracker.size,
      counters: { ...c, tokens: opts.tokens.counters },
      protocols: protocolCounters.snapshot(),
      warnings,
      ...(opts.health?.() ?? {}),
    };
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });
}
