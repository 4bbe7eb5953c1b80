import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonText, stringifyWithShared, topLevelMembers } from './json-text.ts';

test('stringifyWithShared gives the same value as JSON.stringify, shared keys last', () => {
  const messages = [{ role: 'system', content: 'x'.repeat(100) }, { role: 'user', content: 'hi "there"\n' }];
  const tools = [{ type: 'function', function: { name: 'f' } }];
  const body = { model: 'm', messages, stream: true, tools, skipped: undefined, n: null };
  const text = stringifyWithShared(body, new Set(['messages', 'tools']));
  assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(body)));
  assert.deepEqual(Object.keys(JSON.parse(text)), ['model', 'stream', 'n', 'messages', 'tools']);
  // No shared value present: plain JSON.stringify, key order kept.
  assert.equal(stringifyWithShared({ a: 1, messages: 'text' }, new Set(['messages'])), '{"a":1,"messages":"text"}');
  // A shared key without an object value keeps JSON.stringify's meaning (undefined: left out).
  assert.deepEqual(JSON.parse(stringifyWithShared({ messages: [1], tools: 'x', n: 1 }, new Set(['messages', 'tools']))), { n: 1, messages: [1], tools: 'x' });
  assert.equal(stringifyWithShared({ messages: [1], tools: undefined }, new Set(['messages', 'tools'])), '{"messages":[1]}');
  // Only shared keys.
  assert.equal(stringifyWithShared({ messages: [1, 2] }, new Set(['messages'])), '{"messages":[1,2]}');
});

test('jsonText serialises a value once and hands the same text to later callers', () => {
  const messages = [{ role: 'user', content: 'hello' }];
  const first = jsonText(messages);
  assert.equal(first, JSON.stringify(messages));
  // Kept by identity, not recomputed: a later serialisation (the record line) splices that text
  // (which is why only values never changed afterwards may be shared).
  messages.push({ role: 'assistant', content: 'changed later' });
  assert.equal(jsonText(messages), first);
  assert.equal(stringifyWithShared({ messages }, new Set(['messages'])), `{"messages":${first}}`);
});

test('release lets the kept text go: the next serialisation computes it afresh', () => {
  const messages = [{ role: 'user', content: 'hello' }];
  const first = jsonText(messages);
  assert.equal(stringifyWithShared({ messages }, new Set(['messages']), true), `{"messages":${first}}`);
  messages.push({ role: 'assistant', content: 'next' });
  assert.equal(jsonText(messages), JSON.stringify(messages));
});

/** A random JSON value whose strings hold what trips a scanner: quotes, backslashes, brackets. */
function randomValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 4 : 6));
  const pieces = ['a', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', 'é', '\\"', '😀'];
  const str = () => Array.from({ length: Math.floor(rand() * 8) }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
  if (pick === 0) return str();
  if (pick === 1) return Math.round((rand() - 0.5) * 1e6) / 100;
  if (pick === 2) return [true, false, null][Math.floor(rand() * 3)];
  if (pick === 3) return Math.floor(rand() * 100);
  if (pick === 4) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [str(), randomValue(rand, depth + 1)]));
}

test('topLevelMembers finds exactly the text JSON.parse read each member from', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let n = 0; n < 300; n++) {
    const obj = { model: 'm', messages: randomValue(rand, 0), tools: randomValue(rand, 0), x: randomValue(rand, 0) };
    for (const text of [JSON.stringify(obj), JSON.stringify(obj, null, n % 3 === 0 ? '\t' : 2)]) {
      const members = topLevelMembers(text, new Set(['messages', 'tools', 'x']))!;
      for (const key of ['messages', 'tools', 'x'] as const) assert.deepEqual(JSON.parse(members.get(key)!), obj[key], text);
    }
  }
  // Escapes and unusual spacing are kept as written.
  const raw = ' { "messages" : [ {"role":"user","content":"caf\\u00e9 \\"q\\" \\\\"} ] , "n": -1.5e3 }\n';
  const m = topLevelMembers(raw, new Set(['messages', 'n']))!;
  assert.equal(m.get('messages'), '[ {"role":"user","content":"caf\\u00e9 \\"q\\" \\\\"} ]');
  assert.equal(m.get('n'), '-1.5e3');
  // The last of duplicate keys, as JSON.parse keeps; nested keys of the same name are not members.
  assert.equal(topLevelMembers('{"messages":[1],"a":{"messages":[2]},"messages":[3]}', new Set(new Set(['messages'])))!.get('messages'), '[3]');
  // Unsure: a key with escapes (it may spell a wanted key), or not an object.
  assert.equal(topLevelMembers('{"m\\u0065ssages":[1]}', new Set(new Set(['messages']))), undefined);
  assert.equal(topLevelMembers('[1,2]', new Set(new Set(['messages']))), undefined);
  assert.deepEqual([...topLevelMembers(' {} ', new Set(new Set(['messages'])))!], []);
});
