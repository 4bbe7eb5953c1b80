// The HTTP server (Fastify 5): a model-turn route per wire protocol (PROTOCOL_TABLE: Chat
// Completions, Anthropic Messages, OpenAI Responses), models, sessions, health and metrics, with
// API-key auth in each protocol's header form and errors in each protocol's shape. Later stages (feedback, dashboard, …)
// add routes through `extraRoutes` instead of editing this file.
import Fastify, { type FastifyInstance } from 'fastify';
import { timingSafeEqual, createHash } from 'node:crypto';
import { OpenClawError, invalidRequest, toOpenAIError } from '../errors/index.ts';
import type { ChatChannel, ChatMessage } from '../engines/types.ts';
import type { SessionTracker } from '../sessions/index.ts';
import { handleTurn, prepareTurn, runTurn, type ChatDeps } from './turn-route.ts';
import { PROTOCOL_TABLE, type WireProtocol } from './protocols/index.ts';
import type { SideCallRule } from './side-calls.ts';
import { ModelNames } from './model-names.ts';
import { ProtocolCounters } from './protocol-counters.ts';
import type { ServerMetrics } from './metrics.ts';
import type { TokenResolver } from './tokens.ts';
import type { SessionViews } from './views.ts';
import { checkSessionId, MAX_SESSION_ID_PARAM } from '../sessions/index.ts';
import { ShutdownGate, shuttingDownError, type DrainResult } from './shutdown.ts';
import { bearerToken } from './headers.ts';
import { registerCountTokens } from './count-tokens.ts';
import {
  answerUnknownExpectation,
  clientErrorHandler,
  frameworkErrors,
  jsonNestingExceeds,
  mapRequestError,
  MAX_BODY_DEPTH,
  type ErrorShape,
  tooDeepError,
} from './edge-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The text a JSON body was parsed from; read with the body before anything changes it (gateway/request.ts). */
    bodyText?: string;
  }
}

/**
 * Connection timeouts, chosen (docs/reliability-http.md): a client gets 10 s for its headers and
 * 60 s for its whole request (a body up to server.body_limit_mb); Node checks them every second.
 * Idle keep-alive sockets close after 65 s (longer than the usual 60 s of proxies in front, so the
 * proxy closes first). No socket inactivity limit: a non-streamed answer may take up to
 * rollout.timeout_s without a byte, and the upstream deadlines bound that.
 */
export const HTTP_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 65_000,
  checkIntervalMs: 1000,
} as const;

/** Everything the server is built from (wired by the app from the config). */
export interface GatewayOptions {
  channel: ChatChannel;
  tracker: SessionTracker;
  tokens: TokenResolver;
  views: SessionViews;
  metrics: ServerMetrics;
  servedModelName: string;
  upstreamModelId: string;
  /** Other model names clients may send (server.model_aliases; `*` wildcards). */
  modelAliases?: string[];
  /** Agents' helper calls that are side turns (server.side_calls). */
  sideCalls?: SideCallRule[];
  /** The policy's prompt ids for messages + tools (counts tokens for /v1/messages/count_tokens). */
  renderPrompt?: (messages: ChatMessage[], tools: unknown[] | undefined) => number[] | Promise<number[]>;
  maxTokensLimit: number;
  returnTokenIds: boolean;
  sidePatterns: RegExp[];
  /** Refuses prompts over the policy's context with a 400 before the upstream is called. */
  contextGuard?: ChatDeps['contextGuard'];
  bodyLimitBytes: number;
  apiKey?: string;
  /** Paths served without the API key (the dashboard's static page; its data API stays protected). */
  publicPath?: (path: string) => boolean;
  /** Extra fields for /healthz (mode, trainer state, …). */
  health?: () => Record<string, unknown>;
  /** True while something besides the upstream makes the server degraded (a storage fault): /healthz says so. */
  degraded?: () => boolean;
  /**
   * An error for new turns while they cannot be recorded (the app's storage monitor): chat
   * completions and POST /session answer with it before anything is sent to the model.
   */
  refuseTurn?: () => OpenClawError | undefined;
  /** Called as each response closes, with the requests still in flight (the app runs recording work when none is). */
  afterResponse?: (inFlight: number) => void;
  /** Called for requests without session id / turn type (counts), to log them. */
  onWarning?: ChatDeps['onWarning'];
  extraRoutes?: (app: FastifyInstance) => void;
  /** On close: how long answers in flight may take before they are cut (server.shutdown_grace_s). */
  shutdownGraceMs?: number;
  /** Told how the drain at close ended (logging). */
  onDrained?: (result: DrainResult) => void;
  /** The wire protocols to serve (default: one of each PROTOCOL_TABLE row); the app keeps them to forget sessions. */
  protocols?: WireProtocol[];
}

/** The digest `bearerMatches` compares against (computed once per configured key). */
export function keyDigest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** Constant-time key check (digests make lengths equal, so timing says nothing about the key). */
export function keyMatches(given: string | undefined, expected: Buffer): boolean {
  return timingSafeEqual(keyDigest(given ?? ''), expected) && given !== undefined;
}

