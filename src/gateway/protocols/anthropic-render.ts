// The policy's answer and errors in Anthropic Messages' shapes: a `message` object, the streamed
// event sequence (message_start, ping, content_block_start / _delta / _stop, message_delta,
// message_stop, and `error` after the first byte), and `{"type":"error","error":{type,message}}`
// with Anthropic's error types. Shapes follow @anthropic-ai/sdk's types (resources/messages).
import { randomUUID } from 'node:crypto';
import { OpenClawError, toOpenAIError } from '../../errors/index.ts';
import type { AnswerAccumulator } from '../accumulate.ts';
import { answerBlocks, BlockStream, type AnswerBlock, type BlockSink } from './answer-blocks.ts';
import { namedEvent, type StreamRenderer } from './types.ts';

/** What rendering one request's answer needs from its parse. */
export interface AnthropicState {
  model: string;
  /** `thinking.display: "omitted"`: thinking blocks are sent without their text. */
  omitThinking: boolean;
}

const ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  504: 'timeout_error',
};

/**
 * The prompt and context lengths a context error names, in the wordings of this project's engines
 * and guards ("maximum context length is 512 tokens, but the prompt has 9000 tokens", "prompt of
 * 9000 tokens leaves no room in the embedded model's context of 512", …).
 */
function contextLengths(message: string): { prompt: number; limit: number } | undefined {
  const limitFirst = /maximum context length is (\d+) tokens?, but the (?:prompt has|messages are) (\d+)/i.exec(message);
  if (limitFirst) return { prompt: Number(limitFirst[2]), limit: Number(limitFirst[1]) };
  const promptFirst = /(\d+) tokens?\b.*\bcontext (?:is|of) (\d+)/i.exec(message);
  return promptFirst ? { prompt: Number(promptFirst[1]), limit: Number(promptFirst[2]) } : undefined;
}

/**
 * Any error as Anthropic's status and body. A prompt over the context reads as Anthropic's own
 * "prompt is too long: N tokens > M maximum", which Claude Code recognises (and parses).
 */
export function anthropicError(err: unknown): { status: number; body: unknown } {
  const { status, body } = toOpenAIError(err);
  let message = body.error.message;
  const lengths = status === 400 ? contextLengths(message) : undefined;
  if (lengths !== undefined || (err instanceof OpenClawError && err.kind === 'context_length'))
    message = `prompt is too long: ${lengths ? `${lengths.prompt} tokens > ${lengths.limit} maximum. ` : ''}${message}`;
  const type = ERROR_TYPE[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { status, body: { type: 'error', error: { type, message } } };
}

function stopReason(acc: AnswerAccumulator): string {
  if (acc.finishReason === 'length') return 'max_tokens';
  if (acc.finishReason === 'tool_calls' || acc.message().tool_calls !== undefined) return 'tool_use';
  return acc.stopSequence !== null ? 'stop_sequence' : 'end_turn';
}

function usage(acc: AnswerAccumulator): Record<string, unknown> {
  const u = acc.usage ?? {};
  return {
    input_tokens: typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0,
    output_tokens: typeof u.completion_tokens === 'number' ? u.completion_tokens : acc.logprobs.length,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** Tool input as an object: the policy's arguments text, or {} when it is not a JSON object. */
function toolInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args === '' ? '{}' : args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function contentBlock(b: AnswerBlock, state: AnthropicState): Record<string, unknown> {
  if (b.kind === 'reasoning') return { type: 'thinking', thinking: state.omitThinking ? '' : b.text, signature: '' };
  if (b.kind === 'text') return { type: 'text', text: b.text };
  return { type: 'tool_use', id: b.id, name: b.name, input: toolInput(b.text) };
}

const messageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/** The whole answer as a Messages `message`. */
export function renderMessage(acc: AnswerAccumulator, state: AnthropicState): Record<string, unknown> {
  return {
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model: state.model,
    content: answerBlocks(acc).map((b) => contentBlock(b, state)),
    stop_reason: stopReason(acc),
    stop_sequence: acc.stopSequence,
    usage: usage(acc),
  };
}

/** The streamed answer as Messages events. */
export class AnthropicStream implements StreamRenderer {
  private readonly blocks: BlockStream;

  constructor(private readonly state: AnthropicState) {
    const sink: BlockSink = {
      open: (b, index) => {
        const start = b.kind === 'tool' ? { type: 'tool_use', id: b.id, name: b.name, input: {} } : contentBlock(b, state);
        return namedEvent('content_block_start', { type: 'content_block_start', index, content_block: start });
      },
      delta: (b, index, text) => {
        if (b.kind === 'reasoning' && state.omitThinking) return '';
        const delta =
          b.kind === 'text'
            ? { type: 'text_delta', text }
            : b.kind === 'reasoning'
              ? { type: 'thinking_delta', thinking: text }
              : { type: 'input_json_delta', partial_json: text };
        return namedEvent('content_block_delta', { type: 'content_block_delta', index, delta });
      },
      close: (b, index) =>
        (b.kind === 'reasoning'
          ? namedEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: '' } })
          : '') + namedEvent('content_block_stop', { type: 'content_block_stop', index }),
    };
    this.blocks = new BlockStream(sink, (n) => `toolu_${randomUUID().replaceAll('-', '').slice(0, 24)}${n}`);
  }

  start(): string {
    const message = {
      id: messageId(),
      type: 'message',
      role: 'assistant',
      model: this.state.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    return namedEvent('message_start', { type: 'message_start', message }) + this.ping();
  }

  chunk(ev: { chunk: Record<string, unknown> }): string {
    return this.blocks.chunk(ev.chunk);
  }

  end(acc: AnswerAccumulator): string {
    const delta = { stop_reason: stopReason(acc), stop_sequence: acc.stopSequence };
    return (
      this.blocks.finish() +
      namedEvent('message_delta', { type: 'message_delta', delta, usage: usage(acc) }) +
      namedEvent('message_stop', { type: 'message_stop' })
    );
  }

  error(err: unknown): string {
    return namedEvent('error', anthropicError(err).body);
  }

  ping(): string {
    return namedEvent('ping', { type: 'ping' });
  }
}
