import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerAccumulator } from '../accumulate.ts';
import { parseMessagesRequest } from './anthropic-messages.ts';
import { AnthropicStream, anthropicError, renderMessage } from './anthropic-render.ts';
import { parseResponsesRequest } from './openai-responses.ts';
import { ResponseMemory, renderResponse, ResponsesStream, type ResponsesState } from './responses-render.ts';
import { OpenClawError } from '../../errors/index.ts';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  chunk: { choices: [{ index: 0, delta, finish_reason: finish }] },
});

/** Feeds chunks to a renderer and an accumulator; returns the SSE event names and data. */
function run(
  r: {
    chunk(ev: { chunk: Record<string, unknown> }, acc: AnswerAccumulator): string;
    start(): string;
    end(acc: AnswerAccumulator): string;
  },
  chunks: ReturnType<typeof chunk>[],
) {
  const acc = new AnswerAccumulator();
  let out = r.start();
  for (const c of chunks) {
    acc.addChunk(c.chunk);
    out += r.chunk(c, acc);
  }
  out += r.end(acc);
  return out
    .split('\n\n')
    .filter(Boolean)
    .map((e) => ({ event: /^event: (.*)$/m.exec(e)![1], data: JSON.parse(/^data: (.*)$/m.exec(e)![1]) }));
}

test('Anthropic thinking: history thinking becomes reasoning_content, redacted thinking is left out and counted, the setting reaches the template', () => {
  const c = parseMessagesRequest({
    model: 'claude-x',
    max_tokens: 100,
    thinking: { type: 'enabled', budget_tokens: 31999, display: 'omitted' },
    metadata: { user_id: JSON.stringify({ device_id: 'd', session_id: 'cc-123' }) },
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'The user greets me.', signature: 'sig' },
          { type: 'redacted_thinking', data: 'xxx' },
          { type: 'text', text: 'Hello!' },
        ],
      },
      { role: 'user', content: 'bye' },
    ],
  });
  assert.deepEqual((c.chat.messages as unknown[])[1], { role: 'assistant', content: 'Hello!', reasoning_content: 'The user greets me.' });
  assert.deepEqual(c.chat.chat_template_kwargs, { enable_thinking: true });
  assert.deepEqual(c.ignored, ['redacted_thinking']);
  assert.equal(c.hints?.userSessionId, 'cc-123');
  const off = parseMessagesRequest({
    model: 'm',
    max_tokens: 5,
    thinking: { type: 'disabled' },
    messages: [{ role: 'user', content: 'x' }],
  });
  assert.deepEqual(off.chat.chat_template_kwargs, { enable_thinking: false });
  const older = parseMessagesRequest({
    model: 'm',
    max_tokens: 5,
    metadata: { user_id: 'user_abc_account__session_0b7e3c2a-1111-2222-3333-444455556666' },
    messages: [{ role: 'user', content: 'x' }],
  });
  assert.equal(older.hints?.userSessionId, '0b7e3c2a-1111-2222-3333-444455556666');
});

