// `GET /evaluation`: the per-version evaluation as JSON. The gateway's key check covers it like
// every other data route (only /healthz and the dashboard's page shell are public).
import type { FastifyInstance } from 'fastify';
import { toOpenAIError } from '../errors/index.ts';
import type { Evaluation } from './aggregate.ts';

/** Adds `GET /evaluation`, answering `evaluation()` computed at each request. */
export function registerEvaluationRoute(app: FastifyInstance, evaluation: () => Evaluation): void {
  app.get('/evaluation', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      return evaluation();
    } catch (err) {
      const { status, body } = toOpenAIError(err);
      return reply.status(status).send(body);
    }
  });
}
