// API-key auth: constant-time key checks (also used by the engine server), and the onRequest hook
// that asks every request but the open ones (/healthz, the dashboard's public paths) for the key in
// its protocol's header form. In: the configured key. Out: a 401 'invalid_api_key' when it is wrong.
import type { FastifyInstance } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { OpenClawError } from '../errors/index.ts';
import { bearerToken } from './headers.ts';
import { pathOf, protocolOf } from './request-protocol.ts';

/** The digest `bearerMatches` compares against (computed once per configured key). */
export function keyDigest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** Constant-time key check (digests make lengths equal, so timing says nothing about the key). */
export function keyMatches(given: string | undefined, expected: Buffer): boolean {
  return timingSafeEqual(keyDigest(given ?? ''), expected) && given !== undefined;
}

/** Constant-time check of an `Authorization: Bearer <key>` header. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  return keyMatches(bearerToken({ authorization: header }), expected);
}

const OPEN_ROUTES = new Set(['/healthz']);

/** With a key configured (not empty), refuses requests without it; `publicPath` names more open paths. */
export function addKeyCheck(app: FastifyInstance, apiKey: string | undefined, publicPath?: (path: string) => boolean): void {
  if (apiKey === undefined || apiKey === '') return;
  const expectedKey = keyDigest(apiKey);
  app.addHook('onRequest', async (request) => {
    const path = pathOf(request);
    if (OPEN_ROUTES.has(path) || publicPath?.(path)) return;
    const protocol = protocolOf(request);
    const given = protocol
      ? protocol.apiKey(request.headers as Record<string, unknown>)
      : bearerToken(request.headers as Record<string, unknown>);
    if (!keyMatches(given, expectedKey)) {
      throw new OpenClawError(
        'authentication',
        'Missing or wrong API key: send `Authorization: Bearer <key>` (Anthropic clients: `x-api-key: <key>`) with the key configured by --api-key, server.api_key or OPENCLAW_RL_API_KEY.',
        { code: 'invalid_api_key' },
      );
    }
  });
}
