// The simulated users' side of the wire: one non-streamed POST /v1/chat/completions, exactly as
// an OpenAI client sends it, with our session headers. Errors come back as OpenClawError values
// that say which server answered what.

import { fetch as undiciFetch } from 'undici';
import { OpenClawError, type ErrorKind } from '../errors/index.ts';
import { proxyAgentFor } from '../http/index.ts';
import type { ChatMessage } from '../engines/types.ts';

/** Where and how to reach the RL server. */
export interface ChatClientOptions {
  /** The server's OpenAI base URL, with or without the trailing `/v1` (e.g. `http://127.0.0.1:8000/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** The `model` field of each request. */
  model: string;
  /** Sampling temperature; omitted = the server's rollout default. */
  temperature?: number;
  /** `max_tokens` of normal requests; omitted = the server's default. */
  maxTokens?: number;
  /** Total deadline of one request in ms (default 300 000: CPU generation while training runs can be slow). */
  timeoutMs?: number;
}

/** Session metadata of one request (sent as `X-Session-Id`, `X-Turn-Type`, `X-Session-Done`). */
export interface TurnMeta {
  sessionId?: string;
  turnType: 'main' | 'side';
  sessionDone?: boolean;
  /** Overrides the client's `maxTokens` for this request. */
  maxTokens?: number;
  /** Sent as the request's `seed` (OpenAI's field): the embedded engine then draws the same tokens from the same weights. */
  seed?: number;
}

/** The chat-completions URL for a base URL given with or without `/v1`. */
export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

/** The request headers for one turn. */
export function turnHeaders(client: ChatClientOptions, meta: TurnMeta): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-turn-type': meta.turnType };
  if (client.apiKey !== undefined && client.apiKey !== '') headers.authorization = `Bearer ${client.apiKey}`;
  if (meta.sessionId !== undefined) headers['x-session-id'] = meta.sessionId;
  if (meta.sessionDone === true) headers['x-session-done'] = 'true';
  return headers;
}

function kindForStatus(status: number): ErrorKind {
  if (status === 400) return 'invalid_request';
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limit';
  return 'upstream';
}

function errorMessageOf(body: unknown): string | null {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === 'string' ? error.message : null;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { raw: text.slice(0, 200) };
  }
}

/** Sends `messages` and returns the assistant's text (`choices[0].message.content`, '' when null). */
export async function requestAnswer(client: ChatClientOptions, messages: readonly ChatMessage[], meta: TurnMeta): Promise<string> {
  const url = chatCompletionsUrl(client.baseUrl);
  const body: Record<string, unknown> = { model: client.model, messages, stream: false };
  if (client.temperature !== undefined) body.temperature = client.temperature;
  const maxTokens = meta.maxTokens ?? client.maxTokens;
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  if (meta.seed !== undefined) body.seed = meta.seed;
  let res: Response;
  try {
    const init = {
      method: 'POST',
      headers: turnHeaders(client, meta),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(client.timeoutMs ?? 300_000),
    };
    // Through HTTP(S)_PROXY when the environment names one for this URL (http/proxy.ts); Node 20's
    // own fetch ignores those variables.
    const dispatcher = proxyAgentFor(url);
    res = dispatcher === undefined ? await fetch(url, init) : ((await undiciFetch(url, { ...init, dispatcher })) as unknown as Response);
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    throw new OpenClawError(
      timedOut ? 'upstream_timeout' : 'upstream_connection',
      timedOut
        ? `no answer from ${url} within ${client.timeoutMs ?? 300_000} ms; raise timeoutMs or check that the server is not stuck`
        : `could not reach ${url}: ${(err as Error).message}; is the RL server running there (check baseUrl)?`,
      { cause: err },
    );
  }
  const json = await readJson(res);
  if (!res.ok) {
    const detail = errorMessageOf(json) ?? JSON.stringify(json).slice(0, 200);
    throw new OpenClawError(kindForStatus(res.status), `${url} answered ${res.status}: ${detail}`, { status: res.status });
  }
  const choice = (json as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0];
  if (choice?.message === undefined)
    throw new OpenClawError('upstream', `${url} answered 200 without choices[0].message: ${JSON.stringify(json).slice(0, 200)}`);
  const content = choice.message.content;
  return typeof content === 'string' ? content : '';
}
