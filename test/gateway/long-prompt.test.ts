// Long prompts (OpenClaw's is ~40k characters): the engine returns ~16k prompt token ids with each
// answer, which the gateway keeps as text on the request's path and parses when it records the
// turn (raw-json/lazy-ints.ts). Whatever path they take, the ids must come out exact in the records
// file and the sample store, and reach a client only when it asked for token data.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, postJson, readSse, type Harness } from '../support/harness.ts';
import { scriptedPromptIds } from '../support/scripted-upstream.ts';
import { readRecords } from '../../src/sessions/index.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
  h.upstream.promptCharsPerToken = 2.5;
});
after(async () => {
  await h.close();
});

const LONG = 'Follow the workspace rules. '.repeat(1500); // 42k characters, ~17k prompt ids
const system = { role: 'system', content: LONG };
const user = (content: string) => ({ role: 'user', content });

function recordedTurn(sessionId: string, turnId: number) {
  return readRecords(join(h.outDir, 'records', 'turns.jsonl')).turns.find((t) => t.session_id === sessionId && t.turn_id === turnId)!;
}

for (const stream of [false, true]) {
  test(`${stream ? 'streamed' : 'plain'} answer to a long prompt: exact prompt ids recorded and stored, none sent to the client`, async () => {
    const session = `long-${stream}`;
    const first = [system, user('What is in the workspace?')];
    const res = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': session },
      body: JSON.stringify({ messages: first, stream }),
    });
    assert.equal(res.status, 200);
    const text = stream ? (await readSse(res)).join('\n') : await res.text();
    assert.ok(!text.includes('prompt_token_ids'), 'ids the gateway asked for are not forwarded');
    const expected = scriptedPromptIds(h.upstream.received.at(-1)!.body, 2.5);
    assert.ok(expected.length > 16_000);
    assert.deepEqual(recordedTurn(session, 1).prompt_ids, expected);
    // The next request finalises turn 1; the rules judge turns it into a sample with the same ids.
    await postJson(`${h.url}/v1/chat/completions`, {
      session_id: session,
      messages: [...first, { role: 'assistant', content: 'Hello from the scripted upstream.' }, user('Thanks, that helped.')],
    });
    await h.server.pipeline.whenIdle();
    const outcome = h.server.store.getTurnOutcome(session, 1);
    assert.equal(outcome?.status, 'samples');
    assert.deepEqual(outcome.status === 'samples' && outcome.samples[0].promptIds, expected);
  });
}

test('a client asking for token data gets the long prompt ids in full', async () => {
  const messages = [system, user('q')];
  const res = await postJson(`${h.url}/v1/chat/completions`, { messages, logprobs: true, return_token_ids: true, session_id: 'long-asks' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.prompt_token_ids, scriptedPromptIds(h.upstream.received.at(-1)!.body, 2.5));
  assert.deepEqual(recordedTurn('long-asks', 1).prompt_ids, res.body.prompt_token_ids);
});

test('the messages and tools go upstream and into the record as the client wrote them, not formatted again', async () => {
  // Escapes a JSON.stringify would not write: the request's own text was forwarded.
  const body =
    `{"session_id":"as-written","messages":[${JSON.stringify(system)},{"role":"user","content":"caf\\u00e9 \\/ \\"quoted\\""}],` +
    `"tools":[{"type":"function","function":{"name":"look","description":"caf\\u00e9","parameters":{"type":"object"}}}]}`;
  const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.equal(res.status, 200);
  await res.text();
  const sent = JSON.parse(body);
  const upstream = h.upstream.received.at(-1)!;
  assert.ok(upstream.text.includes('"content":"caf\\u00e9 \\/ \\"quoted\\""'), 'messages forwarded verbatim');
  assert.ok(upstream.text.includes('"description":"caf\\u00e9"'), 'tools forwarded verbatim');
  assert.deepEqual(upstream.body.messages, sent.messages);
  assert.deepEqual(upstream.body.tools, sent.tools);
  assert.equal(upstream.body.session_id, undefined, 'our metadata is not forwarded');
  const turn = recordedTurn('as-written', 1);
  assert.deepEqual(turn.messages, sent.messages);
  assert.deepEqual(turn.tools, sent.tools);
  assert.equal(turn.messages[1] && (turn.messages[1] as { content: string }).content, 'café / "quoted"');
  const line = readFileSync(join(h.outDir, 'records', 'turns.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.includes('"type":"turn"') && l.includes('"session_id":"as-written"'));
  assert.ok(
    line?.includes('"tools":[{"type":"function","function":{"name":"look","description":"caf\\u00e9"'),
    'tools recorded as the request wrote them',
  );
});

test('a pretty-printed request still gives one record per line', async () => {
  const messages = [system, user('Indented request.')];
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': 'pretty' },
    body: JSON.stringify({ messages, tools: [{ type: 'function', function: { name: 'look' } }] }, null, 2),
  });
  assert.equal(res.status, 200);
  await res.text();
  assert.deepEqual(recordedTurn('pretty', 1).messages, messages);
  const lines = readFileSync(join(h.outDir, 'records', 'turns.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  for (const line of lines) JSON.parse(line); // every line is a whole record
});
