import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseChatRequest, requestTokenData } from './request.ts';

const shaping = { modelId: 'served-model', maxTokensLimit: 100 };

test('with the text it was parsed from, messages and tools go upstream as that text; the rest is ours to change', () => {
  const text =
    '{"model":"x","session_id":"s1","max_tokens":500,"messages":[{"role":"user","content":"caf\\u00e9"}], "tools" : [{"type":"function","function":{"name":"f"}}]}';
  const body = JSON.parse(text) as Record<string, unknown>;
  const req = parseChatRequest(body, {}, shaping, text);
  requestTokenData(req.upstreamBody.plain, true);
  assert.equal(
    req.upstreamBody.text(),
    '{"model":"served-model","max_tokens":100,"logprobs":true,"return_token_ids":true,' +
      '"messages":[{"role":"user","content":"caf\\u00e9"}],"tools":[{"type":"function","function":{"name":"f"}}]}',
  );
  assert.equal(req.meta.sessionId, 's1');
  // The values are the request's own: nothing was copied or formatted.
  assert.equal(req.messages, body.messages);
  assert.equal(req.toolsJson?.value, body.tools);
  assert.equal(req.toolsJson?.text, '[{"type":"function","function":{"name":"f"}}]');
  // The request's body itself is left as it came.
  assert.equal(body.model, 'x');
  assert.equal(body.session_id, 's1');
});

test('without its text, or with a pretty-printed one, the upstream body is formatted as JSON and means the same', () => {
  const value = { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function' }], session_done: true };
  for (const text of [undefined, JSON.stringify(value, null, 2)]) {
    const req = parseChatRequest(JSON.parse(JSON.stringify(value)), {}, shaping, text);
    assert.equal(req.upstreamBody.raw.size, 0);
    assert.equal(req.toolsJson, undefined);
    assert.deepEqual(JSON.parse(req.upstreamBody.text()), { messages: value.messages, tools: value.tools, model: 'served-model' });
    assert.equal(req.meta.sessionDone, true);
  }
});
