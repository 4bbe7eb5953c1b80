// The HTTP teacher: a prompt-log-prob API (`teacher.logprob_api` sglang or vllm, dialects.ts)
// over the http/ core: one keep-alive pool per teacher, one total deadline per call (from when it
// gets a slot), retries on transient failures (no connection, 429/502/503/504) within it, and
// failures explained with the teacher's hints. Scoring is a read, so any attempt may be repeated.
import { OpenClawError } from '../../errors/index.ts';
import { normalizeBaseUrl, openPool, requestWithRetry, statusError, type StatusContext, type StatusHints } from '../../http/index.ts';
import { HTTP_DIALECTS, type HttpDialect } from './dialects.ts';
import { teacherFromBackend, teacherMismatch, type Teacher, type TeacherBackend } from './teacher.ts';

/** `teacher.logprob_api` values served over HTTP. */
export type HttpTeacherDialect = HttpDialect['name'];

/** Settings of an HTTP teacher. */
export interface HttpTeacherOptions {
  /** Server base URL; `http://host:port`, `…/v1` and `…/api/v1` styles are all accepted. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Served model name (vLLM wants it when serving under a name). */
  model?: string;
  dialect: HttpTeacherDialect;
  /** Rollout temperature T, sent with the request (see `logprobTemperature` for what comes back). */
  temperature: number;
  /** Most requests in flight at once (also the pool's connection count); default 4. */
  maxConcurrency?: number;
  /** Total deadline of one call in ms (retries included), from when it gets a slot; default 60000. */
  timeoutMs?: number;
  /** Retries on a transient failure within the deadline; default 2. */
  maxRetries?: number;
}

const DEFAULT_MAX_CONCURRENCY = 4;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
/** Statuses worth another attempt: overload and gateway failures (a 500 is the server's answer). */
const TRANSIENT = new Set([429, 502, 503, 504]);

/** Creates a teacher for an HTTP `logprob_api` dialect (one pool per teacher). */
export function createHttpTeacher(opts: HttpTeacherOptions): Teacher {
  const dialect = HTTP_DIALECTS[opts.dialect];
  if (dialect === undefined) {
    throw new OpenClawError('config', `teacher.logprob_api ${JSON.stringify(opts.dialect)} is not an HTTP dialect; use sglang or vllm`, {
      param: 'teacher.logprob_api',
    });
  }
  if (!Number.isFinite(opts.temperature) || opts.temperature < 0) {
    throw new OpenClawError('config', `teacher temperature must be a number ≥ 0, got ${opts.temperature}`, {
      param: 'teacher.temperature',
    });
  }
  const maxConcurrency = opts.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  const backend = httpBackend(dialect, { ...opts, maxConcurrency, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  return teacherFromBackend(backend, { maxConcurrency });
}

interface HttpBackendOptions extends HttpTeacherOptions {
  maxConcurrency: number;
  timeoutMs: number;
}

function httpBackend(dialect: HttpDialect, opts: HttpBackendOptions): TeacherBackend {
  const base = normalizeBaseUrl(opts.baseUrl, 'teacher.base_url', 'http://127.0.0.1:30000');
  if (!(opts.timeoutMs > 0))
    throw new OpenClawError('config', `teacher timeout must be > 0 ms, got ${opts.timeoutMs}`, { param: 'teacher.timeout_ms' });
  const path = dialect.path(base.root);
  // Keep-alive connections, as many as requests may be in flight.
  const pool = openPool(base.origin, { connections: opts.maxConcurrency, attemptTimeoutMs: opts.timeoutMs });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey !== undefined && opts.apiKey !== '') headers.authorization = `Bearer ${opts.apiKey}`;
  const where = `${base.origin}${path}`;
  const hints = teacherHints(where, dialect.name);
  let closed = false;

  async function post(body: unknown): Promise<unknown> {
    const signal = AbortSignal.timeout(opts.timeoutMs);
    let text: string;
    try {
      const res = await requestWithRetry(
        pool,
        { origin: base.origin, method: 'POST', path, headers, body: JSON.stringify(body) },
        {
          maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
          signal,
          retryStatus: (status) => TRANSIENT.has(status),
          // After close the pool is gone: its refusals are final.
          retryFailure: () => !closed,
        },
        {
          failure: (err) => transportError(err, false, where, opts.timeoutMs),
          status: (status, answer) => statusError(hints, { status, body: answer }),
        },
      );
      text = await res.body.text();
    } catch (err) {
      if (err instanceof OpenClawError) throw err;
      throw transportError(err, signal.aborted, where, opts.timeoutMs);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw teacherMismatch(dialect.name, `answered ${where} with a body that is not JSON: ${snippet(text)}`);
    }
  }

  return {
    dialect: dialect.name,
    logprobTemperature: dialect.logprobTemperature,
    async score(promptIds, responseIds, topK) {
      const call = { promptIds, responseIds, topK, temperature: opts.temperature, model: opts.model };
      return dialect.parse(await post(dialect.body(call)), call);
    },
    // Close is shutdown: scoring still running is abandoned (its turn stays pending and is
    // re-scored at the next start) instead of holding the exit for up to teacher.timeout_s.
    close() {
      closed = true;
      return pool.destroy();
    },
  };
}

function transportError(err: unknown, timedOut: boolean, where: string, timeoutMs: number): OpenClawError {
  const code = (err as { code?: string }).code ?? '';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new OpenClawError('upstream_timeout', `teacher ${where} did not answer within ${timeoutMs} ms`, {
      code: 'teacher_unavailable',
      cause: err,
    });
  }
  const detail = err instanceof Error ? `${code} ${err.message}`.trim() : String(err);
  return new OpenClawError(
    'upstream_connection',
    `teacher ${where} is unreachable (${detail}); check teacher.base_url, that the server is running, and HTTP(S)_PROXY`,
    { code: 'teacher_unavailable', cause: err },
  );
}

/** The teacher's hints for the status→error table (http/errors.ts). */
function teacherHints(where: string, dialect: string): StatusHints {
  const code = 'teacher_unavailable';
  return {
    auth: ({ body }) => ({
      message: `teacher ${where} rejected the credentials (401): check teacher.api_key. Server said: ${snippet(body)}`,
      code,
    }),
    forbidden: ({ body }) => ({
      message: `teacher ${where} refused access (403): check teacher.api_key. Server said: ${snippet(body)}`,
      code,
    }),
    not_found: ({ body }) => ({
      message: `teacher has no ${where} (404): check teacher.base_url and teacher.logprob_api (${dialect}). Server said: ${snippet(body)}`,
      code,
    }),
    rate_limited: ({ body }) => ({ message: `teacher ${where} is rate-limiting (429). Server said: ${snippet(body)}`, code }),
    refused: ({ status, body }: StatusContext) => ({
      message: `teacher ${where} answered HTTP ${status}. Server said: ${snippet(body)}`,
      code,
      kind: 'upstream',
      status: 502,
    }),
  };
}

function snippet(text: string): string {
  const t = text.trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t === '' ? '(empty body)' : t;
}
