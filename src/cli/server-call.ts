// One admin call to a running server from the command line (`rollback --url`, `forget --url`):
// the key as a bearer token, the JSON answer back, and a refusal turned into an OpenClawError that
// carries the server's own message.
import { OpenClawError } from '../errors/index.ts';

/** Calls `method path` on the server at `url` with its API key (else OPENCLAW_RL_API_KEY); returns the JSON body. */
export async function callServer<T>(
  url: string,
  method: 'POST' | 'DELETE',
  path: string,
  opts: { apiKey?: string; body?: unknown; what: string },
): Promise<T> {
  const key = opts.apiKey ?? process.env.OPENCLAW_RL_API_KEY;
  const res = await fetch(`${url.replace(/\/+$/, '')}${path}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  }).catch((err: Error) => {
    throw new OpenClawError('upstream_connection', `cannot reach ${url}: ${err.message}`);
  });
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!res.ok) {
    throw new OpenClawError(
      res.status === 404 ? 'not_found' : res.status === 401 || res.status === 403 ? 'permission' : 'invalid_request',
      `${opts.what} refused (HTTP ${res.status}): ${body.error?.message ?? 'no reason given'}`,
    );
  }
  return body;
}
