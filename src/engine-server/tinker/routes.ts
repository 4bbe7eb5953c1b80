// The /api/v1/ routes of the embedded Tinker server on the engine server's Fastify app. Each body
// is parsed once with its zod schema; HTTP errors on these routes use the FastAPI shape SkyRL's
// server answers with, {"detail": "<message>", "param", "code"} — 400 bad body, 404 unknown
// session/model/path/request, 409 a seq_id reused for another payload, 410 a lost future.

import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { OpenClawError } from '../../errors/index.ts';
import { zodToInvalid } from '../validate.ts';
import * as S from './schemas.ts';
import type { TinkerService } from './service.ts';

function parse<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw zodToInvalid(parsed.error);
  return parsed.data;
}

/** Registers the Tinker routes under /api/v1 (as an encapsulated plugin with its own error shape). */
export function registerTinkerRoutes(app: FastifyInstance, service: TinkerService): void {
  void app.register(
    async (scope) => {
      scope.setErrorHandler(async (err, _request, reply) => {
        const e =
          err instanceof OpenClawError
            ? err
            : new OpenClawError(
                (err as { statusCode?: number }).statusCode !== undefined ? 'invalid_request' : 'internal',
                (err as Error).message,
                { status: (err as { statusCode?: number }).statusCode },
              );
        await reply.status(e.status).send({ detail: e.message, param: e.param, code: e.code });
      });
      scope.get('/healthz', async (_req, reply) => {
        const h = service.health();
        return h.ok ? { status: 'ok' } : reply.status(503).send({ status: 'error', detail: h.detail });
      });
      scope.get('/get_server_capabilities', async () => service.capabilities());
      // The SDK's handshake: it then speaks JSON (no protobuf, no zstd).
      scope.post('/client/config', async () => ({ pjwt_auth_enabled: false, proto_write_fwdbwd: false, proto_compress_fwdbwd: false }));
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
