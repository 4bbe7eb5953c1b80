// The one place an outgoing client gets its connections: a keep-alive undici Pool to one origin,
// or a ProxyAgent when HTTP(S)_PROXY names one for it (http/proxy.ts decides which).
import type { Dispatcher } from 'undici';
import { originDispatcher } from './proxy.ts';

/** Connection settings of one client's pool. */
export interface PoolOptions {
  /** Keep-alive connections (as many as requests the client lets run at once). */
  connections: number;
  /**
   * undici's own per-attempt timers for headers and body. A client's total deadline (an abort
   * signal) is what bounds a call; these only back it up.
   */
  attemptTimeoutMs: number;
  keepAliveTimeoutMs?: number;
}

/** A dispatcher for requests to `origin`; pass `origin` with every request (a proxy agent routes by it). */
export function openPool(origin: string, o: PoolOptions): Dispatcher {
  return originDispatcher(origin, {
    connections: o.connections,
    headersTimeout: o.attemptTimeoutMs,
    bodyTimeout: o.attemptTimeoutMs,
    ...(o.keepAliveTimeoutMs !== undefined ? { keepAliveTimeout: o.keepAliveTimeoutMs, pipelining: 1 } : {}),
  });
}
