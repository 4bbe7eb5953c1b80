// The HTTP server (Fastify 5), assembled in order: the instance (limits, timeouts, the JSON parser),
// API-key auth in each protocol's header form (auth.ts), request accounting and the drain
// (in-flight.ts), errors in each protocol's shape, then the routes (routes/). In: GatewayOptions
// (options.ts). Out: the server. Later stages (feedback, dashboard, …) add routes through `extraRoutes`.
import Fastify, { type FastifyInstance } from 'fastify';
import { OpenClawError } from '../errors/index.ts';
import type { ChatDeps } from './turn-route.ts';
import { PROTOCOL_TABLE } from './protocols/index.ts';
import { ModelNames } from './model-names.ts';
import { ProtocolCounters } from './protocol-counters.ts';
import { MAX_SESSION_ID_PARAM } from '../sessions/index.ts';
import { ShutdownGate } from './shutdown.ts';
import type { GatewayOptions } from './options.ts';
import { addKeyCheck } from './auth.ts';
import { trackRequests } from './in-flight.ts';
import { errorOf, pathErrorShape, pathOf, protocolOf } from './request-protocol.ts';
import { registerTurnRoutes } from './routes/turns.ts';
import { registerModelRoutes } from './routes/models.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerSessionRoutes } from './routes/sessions.ts';
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

export type { GatewayOptions } from './options.ts';
export { bearerMatches, keyDigest, keyMatches } from './auth.ts';

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

/** The Fastify instance with the connection limits and timeouts; errors before routing take `shapeFor`'s shape. */
function newFastify(bodyLimitBytes: number, graceMs: number, shapeFor: ErrorShape): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: bodyLimitBytes,
    keepAliveTimeout: HTTP_TIMEOUTS.keepAliveTimeoutMs,
    requestTimeout: HTTP_TIMEOUTS.requestTimeoutMs,
    connectionTimeout: 0,
    http: {
      headersTimeout: HTTP_TIMEOUTS.headersTimeoutMs,
      connectionsCheckingInterval: HTTP_TIMEOUTS.checkIntervalMs,
      maxHeaderSize: 16 * 1024,
    },
    // Connections still open once the drain (preClose, in-flight.ts) is over are closed, idle or not.
    forceCloseConnections: true,
    // Our own 503 (OpenAI's shape) for requests arriving while closing, from the onRequest hook of in-flight.ts.
    return503OnClosing: false,
    // Fastify bounds close hooks by the plugin timeout (10 s): the drain must fit in it.
    pluginTimeout: graceMs + 10_000,
    routerOptions: { maxParamLength: MAX_SESSION_ID_PARAM },
    frameworkErrors: frameworkErrors(bodyLimitBytes, shapeFor),
    clientErrorHandler: clientErrorHandler(shapeFor),
  });
  // With a listener, Node leaves unknown `Expect` values to us (its own 417 has an empty body).
  app.server.on('checkExpectation', answerUnknownExpectation(shapeFor));
  return app;
}

/**
 * Fastify's own JSON parser (same errors, same prototype-poisoning checks), keeping the text a
 * body came from (request.bodyText): a chat request's messages go upstream as that text.
 */
function keepBodyText(app: FastifyInstance): void {
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
}

/** Errors of routes in their protocol's shape; unknown URLs in the shape of the protocol their path names. */
function setErrorReplies(app: FastifyInstance, shapeFor: ErrorShape, bodyLimitBytes: number): void {
  app.setErrorHandler((err, request, reply) => {
    const { status, body } = errorOf(protocolOf(request), mapRequestError(err, bodyLimitBytes));
    void reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request);
    const { status, body } = shapeFor(
      path,
      new OpenClawError('not_found', `Unknown endpoint ${request.method} ${path}.`, { code: 'unknown_url' }),
    );
    void reply.status(status).send(body);
  });
}

/** What the model-turn route needs, from the options and the server's own parts. */
function turnDeps(opts: GatewayOptions, gate: ShutdownGate, models: ModelNames, protocolCounters: ProtocolCounters): ChatDeps {
  return {
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
}

/** Throws `refuseTurn`'s error, if any: turn routes call it before anything goes to the model. */
function refuser(refuseTurn: GatewayOptions['refuseTurn']): () => void {
  return () => {
    const err = refuseTurn?.();
    if (err !== undefined) throw err;
  };
}

/**
 * Builds the server; call `listen` on the result. In order: the instance, its parser and hooks
 * (auth before the in-flight count, as Fastify runs them in order), the error replies, then the
 * routes — one per wire protocol, models, health and metrics, sessions, and the app's own.
 */
export function buildGateway(opts: GatewayOptions): FastifyInstance {
  const protocols = opts.protocols ?? PROTOCOL_TABLE.map((row) => row());
  const graceMs = opts.shutdownGraceMs ?? 10_000;
  const shapeFor = pathErrorShape(protocols);
  const app = newFastify(opts.bodyLimitBytes, graceMs, shapeFor);
  const gate = new ShutdownGate();
  const models = new ModelNames([opts.servedModelName, opts.upstreamModelId], opts.modelAliases ?? []);
  const protocolCounters = new ProtocolCounters();
  const deps = turnDeps(opts, gate, models, protocolCounters);
  const refuse = refuser(opts.refuseTurn);

  keepBodyText(app);
  addKeyCheck(app, opts.apiKey, opts.publicPath);
  trackRequests(app, gate, { graceMs, metrics: opts.metrics, afterResponse: opts.afterResponse, onDrained: opts.onDrained });
  setErrorReplies(app, shapeFor, opts.bodyLimitBytes);

  registerTurnRoutes(app, protocols, deps, refuse, opts.renderPrompt);
  registerModelRoutes(app, models);
  registerHealthRoutes(app, opts, protocolCounters);
  registerSessionRoutes(app, deps, refuse, opts);
  opts.extraRoutes?.(app);
  return app;
}
