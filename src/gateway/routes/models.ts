// `GET /v1/models` and `GET /v1/models/:id`: the model names this server answers to, in one list
// both SDKs read. In: the server's ModelNames. Out: the two routes (an unknown id gets the 404 of
// `ModelNames.check`, which lists the names served).
import type { FastifyInstance } from 'fastify';
import type { ModelNames } from '../model-names.ts';

// OpenAI's `object`/`created`/`owned_by` beside Anthropic's `type`/`display_name`/`created_at` (and paging on the list).
const modelEntry = (id: string) => ({
  id,
  object: 'model',
  created: 0,
  owned_by: 'openclaw-rl',
  type: 'model',
  display_name: id,
  created_at: '1970-01-01T00:00:00Z',
});

export function registerModelRoutes(app: FastifyInstance, models: ModelNames): void {
  app.get('/v1/models', async () => {
    const data = models.listed().map(modelEntry);
    return { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  });
  app.get('/v1/models/:id', async (request) => {
    const id = (request.params as { id: string }).id;
    models.check(id);
    return modelEntry(id);
  });
}
