// POST /v1/feedback on the gateway: validates the body (400 naming the field), applies the
// feedback through the pipeline (404 unknown session/turn, 409 turn already final) and answers
// with what became of it. Registered through the gateway's `extraRoutes`.
import type { FastifyInstance } from 'fastify';
import { parseFeedbackBody } from './feedback.ts';
import type { ScoringStage } from './stage.ts';

/** Adds `POST /v1/feedback {session_id, turn_id?, score, comment?}` to the server. */
export function registerFeedbackRoute(app: FastifyInstance, pipeline: ScoringStage): void {
  app.post('/v1/feedback', async (request) => pipeline.submitFeedback(parseFeedbackBody(request.body)));
}
