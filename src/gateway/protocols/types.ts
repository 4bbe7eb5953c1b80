// The protocol seam: one wire protocol (Chat Completions, Anthropic Messages, OpenAI Responses, …)
// is one `WireProtocol`. It turns a request into the canonical turn — a Chat Completions body,
// which is what sessions, recording, judging and training read — and renders the policy's answer,
// streamed or whole, and errors, in its own shape. The route (gateway/turn-route.ts) is shared and
// never asks which protocol it serves.
import type { ChatStreamEvent } from '../../engines/types.ts';
import type { AnswerAccumulator } from '../accumulate.ts';
import type { ParsedChatRequest } from '../request.ts';
import type { SessionHints } from '../../sessions/index.ts';

/** A request translated into the canonical turn. */
export interface CanonicalRequest {
  /** The Chat Completions body the shared route runs (validated again by request.ts). */
  chat: Record<string, unknown>;
  /** The JSON text `chat` was parsed from, when it is the client's own body unchanged. */
  text?: string;
  /** The model name the client asked for (echoed in the answer). */
  model?: string;
  /** Parts of the request the policy cannot use: left out of its prompt, counted by name. */
  ignored: string[];
  /** Session hints only this protocol carries (merged over the ones read from the messages). */
  hints?: Partial<SessionHints>;
  /** The protocol's own state for rendering this request's answer (ids, options asked for). */
  state?: unknown;
}

/** What the shared route gives a renderer about the answer. */
export interface AnswerContext {
  canonical: CanonicalRequest;
  parsed: ParsedChatRequest;
  /** The session the answer belongs to ('' for a side call without one). */
  sessionId: string;
}

/** Renders one streamed answer, event by event. Each method returns the bytes to write (may be ''). */
export interface StreamRenderer {
  /** Written once the upstream has answered, before any chunk. */
  start(): string;
  /** One upstream chunk (already added to `acc`). */
  chunk(ev: ChatStreamEvent, acc: AnswerAccumulator): string;
  /** The answer is complete and recorded: the protocol's closing events. */
  end(acc: AnswerAccumulator): string;
  /** A failure after the first byte: the protocol's in-stream error and end. */
  error(err: unknown): string;
  /** A keep-alive event for long silences, when the protocol has one. */
  ping?(): string;
}

/** One wire protocol: a row of PROTOCOL_TABLE (protocols/index.ts). */
export interface WireProtocol {
  /** Its name in config, logs and /healthz. */
  readonly name: string;
  /** The POST route it serves. */
  readonly path: string;
  /** The API key as this protocol's clients send it (undefined: none sent). */
  apiKey(headers: Record<string, unknown>): string | undefined;
  /** Validates a request body and translates it; throws an invalid_request OpenClawError naming the field. */
  parse(body: unknown, headers: Record<string, unknown>, text?: string): CanonicalRequest;
  /** The whole answer's body (non-streamed). `json` is the upstream's chat completion. */
  render(json: Record<string, unknown>, acc: AnswerAccumulator, ctx: AnswerContext): unknown;
  /** A renderer for a streamed answer. */
  stream(ctx: AnswerContext): StreamRenderer;
  /** Maps any error to this protocol's status and body. */
  error(err: unknown): { status: number; body: unknown };
  /** Drops what the protocol keeps of a session (stored responses), for openclaw-rl forget; returns how many entries went. */
  forgetSession?(sessionId: string): number;
}

/** One server-sent event with a name (Anthropic and Responses streams name every event). */
export function namedEvent(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}
