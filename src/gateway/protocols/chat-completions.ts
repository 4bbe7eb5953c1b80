// OpenAI Chat Completions (`POST /v1/chat/completions`): the canonical turn itself. The body goes
// through as the client sent it (its text reused upstream, request.ts); answers pass through with
// the token data we asked for on the client's behalf removed, streamed chunk by chunk.
import { toOpenAIError } from '../../errors/index.ts';
import { stripTokenData } from '../accumulate.ts';
import type { StreamRenderer, WireProtocol } from './types.ts';
import { bearerToken } from '../headers.ts';

function chatStream(includeUsage: boolean, keepLogprobs: boolean): StreamRenderer {
  return {
    start: () => '',
    chunk: (ev) => {
      const c = ev.chunk;
      const usageOnly = Array.isArray(c.choices) && (c.choices as unknown[]).length === 0 && c.usage !== undefined;
      if (usageOnly && !includeUsage) return '';
      return `data: ${keepLogprobs ? ev.raw : JSON.stringify(stripTokenData(c, false, false))}\n\n`;
    },
    end: () => 'data: [DONE]\n\n',
    error: (err) => `data: ${JSON.stringify(toOpenAIError(err).body)}\n\ndata: [DONE]\n\n`,
  };
}

export const chatCompletions: WireProtocol = {
  name: 'chat-completions',
  path: '/v1/chat/completions',
  apiKey: (headers) => bearerToken(headers),
  parse: (body, _headers, text) => {
    const model = (body as { model?: unknown } | null)?.model;
    return { chat: body as Record<string, unknown>, text, model: typeof model === 'string' ? model : undefined, ignored: [] };
  },
  render: (json, _acc, ctx) => (ctx.parsed.clientWantsLogprobs ? json : stripTokenData(json, false, false)),
  stream: (ctx) => chatStream(ctx.parsed.includeUsage, ctx.parsed.clientWantsLogprobs),
  error: (err) => toOpenAIError(err),
};
