// http: the one core of every outgoing HTTP client (OpenAI-compatible channels, the teacher's
// log-prob dialects, the judge model, Tinker). In: an origin, a request, retry rules and a
// deadline signal. Out: a 2xx answer, or an OpenClawError from the status→error table with the
// calling service's hints. Pieces: a base-URL normaliser, a pool factory (proxy-aware), the retry
// decision (`retryDelay`), the request-with-retry loop, an abortable `sleep`.
export { normalizeBaseUrl, parseHttpUrl, type NormalizedBaseUrl } from './base-url.ts';
export { openPool, type PoolOptions } from './pool.ts';
export { retryDelay, type AttemptOutcome } from './retry.ts';
export { withRetries, requestWithRetry, type Answer, type RetryRules, type GiveUp, type PoolGiveUp } from './request.ts';
export { sleep } from './sleep.ts';
export {
  statusClass,
  statusError,
  networkFailure,
  excerpt,
  upstreamMessage,
  type StatusClass,
  type StatusContext,
  type StatusHints,
  type Hint,
  type NetworkClass,
} from './errors.ts';
export { Limiter } from './limiter.ts';
export { isLoopback, proxyFor, proxyAgentFor, originDispatcher } from './proxy.ts';
