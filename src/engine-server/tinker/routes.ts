// The /api/v1/ routes of the embedded Tinker server on the engine server's Fastify app. Each body
// is parsed once with its zod schema. HTTP errors: hosted profile {"detail": "<message>", "param",
// "code"} — 400 bad body, 404 unknown session/model/path/request, 409 a seq_id reused for another
// payload, 410 a lost future; SkyRL profiles exactly FastAPI's {"detail": …} — 422 with a list of
// issues for a body that does not validate, the string of SkyRL's HTTPException otherwise, and
// {"detail": "Not Found"} for a route SkyRL does not have.

import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { OpenClawError } from '../../errors/index.ts';
import { zodToInvalid } from '../validate.ts';
import { clientConfig, DetailError, SKYRL_ROOT } from './profiles.ts';
import * as S from './schemas.ts';
import type { TinkerService } from './service.ts';

/** FastAPI's 422 body for zod issues (pydantic's `missing` / value errors, loc from "body"). */
function fastApi422(err: z.ZodError, body: unknown): DetailError {
  return new DetailError(
    422,
    err.issues.map((i) => {
      const missing = i.code === 'invalid_type' && i.received === 'undefined';
      return {
        type: missing ? 'missing' : 'value_error',
        loc: ['body', ...i.path],
        msg: missing ? 'Field required' : i.message,
        input: body ?? null,
      };
    }),
  );
}

/** Registers the Tinker routes under /api/v1 (as an encapsulated plugin with its own error shape). */
export function registerTinkerRoutes(app: FastifyInstance, service: TinkerService): void {
  const skyrl = service.profile.skyrl;
  const parse = <T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> => {
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) throw skyrl ? fastApi422(parsed.error, body) : zodToInvalid(parsed.error);
    return parsed.data;
  };
  // SkyRL answers GET / with its name: one way a client tells it from hosted Tinker (api.py L1692).
  if (skyrl) app.get('/', async () => SKYRL_ROOT);
  void app.register(
    async (scope) => {
      if (skyrl) scope.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ detail: 'Not Found' }));
      scope.setErrorHandler(async (err, _request, reply) => {
        if (err instanceof DetailError) {
          // FastAPI renders an unhandled exception as a plain-text 500.
          if (err.status === 500 && err.detail === 'Internal Server Error')
            return reply.status(500).type('text/plain').send('Internal Server Error');
          return reply.status(err.status).send({ detail: err.detail });
        }
        const e =
          err instanceof OpenClawError
            ? err
            : new OpenClawError(
                (err as { statusCode?: number }).statusCode !== undefined ? 'invalid_request' : 'internal',
                (err as Error).message,
                { status: (err as { statusCode?: number }).statusCode },
              );
        if (skyrl) {
          // A body FastAPI could not even read as JSON is a 422 there as well.
          if (e.status === 400 && (err as { code?: string }).code?.startsWith('FST_ERR_CTP'))
            return reply.status(422).send({ detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error' }] });
          return reply.status(e.status).send({ detail: e.message });
        }
        await reply.status(e.status).send({ detail: e.message, param: e.param, code: e.code });
      });
      scope.get('/healthz', async (_req, reply) => {
        const h = service.health();
        return h.ok ? { status: 'ok' } : reply.status(503).send({ status: 'error', detail: h.detail });
      });
      scope.get('/get_server_capabilities', async () => service.capabilities());
      // The SDK's handshake, as each server answers it (profiles.ts): the stand-in speaks JSON only.
      scope.post('/client/config', async () => clientConfig(service.profile));
      // Hosted only (SDK 0.25 resources/service.py client_dynamic_config); SkyRL has no such route.
      if (!skyrl) scope.post('/client/dynamic_config', async () => ({ refresh_interval_sec: 300 }));
      scope.post('/telemetry', async () => ({ status: 'accepted' }));
      scope.post('/create_session', async (req) => service.createSession(parse(S.CreateSession, req.body)));
      scope.post('/session_heartbeat', async (req) => service.heartbeat(parse(S.SessionRef, req.body)));
      scope.post('/create_model', async (req) => service.createModel(parse(S.CreateModel, req.body)));
      scope.post('/unload_model', async (req) => service.unloadModel(parse(S.ModelRef, req.body)));
      scope.post('/get_info', async (req) => service.getInfo(parse(S.ModelRef, req.body)));
      scope.post('/forward_backward', async (req) => service.forwardBackward(parse(S.ForwardBackward, req.body), true));
      scope.post('/forward', async (req) => service.forwardBackward(parse(S.Forward, req.body), false));
      scope.post('/optim_step', async (req) => service.optimStep(parse(S.OptimStep, req.body)));
      scope.post('/save_weights_for_sampler', async (req) => service.saveWeightsForSampler(parse(S.SaveForSampler, req.body)));
      scope.post('/save_weights', async (req) => service.saveWeights(parse(S.SaveWeights, req.body)));
      scope.post('/load_weights', async (req) => service.loadWeights(parse(S.LoadWeights, req.body)));
      scope.post('/create_sampling_session', async (req) => service.createSamplingSession(parse(S.CreateSamplingSession, req.body)));
      scope.post('/asample', async (req) => service.asample(parse(S.Asample, req.body)));
      scope.post('/retrieve_future', async (req) => service.retrieve(parse(S.RetrieveFuture, req.body)));
    },
    { prefix: '/api/v1' },
  );
}
