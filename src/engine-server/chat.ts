// `POST /v1/chat/completions` of the engine server, vLLM-style: TokenChatChannel does the work;
// here the body is checked and the answer trimmed to what was asked for, as vLLM does —
// `logprobs: true` keeps per-token log-probs (else `logprobs: null`), `return_token_ids: true`
// keeps `prompt_token_ids` and each choice's `token_ids`. `policy_version` is always sent.
// `top_logprobs` alternatives are not computed (the lists are empty).

import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OpenClawError, toOpenAIError } from '../errors/index.ts';
import type { TokenChatChannel } from '../chat/index.ts';
import { zodToInvalid } from './validate.ts';

const ChatBody = z
  .object({
    messages: z.array(z.object({ role: z.string() }).passthrough()).min(1),
    stream: z.boolean().nullable().optional(),
    logprobs: z.boolean().nullable().optional(),
    return_token_ids: z.boolean().nullable().optional(),
    max_tokens: z.number().int().positive().nullable().optional(),
    max_completion_tokens: z.number().int().positive().nullable().optional(),
    temperature: z.number().min(0).nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    n: z.number().int().positive().nullable().optional(),
    seed: z.number().int().nullable().optional(),
    tools: z.array(z.unknown()).nullable().optional(),
  })
  .passthrough();

type Json = Record<string, unknown>;

interface Wanted {
  logprobs: boolean;
  tokenIds: boolean;
}

/** Removes what the request did not ask for from a completion or chunk (in place). */
function trim(body: Json, wanted: Wanted): Json {
  if (!wanted.tokenIds) delete body.prompt_token_ids;
  for (const choice of (body.choices as Json[] | undefined) ?? []) {
    if (!wanted.tokenIds) delete choice.token_ids;
    if (!wanted.logprobs) choice.logprobs = null;
  }
  return body;
}

/** Handles one chat completion request. */
export async function handleChatCompletion(channel: TokenChatChannel, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const parsed = ChatBody.safeParse(request.body ?? {});
  if (!parsed.success) throw zodToInvalid(parsed.error);
  const body = parsed.data as Json;
  const wanted: Wanted = { logprobs: body.logprobs === true, tokenIds: body.return_token_ids === true };
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort(new OpenClawError('invalid_request', 'client disconnected'));
  });
  if (body.stream !== true) {
    await reply.send(trim(await channel.complete(body, abort.signal), wanted));
    return;
  }
  // Errors before the first chunk (bad request, context too long) still get their real status.
  const events = await channel.stream(body, abort.signal);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  try {
    for await (const ev of events) res.write(`data: ${JSON.stringify(trim(ev.chunk, wanted))}\n\n`);
  } catch (err) {
    if (!res.destroyed) res.write(`data: ${JSON.stringify(toOpenAIError(err).body)}\n\n`);
  }
  if (!res.destroyed) res.end('data: [DONE]\n\n');
}
