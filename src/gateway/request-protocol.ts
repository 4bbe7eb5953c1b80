// Which wire protocol a request speaks — its route's config, or, for a request no route took, the
// protocol whose path its URL names — and an error in that protocol's shape (OpenAI's when none).
// In: a request, or a path and the protocols served. Out: the protocol, or a status and body.
import { toOpenAIError } from '../errors/index.ts';
import type { ErrorShape } from './edge-errors.ts';
import type { WireProtocol } from './protocols/index.ts';

/** A request's path: its URL without the query. */
export function pathOf(request: { url: string }): string {
  return request.url.split('?')[0];
}

/** The protocol a route serves (its route config), for auth and error shapes. */
export function protocolOf(request: { routeOptions: { config?: unknown } }): WireProtocol | undefined {
  return (request.routeOptions.config as { protocol?: WireProtocol } | undefined)?.protocol;
}

/** The protocol serving `path`: its model-turn route, a route below it (count_tokens), or a malformed spelling of it. */
function protocolAt(protocols: WireProtocol[], path: string): WireProtocol | undefined {
  return protocols.find((p) => path.startsWith(p.path));
}

/** `err` as `protocol` answers it (OpenAI's shape without one). */
export const errorOf = (protocol: WireProtocol | undefined, err: unknown) => (protocol ? protocol.error(err) : toOpenAIError(err));

/** Errors of requests no route took (malformed HTTP, bad URL escapes, Expect, unknown URLs), shaped by the protocol their path names. */
export function pathErrorShape(protocols: WireProtocol[]): ErrorShape {
  return (path, err) => errorOf(path === undefined ? undefined : protocolAt(protocols, path), err);
}
