// One conversation, sent in each wire protocol's shape, is one canonical turn: the same chat
// messages go upstream, and the embedded engine records the same prompt token ids — the engine's
// own, never a re-tokenisation — whichever door the client used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pino from 'pino';
import { startHarness, postJson } from '../support/harness.ts';
import { parseConfig } from '../../src/config/index.ts';
import { startServer } from '../../src/app/index.ts';
import { readRecords } from '../../src/sessions/index.ts';
import { tempDir } from '../support/temp.ts';

const SYSTEM = 'You are a helpful assistant.';
const ARGS = { path: 'notes.txt' };

/** The same five-message conversation in the three protocols. */
function bodies(model: string) {
  const chat = {
    model,
    max_tokens: 4,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'What is in my notes?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: JSON.stringify(ARGS) } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'buy milk' },
      { role: 'user', content: 'Thanks, anything else?' },
    ],
  };
  const anthropic = {
    model,
    max_tokens: 4,
    system: SYSTEM,
    messages: [
      { role: 'user', content: 'What is in my notes?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'call_1', name: 'read', input: ARGS },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'buy milk' }] },
          { type: 'text', text: 'Thanks, anything else?' },
        ],
      },
    ],
  };
  const responses = {
    model,
    max_output_tokens: 4,
    instructions: SYSTEM,
    input: [
      { role: 'user', content: 'What is in my notes?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'read', arguments: JSON.stringify(ARGS) },
      { type: 'function_call_output', call_id: 'call_1', output: 'buy milk' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks, anything else?' }] },
    ],
  };
  return [
    ['/v1/chat/completions', chat],
    ['/v1/messages', anthropic],
    ['/v1/responses', responses],
  ] as const;
}

test('an OpenAI-compatible upstream gets the same chat messages from all three protocols', async () => {
  const h = await startHarness();
  try {
    const sent: unknown[] = [];
    for (const [path, body] of bodies('policy-upstream')) {
      h.upstream.script({ kind: 'text', text: 'Nothing else.' });
      const res = await postJson(`${h.url}${path}`, body, { 'x-session-id': `parity-${path.split('/').at(-1)}` });
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      sent.push(h.upstream.received.at(-1)!.body.messages);
    }
    assert.deepEqual(sent[1], sent[0], 'Anthropic Messages → the same canonical messages as Chat Completions');
    assert.deepEqual(sent[2], sent[0], 'Responses → the same canonical messages as Chat Completions');
  } finally {
    await h.close();
  }
});

test('the embedded engine records the same prompt ids, and its own response ids, whichever protocol carried the turn', async () => {
  const outDir = tempDir('ocrl-parity-');
  const config = parseConfig(
    { rollout: { provider: 'embedded', model_id: 'tiny', max_tokens: 4 }, judge: { provider: 'rules' } },
    { env: {}, overrides: { output_dir: outDir, 'server.port': 0 } },
  );
  const server = await startServer(config, { log: pino({ level: 'silent' }) });
  try {
    for (const [path, body] of bodies('tiny')) {
      const res = await postJson(`${server.url}${path}`, body, { 'x-session-id': `parity-${path.split('/').at(-1)}` });
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    }
    const { turns } = readRecords(join(outDir, 'records', 'turns.jsonl'));
    assert.equal(turns.length, 3);
    const [chat, anthropic, responses] = ['completions', 'messages', 'responses'].map(
      (s) => turns.find((t) => t.session_id === `parity-${s}`)!,
    );
    assert.ok(chat.prompt_ids !== undefined && chat.prompt_ids.length > 20, 'the engine reported the prompt ids');
    assert.deepEqual(anthropic.prompt_ids, chat.prompt_ids);
    assert.deepEqual(responses.prompt_ids, chat.prompt_ids);
    for (const t of [chat, anthropic, responses]) {
      assert.ok(t.response_ids !== undefined && t.response_ids.length > 0);
      assert.equal(t.logprobs!.length, t.response_ids!.length, 'one log-prob per response token');
    }
    // count_tokens: the policy's own count for the same conversation.
    const counted = await postJson(`${server.url}/v1/messages/count_tokens`, { ...bodies('tiny')[1][1], max_tokens: undefined });
    assert.equal(counted.status, 200, JSON.stringify(counted.body));
    assert.deepEqual(counted.body, { input_tokens: chat.prompt_ids!.length });
    // A system prompt the embedded model's context cannot hold: Claude Code's own error wording,
    // with the two numbers where Claude Code reads them.
    const long = await postJson(`${server.url}/v1/messages`, {
      model: 'tiny',
      max_tokens: 4,
      system: 'Follow the rules. '.repeat(400),
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(long.status, 400);
    assert.equal(long.body.error.type, 'invalid_request_error');
    const m = /^prompt is too long: (\d+) tokens > (\d+) maximum/.exec(long.body.error.message);
    assert.ok(m !== null, long.body.error.message);
    assert.ok(Number(m[1]) > Number(m[2]));
  } finally {
    await server.close();
  }
});
