// When to retry an upstream call, as one pure function (docs/design.md §7): 408/409/429/5xx and
// connection errors retry with exponential back-off, honouring `retry-after-ms` / `retry-after`.
// The caller enforces one total deadline and never retries once a stream has started.

const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504]);
const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8000;

/** What happened on one attempt: an HTTP status, or a connection failure (status undefined). */
export interface AttemptOutcome {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  /** 0 for the first retry decision, 1 for the second, … */
  attempt: number;
  maxRetries: number;
}

function header(headers: AttemptOutcome['headers'], name: string): string | undefined {
  const v = headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

function retryAfterMs(headers: AttemptOutcome['headers'], now: number): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  // Number('') is 0: an empty header must not mean "retry at once".
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = header(headers, 'retry-after');
  if (ra === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Milliseconds to wait before the next attempt, or null when this outcome must not be retried. */
export function retryDelay(o: AttemptOutcome, now = Date.now()): number | null {
  if (o.attempt >= o.maxRetries) return null;
  if (o.status !== undefined && !RETRYABLE.has(o.status)) return null;
  const hinted = retryAfterMs(o.headers, now);
  if (hinted !== undefined) return hinted;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** o.attempt);
}