test('Anthropic stream: reasoning as a thinking block (with its signature delta) before the text; omitted display sends no thinking text', () => {
  const chunks = [
    chunk({ reasoning_content: 'Think' }),
    chunk({ reasoning_content: 'ing.' }),
    chunk({ content: 'Done.' }),
    chunk({}, 'stop'),
  ];
  const shown = run(new AnthropicStream({ model: 'm', omitThinking: false }), chunks);
  assert.deepEqual(
    shown.map((e) => (e.event === 'content_block_delta' ? e.data.delta.type : e.event)),
    [
      'message_start',
      'ping',
      'content_block_start',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'content_block_stop',
      'content_block_start',
      'text_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ],
  );
  assert.deepEqual(shown[2].data.content_block, { type: 'thinking', thinking: '', signature: '' });
  assert.equal(shown.at(-2)!.data.delta.stop_reason, 'end_turn');
  const omitted = run(new AnthropicStream({ model: 'm', omitThinking: true }), chunks);
  assert.equal(omitted.filter((e) => e.data.delta?.type === 'thinking_delta').length, 0);
});

test('Anthropic whole answer: blocks, stop reasons from finish reasons and stop strings; malformed tool arguments become {}', () => {
  const acc = new AnswerAccumulator();
  acc.addCompletion({
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"' } }] },
      },
    ],
    usage: { prompt_tokens: 7, completion_tokens: 3 },
  });
  const m = renderMessage(acc, { model: 'claude-x', omitThinking: false });
  assert.deepEqual(m.content, [{ type: 'tool_use', id: 'c1', name: 'Bash', input: {} }]);
  assert.equal(m.stop_reason, 'tool_use');
  assert.deepEqual(m.usage, { input_tokens: 7, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  const stopped = new AnswerAccumulator();
  stopped.addCompletion({ choices: [{ index: 0, finish_reason: 'stop', stop_reason: '###', message: { content: 'a' } }] });
  assert.equal(renderMessage(stopped, { model: 'm', omitThinking: false }).stop_reason, 'stop_sequence');
  const long = new AnswerAccumulator();
  long.addCompletion({ choices: [{ index: 0, finish_reason: 'length', message: { content: 'a' } }] });
  assert.equal(renderMessage(long, { model: 'm', omitThinking: false }).stop_reason, 'max_tokens');
});

test("Anthropic errors: each status its error type; a context error becomes Claude Code's 'prompt is too long: N tokens > M maximum'", () => {
  const e = anthropicError(
    new OpenClawError('context_length', "This model's maximum context length is 512 tokens, but the messages are 9000 tokens long.", {
      code: 'context_length_exceeded',
    }),
  );
  assert.equal(e.status, 400);
  assert.match((e.body as any).error.message, /^prompt is too long: 9000 tokens > 512 maximum\. /);
  assert.equal((anthropicError(new OpenClawError('upstream_timeout', 'slow')).body as any).error.type, 'timeout_error');
  assert.equal((anthropicError(new OpenClawError('upstream', 'down')).body as any).error.type, 'api_error');
  assert.equal((anthropicError(new OpenClawError('rate_limit', 'wait')).body as any).error.type, 'rate_limit_error');
  assert.equal((anthropicError(new Error('boom')).body as any).error.type, 'api_error');
});

test('Responses reasoning: streamed as a reasoning item whose encrypted_content brings the text back on replay', () => {
  const memory = new ResponseMemory();
  const state: ResponsesState = { model: 'm', conversation: [], store: false, encryptReasoning: true, echo: {} };
  const events = run(new ResponsesStream(state, memory), [
    chunk({ reasoning_content: 'Plan: ls.' }),
    chunk({ content: 'Here.' }),
    chunk({}, 'stop'),
  ]);
  const done = events.find((e) => e.event === 'response.completed')!.data.response;
  assert.deepEqual(
    done.output.map((o: { type: string }) => o.type),
    ['reasoning', 'message'],
  );
  const reasoning = done.output[0];
  assert.deepEqual(reasoning.content, [{ type: 'reasoning_text', text: 'Plan: ls.' }]);
  // Codex sends the whole item list back, store: false.
  const replay = parseResponsesRequest(
    {
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'reasoning', id: reasoning.id, summary: [], encrypted_content: reasoning.encrypted_content },
        done.output[1],
        { role: 'user', content: 'ok' },
      ],
    },
    memory,
  );
  assert.deepEqual((replay.chat.messages as unknown[])[1], { role: 'assistant', content: 'Here.', reasoning_content: 'Plan: ls.' });
  assert.equal(memory.get(done.id), undefined, 'store: false keeps nothing');
});

test('Responses: a finish by length is an incomplete response; the memory forgets the least recently used', () => {
  const memory = new ResponseMemory(2);
  const state: ResponsesState = {
    model: 'm',
    conversation: [{ role: 'user', content: 'q' }],
    store: true,
    encryptReasoning: false,
    echo: {},
  };
  const acc = new AnswerAccumulator();
  acc.addCompletion({ choices: [{ index: 0, finish_reason: 'length', message: { content: 'cut' } }] });
  const r = renderResponse(acc, state, memory);
  assert.equal(r.status, 'incomplete');
  assert.deepEqual(r.incomplete_details, { reason: 'max_output_tokens' });
  assert.deepEqual(memory.get(r.id as string), [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: 'cut' },
  ]);
  const r2 = renderResponse(acc, state, memory);
  memory.get(r.id as string);
  renderResponse(acc, state, memory);
  assert.equal(memory.get(r2.id as string), undefined, 'the least recently used is gone');
  assert.notEqual(memory.get(r.id as string), undefined);
});
