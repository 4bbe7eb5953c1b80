// The dashboard's HTTP routes: the page, its static files, and a small JSON API the page polls.
// Every list is paginated and every step request is bounded, so the page never pulls the store.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OpenClawError, toOpenAIError } from '../errors/index.ts';
import { PAGE_CSP, loadAssets, type Asset } from './assets.ts';
import { intParam, pageParams } from './query.ts';
import { MAX_STEPS } from './steps.ts';
import type { DashboardSource } from './types.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Errors become OpenAI-shaped bodies here, so the routes behave the same inside or outside the gateway. */
function guarded(handler: Handler): Handler {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (err) {
      const { status, body } = toOpenAIError(err);
      return reply.status(status).header('cache-control', 'no-store').send(body);
    }
  };
}

function sendAsset(reply: FastifyReply, asset: Asset): FastifyReply {
  return reply
    .header('content-type', asset.contentType)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .send(asset.body);
}

function query(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

/** Adds `/dashboard`, `/dashboard/assets/*` and `/dashboard/api/*` to a Fastify app. */
export function registerDashboard(app: FastifyInstance, source: DashboardSource): void {
  const assets = loadAssets();
  const page = assets.get('index.html');
  if (!page)
    throw new OpenClawError(
      'internal',
      'The dashboard page src/dashboard/public/index.html is missing from the package; reinstall openclaw-rl.',
    );

  app.get('/dashboard', async (_request, reply) => sendAsset(reply.header('content-security-policy', PAGE_CSP), page));
  // A relative Location keeps working behind a reverse proxy that mounts the server under a prefix.
  app.get('/dashboard/', async (_request, reply) => reply.redirect('../dashboard', 302));

  app.get(
    '/dashboard/assets/*',
    guarded(async (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      const asset = assets.get(name);
      if (!asset) throw new OpenClawError('not_found', `The dashboard has no file '${name.slice(0, 80)}'.`, { code: 'asset_not_found' });
      return sendAsset(reply, asset);
    }),
  );

  app.get(
    '/dashboard/api/status',
    guarded(async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return await source.status();
    }),
  );

  app.get(
    '/dashboard/api/steps',
    guarded(async (request, reply) => {
      const q = query(request);
      const since = intParam(q, 'since', 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = intParam(q, 'limit', MAX_STEPS, 1, MAX_STEPS);
      reply.header('cache-control', 'no-store');
      return { steps: await source.steps(since, limit) };
    }),
  );

  app.get(
    '/dashboard/api/evaluation',
    guarded(async (_request, reply) => {
      if (source.evaluation === undefined) {
        throw new OpenClawError('not_found', 'This server has no sample store to evaluate policy versions from.', {
          code: 'evaluation_unavailable',
        });
      }
      const evaluation = await source.evaluation();
      reply.header('cache-control', 'no-store');
      return evaluation;
    }),
  );

  app.get(
    '/dashboard/api/sessions',
    guarded(async (request, reply) => {
      const p = pageParams(query(request));
      const result = await source.sessions(p);
      reply.header('cache-control', 'no-store');
      return { offset: p.offset, limit: p.limit, total: result.total, items: result.items };
    }),
  );

  app.get(
    '/dashboard/api/sessions/:id/turns',
    guarded(async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const p = pageParams(query(request));
      const result = await source.sessionTurns(id, p);
      if (!result) {
        throw new OpenClawError(
          'not_found',
          `No session '${id.slice(0, 200)}' is known to this server (it keeps the most recent sessions in memory).`,
          { code: 'session_not_found', param: 'id' },
        );
      }
      reply.header('cache-control', 'no-store');
      return { session_id: id, offset: p.offset, limit: p.limit, total: result.total, items: result.items };
    }),
  );
}
