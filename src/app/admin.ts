// Admin routes: `DELETE /sessions/:id` and `DELETE /sessions?before=DATE` (forget.ts), and on a training server `GET /admin/versions` (the kept checkpoints: which versions
// can be restored) and `POST /admin/rollback {"version": N}` (Trainer.rollback). Both change or
// reveal the training state, so they answer only when the server has an API key (the gateway's
// key check then guards them); without one they are 403 with what to set.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { OpenClawError, invalidRequest } from '../errors/index.ts';
import { listCheckpoints, type Trainer } from '../trainer/index.ts';
import { checkSessionId } from '../sessions/index.ts';
import type { Forgetter } from './forget.ts';

const RollbackBody = z.object({ version: z.number().int().min(0) }).strict();

/** Refuses an admin call on a server without an API key (anyone could call it): 403 saying what to set. */
function requireKey(keyed: boolean, what: string, otherwise = ''): void {
  if (keyed) return;
  throw new OpenClawError(
    'permission',
    `${what} a server API key: start the server with --api-key, server.api_key or OPENCLAW_RL_API_KEY${otherwise}`,
    { code: 'admin_needs_key' },
  );
}

/** Registers the admin routes; `keyed` says whether the gateway requires an API key. */
export function registerAdminRoutes(app: FastifyInstance, opts: { trainer?: Trainer; outputDir: string; keyed: boolean }): void {
  const guard = () => {
    requireKey(opts.keyed, 'admin endpoints need');
    if (opts.trainer === undefined) {
      throw new OpenClawError('invalid_request', 'this server does not train (api-server): there is no training state to roll back', {
        status: 409,
        code: 'not_training',
      });
    }
    return opts.trainer;
  };
  app.get('/admin/versions', async () => {
    const trainer = guard();
    return {
      step: trainer.step,
      kept: listCheckpoints(opts.outputDir).map((c) => ({
        policy_version: c.manifest.policy_version,
        step: c.manifest.step,
        saved_at: c.manifest.saved_at,
        dir: c.dir,
      })),
    };
  });
  app.post('/admin/rollback', async (request) => {
    const trainer = guard();
    const parsed = RollbackBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalidRequest(
        `body.${issue.path.join('.') || 'version'}: ${issue.message} (send {"version": N}, a kept policy version)`,
        'version',
      );
    }
    return trainer.rollback(parsed.data.version);
  });
}

const ForgetQuery = z.object({ before: z.string().optional() }).strict();

/** A date for `before`: ISO 8601 (a day or a time); a clear 400 otherwise. */
export function parseBefore(v: string, field: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalidRequest(
      `${field}: ${JSON.stringify(v)} is not a date; give an ISO 8601 date such as 2026-11-30 or 2026-11-30T12:00:00Z`,
      'before',
    );
  return ms;
}

/**
 * `DELETE /sessions/:id` forgets one session; `DELETE /sessions?before=DATE` every session idle
 * since before DATE. Both need the server's API key, as the admin routes do.
 */
export function registerForgetRoutes(app: FastifyInstance, opts: { forgetter: Forgetter; keyed: boolean }): void {
  const guard = () => requireKey(opts.keyed, 'forgetting sessions needs', ' (or stop it and run openclaw-rl forget)');
  app.delete<{ Params: { id: string } }>('/sessions/:id', async (request) => {
    guard();
    return opts.forgetter.forget(checkSessionId(request.params.id, 'id'));
  });
  app.delete('/sessions', async (request) => {
    guard();
    const q = ForgetQuery.safeParse(request.query ?? {});
    if (!q.success || q.data.before === undefined) {
      throw invalidRequest(
        'query: give ?before=DATE (ISO 8601) to forget sessions idle since before it, or DELETE /sessions/{id}',
        'before',
      );
    }
    const forgotten = await opts.forgetter.forgetBefore(parseBefore(q.data.before, 'query.before'));
    return { forgotten };
  });
}
