// Upstream failures explained: every way an OpenAI-compatible channel fails becomes one
// OpenClawError with the upstream's real status and a message that says what to check.
// Used by the gateway (HTTP answers) and by `doctor` (its table's "fix" column).
import { OpenClawError } from '../../errors/index.ts';

/** Which channel failed and where it points, for the message. */
export interface ChannelInfo {
  channel: string; // 'rollout' | 'judge' | 'teacher'
  url: string;
  model?: string;
}

function excerpt(body: string, max = 300): string {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** Pulls `error.message` (OpenAI shape) or `detail`/`message` out of an error body, else an excerpt. */
export function upstreamMessage(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = j.error;
    if (e && typeof e === 'object' && typeof (e as Record<string, unknown>).message === 'string') {
      return (e as Record<string, string>).message;
    }
    if (typeof e === 'string') return e;
    if (typeof j.detail === 'string') return j.detail;
    if (typeof j.message === 'string') return j.message;
  } catch {
    // not JSON: fall through to an excerpt
  }
  return excerpt(body);
}

function proxyNote(): string {
  const proxies = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'ALL_PROXY'].filter(
    (k) => process.env[k] !== undefined && process.env[k] !== '',
  );
  return proxies.length > 0
    ? ` ${proxies.join('/')} is set in the environment; openclaw-rl connects directly, so a server reachable only through that proxy will fail — and a proxy meant for the internet should not be used for loopback/LAN model servers (set NO_PROXY).`
    : '';
}

/** How the failing call went, when the caller knows (all optional). */
export interface FailureContext {
  /** Full URL that was requested, e.g. `http://h:8000/v1/chat/completions`. */
  requestUrl?: string;
  /** Attempts made, retries included. */
  attempts?: number;
  /** The wait the upstream asked for (retry-after) that would have passed the total deadline. */
  waitMs?: number;
}

function attemptsNote(ctx: FailureContext): string {
  return ctx.attempts !== undefined && ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : '';
}

/** An HTTP error status from upstream → explained OpenClawError keeping that status. */
export function explainHttpFailure(info: ChannelInfo, status: number, body: string, ctx: FailureContext = {}): OpenClawError {
  const up = upstreamMessage(body);
  const where = `${info.channel} upstream ${info.url}`;
  if (status === 401 || status === 403) {
    const oauth = /oauth|session token|subscription|login/i.test(body)
      ? ' The provider says this credential is OAuth/login-based: those cannot be used as an API key — create an API key for this provider.'
      : ' OAuth-only credentials (a chat subscription login) do not work as API keys.';
    return new OpenClawError(
      status === 401 ? 'authentication' : 'permission',
      `${where} rejected the API key (HTTP ${status}: ${up}). Check ${info.channel}.api_key (is the variable it expands from set?).${oauth}`,
      { status, code: 'upstream_auth' },
    );
  }
  if (status === 404) {
    const mentionsModel = /model/i.test(body);
    const msg = mentionsModel
      ? `${where} does not know model id '${info.model ?? '?'}' (HTTP 404: ${up}). Set ${info.channel}.model_id to an id listed by GET ${info.url}/models.`
      : `${where} answered 404 for ${ctx.requestUrl ?? 'the chat endpoint'} (${up}). Check ${info.channel}.base_url: is '/v1' missing or doubled (the server may want e.g. '/api/v1' or just '/v1'), or is this not an OpenAI-compatible server? (model id '${info.model ?? '?'}')`;
    return new OpenClawError('not_found', msg, { status, code: mentionsModel ? 'model_not_found' : 'upstream_not_found' });
  }
  if (status === 429) {
    const gaveUp =
      ctx.waitMs !== undefined
        ? `it asks to retry after ${Math.round(ctx.waitMs / 1000)} s, beyond ${info.channel}.timeout_s`
        : `retries were exhausted${attemptsNote(ctx)}`;
    return new OpenClawError(
      'rate_limit',
      `${where} is rate-limiting requests (HTTP 429: ${up}); ${gaveUp}. Lower concurrency or raise the provider's limit.`,
      { status, code: 'upstream_rate_limited' },
    );
  }
  if (status >= 500) {
    return new OpenClawError('upstream', `${where} failed with HTTP ${status}${attemptsNote(ctx)}: ${up}`, {
      status,
      code: 'upstream_server_error',
    });
  }
  return new OpenClawError(
    status === 400 || status === 422 ? 'invalid_request' : 'upstream',
    `${where} refused the request (HTTP ${status}): ${up}`,
    { status, code: 'upstream_bad_request' },
  );
}

/** A network-level failure (no HTTP answer) → explained 502/504. */
export function explainNetworkFailure(info: ChannelInfo, err: unknown): OpenClawError {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const raw = e?.cause?.message ?? e?.message ?? String(err);
  const where = `${info.channel} upstream ${info.url}`;
  let why: string;
  if (code === 'ECONNREFUSED')
    why = `connection refused: nothing is listening there. Is the model server running, and is ${info.channel}.base_url's host:port right?`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    why = `the host name does not resolve (DNS ${code}). Check ${info.channel}.base_url.`;
  else if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code + raw))
    why = `TLS handshake failed (${code || raw}). Check ${info.channel}.base_url: is it https:// for a plain-http server, or is the server's certificate untrusted (NODE_EXTRA_CA_CERTS)?`;
  else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    why = `the connection was reset (${raw}). The server crashed or a proxy cut it.`;
  else if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'timeout'
  ) {
    return new OpenClawError(
      'upstream_timeout',
      `${where} did not answer in time (${raw}). Is the server overloaded, or is ${info.channel}.timeout_s too small?${proxyNote()}`,
      { code: 'upstream_timeout' },
    );
  } else why = `request failed (${code || 'error'}: ${raw}).`;
  return new OpenClawError('upstream_connection', `${where}: ${why}${proxyNote()}`, { code: 'upstream_unreachable', cause: err });
}

/** A 200 answer that is not a chat completion (no `choices`). */
export function explainBadBody(info: ChannelInfo, body: string): OpenClawError {
  return new OpenClawError(
    'upstream',
    `${info.channel} upstream ${info.url} answered 200 but without 'choices' (a non-empty list of choice objects) — is ${info.channel}.base_url an OpenAI-compatible /v1 endpoint? Body starts: ${excerpt(body, 200)}`,
    { status: 502, code: 'upstream_bad_body' },
  );
}

/** A streamed request answered with a plain JSON body instead of server-sent events. */
export function explainNotAStream(info: ChannelInfo, contentType: string, body: string): OpenClawError {
  let hasChoices = false;
  try {
    hasChoices = Array.isArray((JSON.parse(body) as Record<string, unknown>).choices);
  } catch {
    // not JSON either: explained as a bad body below
  }
  if (!hasChoices) return explainBadBody(info, body);
  return new OpenClawError(
    'upstream',
    `${info.channel} upstream ${info.url} answered a streamed request (stream: true) with ${contentType} instead of text/event-stream: this server does not stream. Use a server that supports streaming, or call the gateway without stream.`,
    { status: 502, code: 'upstream_not_streaming' },
  );
}

/** The upstream stream ended or broke before `[DONE]` / a finish reason. */
export function explainCutStream(info: ChannelInfo, detail: string): OpenClawError {
  return new OpenClawError(
    'upstream',
    `${info.channel} upstream ${info.url} stream ended midway (${detail}); the answer is incomplete and was not recorded.`,
    { status: 502, code: 'upstream_stream_cut' },
  );
}
