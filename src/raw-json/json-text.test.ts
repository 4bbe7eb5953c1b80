import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonObjectParts, RawJson, jsonObjectText, jsonObjectValue, rawMembers, topLevelMembers, withMembers } from './json-text.ts';

const RAW = new Set(['messages', 'tools']);

test('RawJson.parsed keeps the text as written, refusing line breaks', () => {
  const spaced = '[ {"role" : "user", "content":"caf\\u00e9"} ]';
  const value = JSON.parse(spaced);
  assert.equal(RawJson.parsed(value, spaced)!.text, spaced);
  assert.equal(RawJson.parsed(value, spaced)!.value, value);
  // Pretty-printed text would split a JSONL record line: not kept.
  assert.equal(RawJson.parsed([1], '[\n1\n]'), undefined);
  assert.equal(RawJson.parsed([1], '[\r1]'), undefined);
});

test('JsonObjectParts writes the plain members then the raw ones as their text, and reads back as one object', () => {
  const messagesText = '[{"role":"system","content":"x"}, {"role":"user","content":"caf\\u00e9"}]';
  const toolsText = '[{"type":"function","function":{"name":"f"}}]';
  const body = new JsonObjectParts(
    { model: 'm', stream: true, skipped: undefined, n: null },
    new Map([
      ['messages', RawJson.parsed(JSON.parse(messagesText), messagesText)!],
      ['tools', RawJson.parsed(JSON.parse(toolsText), toolsText)!],
    ]),
  );
  const text = body.text();
  // The raw text is spliced in as written (the escape stays), not formatted again.
  assert.equal(text, `{"model":"m","stream":true,"n":null,"messages":${messagesText},"tools":${toolsText}}`);
  assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(jsonObjectValue(body))));
  assert.deepEqual(jsonObjectValue(body), {
    model: 'm',
    stream: true,
    skipped: undefined,
    n: null,
    messages: JSON.parse(messagesText),
    tools: JSON.parse(toolsText),
  });
  // Only raw members, or none.
  assert.equal(new JsonObjectParts({}, new Map([['messages', RawJson.parsed([1, 2], '[1, 2]')!]])).text(), '{"messages":[1, 2]}');
  assert.equal(new JsonObjectParts({ a: 1 }).text(), '{"a":1}');
  // withMembers copies: the original is left as it was; a member of a raw member's name replaces it.
  const streamed = withMembers(body, { stream: false, tools: [] });
  assert.deepEqual(JSON.parse(streamed.text()), { ...JSON.parse(text), stream: false, tools: [] });
  assert.equal(body.text(), text);
  // Plain objects go through the same helpers unchanged.
  assert.equal(jsonObjectText(withMembers({ a: 1 }, { b: 2 })), '{"a":1,"b":2}');
});

test('rawMembers pairs the members of a parsed object with the text each was parsed from', () => {
  const text = '{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[ {"type":"function"} ],"n":1}';
  const body = JSON.parse(text) as Record<string, unknown>;
  const raw = rawMembers(body, text, new Set([...RAW, 'n', 'model']));
  assert.deepEqual([...raw.keys()], ['messages', 'tools'], 'only objects and arrays: a number or a string costs nothing to format');
  assert.equal(raw.get('messages')!.value, body.messages);
  assert.equal(raw.get('messages')!.text, '[{"role":"user","content":"hi"}]');
  assert.equal(raw.get('tools')!.text, '[ {"type":"function"} ]');
  // A pretty-printed body keeps nothing: its members' text has line breaks.
  const pretty = JSON.stringify(body, null, 2);
  assert.equal(rawMembers(JSON.parse(pretty), pretty, RAW).size, 0);
  // Text the scanner cannot be sure of: nothing.
  assert.equal(rawMembers({ messages: [1] }, '{"m\\u0065ssages":[1]}', RAW).size, 0);
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
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
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
  assert.equal(
    topLevelMembers('{"messages":[1],"a":{"messages":[2]},"messages":[3]}', new Set(new Set(['messages'])))!.get('messages'),
    '[3]',
  );
  // Unsure: a key with escapes (it may spell a wanted key), or not an object.
  assert.equal(topLevelMembers('{"m\\u0065ssages":[1]}', new Set(new Set(['messages']))), undefined);
  assert.equal(topLevelMembers('[1,2]', new Set(new Set(['messages']))), undefined);
  assert.deepEqual([...topLevelMembers(' {} ', new Set(new Set(['messages'])))!], []);
});
