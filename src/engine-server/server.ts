// The engine server (Fastify, like the gateway): one policy engine behind
//   POST /v1/chat/completions   OpenAI chat, streamed or not, vLLM-style logprobs/token ids
//   GET  /v1/models             the one served model
//   POST /generate              SGLang native: input_ids, return_logprob, logprob_start_len, top-K
//   GET  /health, /healthz      200 while up, with the policy version
//   /api/v1/…                   the Tinker training API, when started with a TinkerService (tinker/)
// Errors are OpenAI error bodies with the status of their OpenClawError kind (Tinker routes: FastAPI's).

import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bearerMatches, keyDigest } from '../gateway/index.ts';
import { OpenClawError, toOpenAIError } from '../errors/index.ts';
import { EmbeddedChatTokenizer, TokenChatChannel, loadChatTokenizer } from '../chat/index.ts';
import type { PolicyEngine } from '../engines/types.ts';
import { handleChatCompletion } from './chat.ts';
import { handleGenerate } from './generate.ts';
import type { EngineServerTokenizer } from './validate.ts';
import { registerTinkerRoutes, TinkerService, type TinkerServerOptions } from './tinker/index.ts';

/** What the server serves and where. */
export interface EngineServerOptions {
  engine: PolicyEngine;
  tokenizer: EngineServerTokenizer;
  /** Name in /v1/models and in answers. */
  modelId: string;
  /** The model's context (prompt + answer tokens). */
  contextLength: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port; the URL says which). */
  port?: number;
  /** Chat defaults when a request does not say (default 256 tokens, temperature 1). */
  defaultMaxTokens?: number;
  defaultTemperature?: number;
  /** When set, every route but /health(z) needs `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Largest request body in bytes (default 16 MiB). */
  bodyLimitBytes?: number;
  /** Serve the Tinker API under /api/v1 with this service (the caller owns and closes it). */
  tinker?: TinkerService;
}

/** A listening engine server. */
export interface RunningEngineServer {
  /** `http://host:port` (the OpenAI base URL is this + `/v1`). */
  url: string;
  app: FastifyInstance;
  /** Stops listening; the engine stays open (its owner closes it). */
  close(): Promise<void>;
}

const OPEN_ROUTES = new Set(['/health', '/healthz', '/api/v1/healthz']);

/** Builds the Fastify app without listening (tests may `inject`). */
export function buildEngineServer(opts: EngineServerOptions): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: opts.bodyLimitBytes ?? 16 * 1024 * 1024, forceCloseConnections: true });
  const channel = new TokenChatChannel(opts.engine, opts.tokenizer, {
    modelId: opts.modelId,
    contextLength: opts.contextLength,
    defaultMaxTokens: opts.defaultMaxTokens ?? 256,
    defaultTemperature: opts.defaultTemperature ?? 1,
  });
  const expected = opts.apiKey !== undefined && opts.apiKey !== '' ? keyDigest(opts.apiKey) : null;

  app.addHook('onRequest', async (request) => {
    if (expected === null || OPEN_ROUTES.has(request.url.split('?')[0])) return;
    // Tinker clients send the key as X-API-Key.
    const tinkerKey = request.headers['x-api-key'];
    if (opts.tinker !== undefined && typeof tinkerKey === 'string' && bearerMatches(`Bearer ${tinkerKey}`, expected)) return;
    if (!bearerMatches(request.headers.authorization, expected)) {
      throw new OpenClawError(
        'authentication',
        'Missing or wrong API key: send `Authorization: Bearer <key>` with the key the engine server was started with.',
        { code: 'invalid_api_key' },
      );
    }
  });
  app.setErrorHandler(async (err, _request, reply) => {
    // Fastify's own errors (bad JSON, body too large) carry a 4xx statusCode.
    const status = (err as { statusCode?: number }).statusCode;
    const mapped =
      !(err instanceof OpenClawError) && status !== undefined && status < 500
        ? new OpenClawError('invalid_request', (err as Error).message, { status })
        : err;
    const { status: code, body } = toOpenAIError(mapped);
    await reply.status(code).send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const { status, body } = toOpenAIError(
      new OpenClawError(
        'not_found',
        `no route ${request.method} ${request.url} on the engine server (routes: /v1/chat/completions, /v1/models, /generate, /health${opts.tinker !== undefined ? ', /api/v1/… (Tinker)' : ''})`,
      ),
    );
    await reply.status(status).send(body);
  });

  if (opts.tinker !== undefined) registerTinkerRoutes(app, opts.tinker);
  app.post('/v1/chat/completions', (request, reply) => handleChatCompletion(channel, request, reply));
  app.get('/v1/models', async () => ({
    object: 'list',
    data: [{ id: opts.modelId, object: 'model', created: 0, owned_by: 'openclaw-rl', max_model_len: opts.contextLength }],
  }));
  app.post('/generate', async (request, reply) => {
    const abort = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort(new OpenClawError('invalid_request', 'client disconnected'));
    });
    return handleGenerate(opts.engine, opts.tokenizer, request.body, abort.signal);
  });
  const health = async () => ({ ok: true, engine: opts.engine.kind, policy_version: opts.engine.version() });
  app.get('/health', health);
  app.get('/healthz', health);
  return app;
}

