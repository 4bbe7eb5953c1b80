// Turn summaries and step metrics for the dashboard tests, built from a few numbers so that the
// expected values in the tests can be worked out by hand.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TurnSummary } from '../../src/gateway/views.ts';
import { bearerMatches } from '../../src/gateway/server.ts';
import { isDashboardShellPath, type StepPoint } from '../../src/dashboard/index.ts';

/** The gateway's bearer check, letting the page shell through as the app wires it. */
export function gatewayAuth(app: FastifyInstance, apiKey: string): void {
  const expected = createHash('sha256').update(apiKey).digest();
  app.addHook('onRequest', async (request, reply) => {
    if (isDashboardShellPath(request.url.split('?')[0])) return;
    if (!bearerMatches(request.headers.authorization, expected)) {
      await reply
        .status(401)
        .send({ error: { message: 'Missing or wrong API key.', type: 'authentication_error', param: null, code: 'invalid_api_key' } });
    }
  });
}

/** Turn `id` of a session: judged (score +1, two votes) when `judged`, with a hint on even ids. */
export function turn(id: number, opts: { judged?: boolean; version?: number; minute?: number } = {}): TurnSummary {
  const at = new Date(Date.UTC(2025, 0, 1, 12, opts.minute ?? id)).toISOString();
  const t: TurnSummary = {
    turn_id: id,
    started_at: at,
    completed_at: at,
    policy_version: opts.version ?? 0,
    finish_reason: 'stop',
    response: `answer number ${id}`,
    tool_calls: 0,
    next_state: { role: 'user', content: `reply to answer ${id}` },
  };
  if (opts.judged ?? true) {
    t.judgement = {
      score: 1,
      votes: [1, 1, -1],
      loss_mask: 1,
      hint_accepted: id % 2 === 0,
      hint: id % 2 === 0 ? `keep answers shorter than ${id + 10} words` : null,
      sample_type: id % 2 === 0 ? 'combined' : 'rl',
    };
  }
  return t;
}

/** Step `n` with every charted metric set to a value derived from n. */
export function step(n: number, extra: Record<string, number> = {}): StepPoint {
  return {
    step: n,
    policy_version: n,
    reward_mean: -0.5 + 0.1 * n,
    advantage_mean: 0.05 * n,
    advantage_std: 1 - 0.05 * n,
    effective_sample_rate: 0.5 + 0.04 * n,
    hint_accept_rate: 0.1 * n,
    pg_clipfrac: 0.01 * n,
    ppo_kl: 0.001 * n,
    kl_loss: 0,
    staleness_mean: 0.5,
    step_time_s: 2 + n / 10,
    ...extra,
  };
}
