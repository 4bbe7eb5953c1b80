// The session endpoints: `POST /session` runs one main turn of a named session (not streamed) and
// answers with its message and the session's judged turns; `GET /sessions/:id` lists a session's
// turns. In: the turn route's deps, `refuse`, the tracker and views. Out: the two routes.
import type { FastifyInstance } from 'fastify';
import { OpenClawError, invalidRequest } from '../../errors/index.ts';
import { checkSessionId } from '../../sessions/index.ts';
import type { GatewayOptions } from '../options.ts';
import { prepareTurn, runTurn, type ChatDeps } from '../turn-route.ts';

type SessionOptions = Pick<GatewayOptions, 'tracker' | 'views'>;

/** The body's `session_id` as a checked session id; a 400 naming the field when it is missing or not a string or number. */
function bodySessionId(b: Record<string, unknown> | null): string {
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
  return checkSessionId(String(b.session_id), 'session_id');
}

export function registerSessionRoutes(app: FastifyInstance, deps: ChatDeps, refuse: () => void, opts: SessionOptions): void {
  app.post('/session', async (request) => {
    const b = request.body as Record<string, unknown> | null;
    const sessionId = bodySessionId(b);
    refuse();
    const out = await runTurn(
      deps,
      prepareTurn(deps, { ...b, stream: false }, request.headers as Record<string, unknown>, { sessionId, turnType: 'main' }),
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
}
