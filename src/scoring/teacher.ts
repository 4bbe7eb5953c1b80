// Teacher scoring (docs/design.md §2): log-probs of the student's unchanged response
// tokens after the (hinted) prompt, from the `teacher` channel. A client owns one keep-alive
// connection pool and a concurrency bound; each call has one total deadline. Anything short of
// exactly one finite log-prob per response token is an error (code 'teacher_mismatch'): the
// caller drops the turn with a counted reason, never pads with 0.0 (log-prob 0 = probability 1).
//
// Backends: HTTP dialects (`sglang`, `vllm`, see teacher-dialects.ts) today. An in-process
// backend (the embedded engine's PolicyEngine.score) plugs in through `teacherClientFromBackend`.
import type { Dispatcher } from 'undici';
import { OpenClawError } from '../errors/index.ts';
import { parseBaseUrl } from '../util/base-url.ts';
import { originDispatcher } from '../util/proxy.ts';
import { Limiter } from '../util/limiter.ts';
import { HTTP_DIALECTS, teacherMismatch, type HttpDialect, type TeacherScore } from './teacher-dialects.ts';

export type { TeacherScore } from './teacher-dialects.ts';

/** `teacher.logprob_api` values served over HTTP. */
export type HttpTeacherDialect = HttpDialect['name'];

/** Settings of an HTTP teacher client. */
export interface TeacherClientOptions {
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
  /** Total deadline of one HTTP exchange in ms, from when it gets a slot; default 60000. */
  timeoutMs?: number;
}

/** Options of one scoring call. */
export interface ScoreOptions {
  /** Also return the teacher's top-K tokens at each response position. */
  topK?: number;
}

/** Scores response tokens under a prompt with the teacher model. */
export interface TeacherClient {
  readonly dialect: string;
  /**
   * Temperature the returned log-probs are computed at. 1 for sglang/vllm: they do not scale
   * prompt log-probs, and a T=1 log-prob cannot be rescaled without all logits.
   */
  readonly logprobTemperature: number;
  /** One log-prob per response token (and top-K if asked); throws OpenClawError on any doubt. */
  score(promptIds: readonly number[], responseIds: readonly number[], opts?: ScoreOptions): Promise<TeacherScore>;
  /** Requests running and waiting now. */
  stats(): { inFlight: number; waiting: number };
  /** Closes the connection pool, aborting calls still running; later calls fail. */
  close(): Promise<void>;
}

/** Where scores come from; verification and the concurrency bound are added around it. */
export interface TeacherBackend {
  readonly dialect: string;
  readonly logprobTemperature: number;
  score(promptIds: readonly number[], responseIds: readonly number[], topK: number | undefined): Promise<TeacherScore>;
  close(): Promise<void>;
}

const DEFAULT_MAX_CONCURRENCY = 4;
const DEFAULT_TIMEOUT_MS = 60_000;

