// `POST /v1/messages/count_tokens` (Anthropic): the prompt tokens the policy would see for a
// Messages request, counted with the policy's own tokenizer and chat template. Without one
// (a remote policy with no rollout.tokenizer) the count cannot be exact, so the route says so.
import type { FastifyInstance } from 'fastify';
import { OpenClawError } from '../errors/index.ts';
import { parseMessagesRequest } from './protocols/anthropic-messages.ts';
import type { WireProtocol } from './protocols/index.ts';
import type { ChatMessage } from '../engines/types.ts';

export function registerCountTokens(
  app: FastifyInstance,
  protocol: WireProtocol,
  render: ((messages: ChatMessage[], tools: unknown[] | undefined) => number[] | Promise<number[]>) | undefined,
): void {
  app.post(`${protocol.path}/count_tokens`, { config: { protocol } }, async (request) => {
    const body = request.body;
    const withMax = typeof body === 'object' && body !== null && !Array.isArray(body) ? { max_tokens: 1, ...body } : body;
    const { chat } = parseMessagesRequest(withMax);
    if (render === undefined)
      throw new OpenClawError(
        'not_found',
        'Token counting needs the policy tokenizer: set rollout.tokenizer (a local Hugging Face model folder) for a remote policy.',
        { code: 'count_tokens_unavailable' },
      );
    const ids = await render(chat.messages as ChatMessage[], chat.tools as unknown[] | undefined);
    return { input_tokens: ids.length };
  });
}