/** Constant-time check of an `Authorization: Bearer <key>` header. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  return keyMatches(bearerToken({ authorization: header }), expected);
}

/** The protocol a route serves (its route config), for auth and error shapes. */
function protocolOf(request: { routeOptions: { config?: unknown } }): WireProtocol | undefined {
  return (request.routeOptions.config as { protocol?: WireProtocol } | undefined)?.protocol;
}

/** The protocol serving `path`: its model-turn route, a route below it (count_tokens), or a malformed spelling of it. */
function protocolAt(protocols: WireProtocol[], path: string): WireProtocol | undefined {
  return protocols.find((p) => path.startsWith(p.path));
}

const errorOf = (protocol: WireProtocol | undefined, err: unknown) => (protocol ? protocol.error(err) : toOpenAIError(err));

const OPEN_ROUTES = new Set(['/healthz']);

/** Builds the server; call `listen` on the result. */
export function buildGateway(opts: GatewayOptions): FastifyInstance {
  const protocols = opts.protocols ?? PROTOCOL_TABLE.map((row) => row());
  // Errors raised before routing (malformed HTTP, bad URL escapes, Expect) take the shape of the
  // protocol whose path the request named.
  const shapeFor: ErrorShape = (path, err) => errorOf(path === undefined ? undefined : protocolAt(protocols, path), err);
  const app = Fastify({
    logger: false,
    bodyLimit: opts.bodyLimitBytes,
    keepAliveTimeout: HTTP_TIMEOUTS.keepAliveTimeoutMs,
    requestTimeout: HTTP_TIMEOUTS.requestTimeoutMs,
    connectionTimeout: 0,
    http: {
      headersTimeout: HTTP_TIMEOUTS.headersTimeoutMs,
      connectionsCheckingInterval: HTTP_TIMEOUTS.checkIntervalMs,
      maxHeaderSize: 16 * 1024,
    },
    // Connections still open once the drain (preClose below) is over are closed, idle or not.
    forceCloseConnections: true,
    // Our own 503 (OpenAI's shape) for requests arriving while closing, from the hook below.
    return503OnClosing: false,
    // Fastify bounds close hooks by the plugin timeout (10 s): the drain must fit in it.
    pluginTimeout: (opts.shutdownGraceMs ?? 10_000) + 10_000,
    routerOptions: { maxParamLength: MAX_SESSION_ID_PARAM },
    frameworkErrors: frameworkErrors(opts.bodyLimitBytes, shapeFor),
    clientErrorHandler: clientErrorHandler(shapeFor),
  });
  // With a listener, Node leaves unknown `Expect` values to us (its own 417 has an empty body).
  app.server.on('checkExpectation', answerUnknownExpectation(shapeFor));
  const gate = new ShutdownGate();
  const models = new ModelNames([opts.servedModelName, opts.upstreamModelId], opts.modelAliases ?? []);
  const protocolCounters = new ProtocolCounters();
  const chatDeps: ChatDeps = {
    gate,
    channel: opts.channel,
    tracker: opts.tracker,
    tokens: opts.tokens,
    modelId: opts.upstreamModelId,
    maxTokensLimit: opts.maxTokensLimit,
    returnTokenIds: opts.returnTokenIds,
    sidePatterns: opts.sidePatterns,
    contextGuard: opts.contextGuard,
    onWarning: opts.onWarning,
    checkModel: (name) => models.check(name),
    sideCalls: opts.sideCalls,
    onProtocol: (name, ignored) => protocolCounters.count(name, ignored),
  };
  // Fastify's own JSON parser (same errors, same prototype-poisoning checks), keeping the text a
  // body came from (request.bodyText): a chat request's messages go upstream as that text.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.decorateRequest('bodyText', undefined);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    parseJson(request, text as string, (err, body) => {
      if (err === null && jsonNestingExceeds(body, MAX_BODY_DEPTH)) return done(tooDeepError(), undefined);
      if (err === null) request.bodyText = text as string;
      done(err, body);
    });
  });

  const expectedKey = opts.apiKey !== undefined && opts.apiKey !== '' ? keyDigest(opts.apiKey) : undefined;

  if (expectedKey) {
    app.addHook('onRequest', async (request) => {
      const path = request.url.split('?')[0];
      if (OPEN_ROUTES.has(path) || opts.publicPath?.(path)) return;
      const protocol = protocolOf(request);
      const given = protocol
        ? protocol.apiKey(request.headers as Record<string, unknown>)
        : bearerToken(request.headers as Record<string, unknown>);
      if (!keyMatches(given, expectedKey)) {
        throw new OpenClawError(
          'authentication',
          'Missing or wrong API key: send `Authorization: Bearer <key>` (Anthropic clients: `x-api-key: <key>`) with the key configured by --api-key, server.api_key or OPENCLAW_RL_API_KEY.',
          { code: 'invalid_api_key' },
        );
      }
    });
  }

  // Shutdown: stop accepting connections (idle keep-alive ones close now), refuse requests that
  // still arrive on open ones (in the hook below), and give answers in flight the grace period.
  app.addHook('preClose', async () => {
    app.server.close();
    const result = await gate.drain(opts.shutdownGraceMs ?? 10_000);
    opts.onDrained?.(result);
  });

  // A plain 'close' listener instead of an async onResponse hook: it also fires for hijacked
  // (streamed) replies, and costs no promise per request.
  let inFlight = 0;
  app.addHook('onRequest', (request, reply, done) => {
    const start = performance.now();
    inFlight++;
    reply.raw.once('close', () => {
      inFlight--;
      const route = request.routeOptions.url ?? 'unknown';
      opts.metrics.requests.inc({ route, status: String(reply.raw.statusCode) });
      opts.metrics.latency.observe({ route }, (performance.now() - start) / 1000);
      opts.afterResponse?.(inFlight);
    });
    if (!gate.closing) return done();
    reply.header('connection', 'close');
    done(shuttingDownError());
  });

  app.setErrorHandler((err, request, reply) => {
    const { status, body } = errorOf(protocolOf(request), mapRequestError(err, opts.bodyLimitBytes));
    void reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const { status, body } = shapeFor(
      request.url.split('?')[0],
      new OpenClawError('not_found', `Unknown endpoint ${request.method} ${request.url.split('?')[0]}.`, { code: 'unknown_url' }),
    );
    void reply.status(status).send(body);
  });

  const refuse = () => {
    const err = opts.refuseTurn?.();
    if (err !== undefined) throw err;
  };

  for (const protocol of protocols) {
    app.post(protocol.path, { config: { protocol } }, (request, reply) => {
      refuse();
      return handleTurn(chatDeps, protocol, request, reply);
    });
  }
  const anthropic = protocols.find((p) => p.path === '/v1/messages');
  if (anthropic !== undefined) registerCountTokens(app, anthropic, opts.renderPrompt);

  // One list both SDKs read: OpenAI's `object`/`created`/`owned_by` beside Anthropic's `type`/`display_name`/`created_at`/paging.
  const modelEntry = (id: string) => ({
    id,
    object: 'model',
    created: 0,
    owned_by: 'openclaw-rl',
    type: 'model',
    display_name: id,
    created_at: '1970-01-01T00:00:00Z',
  });
  app.get('/v1/models', async () => {
    const data = models.listed().map(modelEntry);
    return { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  });
  app.get('/v1/models/:id', async (request) => {
    const id = (request.params as { id: string }).id;
    models.check(id);
    return modelEntry(id);
  });

  let cachedHealth: { at: number; value: { ok: boolean; detail: string } } | undefined;
  app.get('/healthz', async () => {
    if (!cachedHealth || Date.now() - cachedHealth.at > 2000) cachedHealth = { at: Date.now(), value: await opts.channel.health() };
    const c = opts.tracker.counters;
    const warnings: string[] = [];
    if (c.requests_without_session_id > 0)
      warnings.push(
        `${c.requests_without_session_id} requests carried no session id (X-Session-Id / session_id); their sessions were inferred or defaulted (server.session_fallback)`,
      );
    if (c.requests_without_turn_type > 0)
      warnings.push(
        `${c.requests_without_turn_type} requests carried no turn type (X-Turn-Type / turn_type); they got the default turn type (server.default_turn_type)`,
      );
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

  app.post('/session', async (request) => {
    const b = request.body as Record<string, unknown> | null;
    if (b === null || typeof b !== 'object' || Array.isArray(b))
      throw invalidRequest('Request body must be a JSON object with session_id and messages.', null, 'invalid_body');
    if (b.session_id === undefined || b.session_id === null) {
      throw invalidRequest("Missing required parameter: 'session_id'.", 'session_id', 'missing_required_parameter');
    }
    if (typeof b.session_id !== 'string' && typeof b.session_id !== 'number') {
      throw invalidRequest(
        `Invalid value for 'session_id': expected a string or a number, got ${Array.isArray(b.session_id) ? 'an array' : typeof b.session_id}.`,
        'session_id',
        'invalid_value',
      );
    }
    const sessionId = checkSessionId(String(b.session_id), 'session_id');
    refuse();
    const out = await runTurn(
      chatDeps,
      prepareTurn(chatDeps, { ...b, stream: false }, request.headers as Record<string, unknown>, { sessionId, turnType: 'main' }),
    );
    return {
      session_id: sessionId,
      turn_id: out.turnId ?? null,
      message: out.message,
      judged_turns: opts.views.judgedTurns(sessionId),
    };
  });

  app.get('/sessions/:id', async (request) => {
    const id = checkSessionId((request.params as { id: string }).id, 'id');
    const turns = opts.views.turns(id);
    if (!turns)
      throw new OpenClawError(
        'not_found',
        `No session '${id}' is known to this server (sessions are kept in memory for the 5000 most recently active; every turn is in records/turns.jsonl).`,
        { code: 'session_not_found', param: 'id' },
      );
    return { session_id: id, named_by: opts.tracker.namedBy(id) ?? null, turns };
  });

  opts.extraRoutes?.(app);
  return app;
}