/** Creates a teacher client for an HTTP `logprob_api` dialect (one pool per client). */
export function createTeacherClient(opts: TeacherClientOptions): TeacherClient {
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
  const backend = createHttpBackend(dialect, { ...opts, maxConcurrency, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  return teacherClientFromBackend(backend, { maxConcurrency });
}

/** Wraps any backend (HTTP or in-process) with input checks, output verification and a concurrency bound. */
export function teacherClientFromBackend(backend: TeacherBackend, opts: { maxConcurrency: number }): TeacherClient {
  const limit = new Limiter(opts.maxConcurrency, 'teacher.max_concurrency');
  let closed = false;
  return {
    dialect: backend.dialect,
    logprobTemperature: backend.logprobTemperature,
    async score(promptIds, responseIds, scoreOpts = {}) {
      if (closed) throw new OpenClawError('internal', 'teacher client is closed');
      checkIds(promptIds, responseIds, scoreOpts.topK);
      return limit.run(async () => {
        const result = await backend.score(promptIds, responseIds, scoreOpts.topK);
        verifyScore(backend.dialect, result, responseIds.length, scoreOpts.topK);
        return result;
      });
    },
    stats: () => ({ inFlight: limit.running, waiting: limit.waiting }),
    async close() {
      closed = true;
      await backend.close();
    },
  };
}

function checkIds(promptIds: readonly number[], responseIds: readonly number[], topK: number | undefined): void {
  const bad = (msg: string) => new OpenClawError('data', `teacher scoring: ${msg}`, { code: 'teacher_bad_input' });
  // At least one prompt token: the first response token is scored given the tokens before it.
  if (promptIds.length === 0) throw bad('the prompt has no tokens');
  if (responseIds.length === 0) throw bad('the response has no tokens');
  for (const id of [...promptIds, ...responseIds]) {
    if (!Number.isInteger(id) || id < 0) throw bad(`token id ${id} is not a non-negative integer`);
  }
  if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) throw bad(`topK must be a whole number ≥ 1, got ${topK}`);
}

/** Dialect-independent invariant: one finite, non-positive log-prob per response token. */
function verifyScore(dialect: string, s: TeacherScore, n: number, topK: number | undefined): void {
  if (s.logprobs.length !== n) throw teacherMismatch(dialect, `returned ${s.logprobs.length} log-probs for ${n} response tokens`);
  // log_softmax is ≤ 0; allow float rounding only.
  const at = s.logprobs.findIndex((v) => !Number.isFinite(v) || v > 1e-4);
  if (at !== -1) throw teacherMismatch(dialect, `returned log-prob ${s.logprobs[at]} at response position ${at}`);
  if (topK !== undefined && (s.topK === undefined || s.topK.length !== n)) {
    throw teacherMismatch(dialect, `returned top-K for ${s.topK?.length ?? 0} of ${n} response positions`);
  }
}

interface HttpBackendOptions extends TeacherClientOptions {
  maxConcurrency: number;
  timeoutMs: number;
}

function createHttpBackend(dialect: HttpDialect, opts: HttpBackendOptions): TeacherBackend {
  const url = parseBaseUrl(opts.baseUrl, 'teacher.base_url', 'expected e.g. http://127.0.0.1:30000');
  if (!(opts.timeoutMs > 0))
    throw new OpenClawError('config', `teacher timeout must be > 0 ms, got ${opts.timeoutMs}`, { param: 'teacher.timeout_ms' });
  const path = dialect.path(url.pathname.replace(/\/+$/, ''));
  // One pool for the client's lifetime: keep-alive connections, as many as requests may be in flight
  // (through HTTP(S)_PROXY when the environment names one for this origin, util/proxy.ts).
  const pool = originDispatcher(url.origin, {
    connections: opts.maxConcurrency,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey !== undefined && opts.apiKey !== '') headers.authorization = `Bearer ${opts.apiKey}`;
  const where = `${url.origin}${path}`;

  return {
    dialect: dialect.name,
    logprobTemperature: dialect.logprobTemperature,
    async score(promptIds, responseIds, topK) {
      const call = { promptIds, responseIds, topK, temperature: opts.temperature, model: opts.model };
      const json = await postJson(pool, {
        origin: url.origin,
        path,
        headers,
        body: dialect.body(call),
        timeoutMs: opts.timeoutMs,
        where,
        dialect: dialect.name,
      });
      return dialect.parse(json, call);
    },
    // Close is shutdown: scoring still running is abandoned (its turn stays pending and is
    // re-scored at the next start) instead of holding the exit for up to teacher.timeout_s.
    close: () => pool.destroy(),
  };
}

interface PostArgs {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  where: string;
  dialect: string;
}

async function postJson(pool: Dispatcher, a: PostArgs): Promise<unknown> {
  const signal = AbortSignal.timeout(a.timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await pool.request({
      origin: a.origin,
      method: 'POST',
      path: a.path,
      headers: a.headers,
      body: JSON.stringify(a.body),
      signal,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    throw transportError(err, signal.aborted, a);
  }
  if (status < 200 || status > 299) throw statusError(status, text, a);
  try {
    return JSON.parse(text);
  } catch {
    throw teacherMismatch(a.dialect, `answered ${a.where} with a body that is not JSON: ${snippet(text)}`);
  }
}

function transportError(err: unknown, timedOut: boolean, a: PostArgs): OpenClawError {
  const code = (err as { code?: string }).code ?? '';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new OpenClawError('upstream_timeout', `teacher ${a.where} did not answer within ${a.timeoutMs} ms`, {
      code: 'teacher_unavailable',
      cause: err,
    });
  }
  const detail = err instanceof Error ? `${code} ${err.message}`.trim() : String(err);
  return new OpenClawError(
    'upstream_connection',
    `teacher ${a.where} is unreachable (${detail}); check teacher.base_url, that the server is running, and HTTP(S)_PROXY`,
    { code: 'teacher_unavailable', cause: err },
  );
}

function statusError(status: number, text: string, a: PostArgs): OpenClawError {
  const said = snippet(text);
  const opts = { code: 'teacher_unavailable' };
  if (status === 401)
    return new OpenClawError(
      'authentication',
      `teacher ${a.where} rejected the credentials (401): check teacher.api_key. Server said: ${said}`,
      opts,
    );
  if (status === 403)
    return new OpenClawError('permission', `teacher ${a.where} refused access (403): check teacher.api_key. Server said: ${said}`, opts);
  if (status === 404) {
    return new OpenClawError(
      'not_found',
      `teacher has no ${a.where} (404): check teacher.base_url and teacher.logprob_api (${a.dialect}). Server said: ${said}`,
      opts,
    );
  }
  if (status === 429) return new OpenClawError('rate_limit', `teacher ${a.where} is rate-limiting (429). Server said: ${said}`, opts);
  return new OpenClawError('upstream', `teacher ${a.where} answered HTTP ${status}. Server said: ${said}`, { ...opts, status: 502 });
}

function snippet(text: string): string {
  const t = text.trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t === '' ? '(empty body)' : t;
}
