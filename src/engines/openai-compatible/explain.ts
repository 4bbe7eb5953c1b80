// Upstream failures explained: every way an OpenAI-compatible channel fails becomes one
// OpenClawError with the upstream's real status and a message that says what to check.
// Used by the gateway (HTTP answers) and by `doctor` (its table's "fix" column).
import { OpenClawError } from '../../errors/index.ts';
import { excerpt, networkFailure, statusError, upstreamMessage, type StatusContext, type StatusHints } from '../../http/index.ts';

export { upstreamMessage } from '../../http/index.ts';

/** Which channel failed and where it points, for the message. */
export interface ChannelInfo {
  channel: string; // 'rollout' | 'judge' | 'teacher'
  url: string;
  model?: string;
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

/** The channel's hints for the status→error table (http/errors.ts); every error keeps the upstream's status. */
function channelHints(info: ChannelInfo, ctx: FailureContext): StatusHints {
  const where = `${info.channel} upstream ${info.url}`;
  const auth = ({ status, body }: StatusContext) => {
    const oauth = /oauth|session token|subscription|login/i.test(body)
      ? ' The provider says this credential is OAuth/login-based: those cannot be used as an API key — create an API key for this provider.'
      : ' OAuth-only credentials (a chat subscription login) do not work as API keys.';
    return {
      message: `${where} rejected the API key (HTTP ${status}: ${upstreamMessage(body)}). Check ${info.channel}.api_key (is the variable it expands from set?).${oauth}`,
      code: 'upstream_auth',
      status,
    };
  };
  const refused = ({ status, body }: StatusContext) => ({
    message: `${where} refused the request (HTTP ${status}): ${upstreamMessage(body)}`,
    code: 'upstream_bad_request',
    status,
  });
  return {
    auth,
    forbidden: auth,
    not_found({ status, body }) {
      const up = upstreamMessage(body);
      if (/model/i.test(body)) {
        return {
          message: `${where} does not know model id '${info.model ?? '?'}' (HTTP 404: ${up}). Set ${info.channel}.model_id to an id listed by GET ${info.url}/models.`,
          code: 'model_not_found',
          status,
        };
      }
      return {
        message: `${where} answered 404 for ${ctx.requestUrl ?? 'the chat endpoint'} (${up}). Check ${info.channel}.base_url: is '/v1' missing or doubled (the server may want e.g. '/api/v1' or just '/v1'), or is this not an OpenAI-compatible server? (model id '${info.model ?? '?'}')`,
        code: 'upstream_not_found',
        status,
      };
    },
    rate_limited({ status, body, attempts, waitMs }) {
      const gaveUp =
        waitMs !== undefined
          ? `it asks to retry after ${Math.round(waitMs / 1000)} s, beyond ${info.channel}.timeout_s`
          : `retries were exhausted${attemptsNote(attempts)}`;
      return {
        message: `${where} is rate-limiting requests (HTTP 429: ${upstreamMessage(body)}); ${gaveUp}. Lower concurrency or raise the provider's limit.`,
        code: 'upstream_rate_limited',
        status,
      };
    },
    server: ({ status, body, attempts }) => ({
      message: `${where} failed with HTTP ${status}${attemptsNote(attempts)}: ${upstreamMessage(body)}`,
      code: 'upstream_server_error',
      status,
    }),
    rejected: refused,
    refused,
  };
}

function attemptsNote(attempts: number | undefined): string {
  return attempts !== undefined && attempts > 1 ? ` after ${attempts} attempts` : '';
}

/** An HTTP error status from upstream → explained OpenClawError keeping that status. */
export function explainHttpFailure(info: ChannelInfo, status: number, body: string, ctx: FailureContext = {}): OpenClawError {
  return statusError(channelHints(info, ctx), { status, body, attempts: ctx.attempts, waitMs: ctx.waitMs });
}

/** A network-level failure (no HTTP answer) → explained 502/504. */
export function explainNetworkFailure(info: ChannelInfo, err: unknown): OpenClawError {
  const { cls, code, raw } = networkFailure(err);
  const where = `${info.channel} upstream ${info.url}`;
  if (cls === 'timeout') {
    return new OpenClawError(
      'upstream_timeout',
      `${where} did not answer in time (${raw}). Is the server overloaded, or is ${info.channel}.timeout_s too small?${proxyNote()}`,
      { code: 'upstream_timeout' },
    );
  }
  const why: Record<Exclude<typeof cls, 'timeout'>, () => string> = {
    refused: () =>
      `connection refused: nothing is listening there. Is the model server running, and is ${info.channel}.base_url's host:port right?`,
    dns: () => `the host name does not resolve (DNS ${code}). Check ${info.channel}.base_url.`,
    tls: () =>
      `TLS handshake failed (${code || raw}). Check ${info.channel}.base_url: is it https:// for a plain-http server, or is the server's certificate untrusted (NODE_EXTRA_CA_CERTS)?`,
    reset: () => `the connection was reset (${raw}). The server crashed or a proxy cut it.`,
    other: () => `request failed (${code || 'error'}: ${raw}).`,
  };
  return new OpenClawError('upstream_connection', `${where}: ${why[cls]()}${proxyNote()}`, { code: 'upstream_unreachable', cause: err });
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
