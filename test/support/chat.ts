// A chat turn as an OpenClaw client sends it: POST /v1/chat/completions with the session headers
// (x-session-id, x-turn-type main, x-session-done on the last turn) and, where given, a key.
export interface ChatTurnOptions {
  maxTokens: number;
  /** The last turn of the session (x-session-done: true). */
  done?: boolean;
  /** Sent as Authorization: Bearer. */
  key?: string;
  model?: string;
}

/** Sends one main turn of session `sessionId`; the caller reads the answer. */
export function postChat(url: string, sessionId: string, messages: unknown[], opts: ChatTurnOptions): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-session-id': sessionId, 'x-turn-type': 'main' };
  if (opts.done === true) headers['x-session-done'] = 'true';
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: opts.model, messages, max_tokens: opts.maxTokens }),
  });
}