/** Starts the engine server; resolves once it listens. */
export async function startEngineServer(opts: EngineServerOptions): Promise<RunningEngineServer> {
  const app = buildEngineServer(opts);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : (opts.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { url, app, close: () => app.close() };
}

/** Loads a checkpoint (serving only) and starts the engine server over it; `close` also stops the engine. */
export async function serveEngine(opts: {
  checkpoint: string;
  host?: string;
  port?: number;
  apiKey?: string;
  modelId: string;
  /** Also serve the Tinker API (base_model = modelId), saving weights under this state dir. */
  tinker?: { stateDir: string; profile?: TinkerServerOptions['profile']; maxLoraAdapters?: number; script?: TinkerServerOptions['script'] };
  /**
   * A Hugging Face tokenizer folder to serve the checkpoint with (chat template and all) instead of
   * its own tokenizer; the checkpoint's vocabulary must hold its ids (docs/tinker-local.md).
   */
  tokenizer?: string;
}): Promise<RunningEngineServer> {
  const { WorkerEngine } = await import('../engines/embedded/index.ts');
  if (!existsSync(join(opts.checkpoint, 'config.json'))) {
    throw new OpenClawError(
      'config',
      `no checkpoint at ${opts.checkpoint} (expected config.json, model.safetensors, tokenizer.json); run 'npm run pretrain' or pass --checkpoint`,
    );
  }
  const engine = await WorkerEngine.load(opts.checkpoint, { train: false });
  if (engine.tokenizer === null && opts.tokenizer === undefined) {
    await engine.close();
    throw new OpenClawError(
      'config',
      `checkpoint ${opts.checkpoint} has no tokenizer.json: pass --tokenizer DIR (the Hugging Face folder it was built over)`,
    );
  }
  let tinker: TinkerService | undefined;
  try {
    if (opts.tinker !== undefined)
      tinker = await TinkerService.start({
        checkpoint: opts.checkpoint,
        stateDir: opts.tinker.stateDir,
        baseModel: opts.modelId,
        profile: opts.tinker.profile,
        maxLoraAdapters: opts.tinker.maxLoraAdapters,
        tokenizer: opts.tokenizer,
        script: opts.tinker.script,
      });
    const server = await startEngineServer({
      engine,
      tokenizer:
        opts.tokenizer !== undefined ? (await loadChatTokenizer(opts.tokenizer)).tokenizer : new EmbeddedChatTokenizer(engine.tokenizer!),
      modelId: opts.modelId,
      contextLength: engine.config.ctx,
      host: opts.host,
      port: opts.port,
      apiKey: opts.apiKey,
      tinker,
    });
    return {
      ...server,
      close: async () => {
        await server.close();
        await tinker?.close();
        await engine.close();
      },
    };
  } catch (err) {
    await tinker?.close();
    await engine.close();
    throw err;
  }
}
