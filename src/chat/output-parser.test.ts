import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HermesOutputParser, PlainOutputParser, type OutputDelta, type OutputParser } from './output-parser.ts';

interface Parsed {
  content: string;
  reasoning: string;
  calls: Array<{ name: string; arguments: unknown }>;
  malformed: number;
}

/** Feeds `pieces` one by one and gathers the fields. */
function parse(pieces: string[], parser: OutputParser = new HermesOutputParser()): Parsed {
  const r: Parsed = { content: '', reasoning: '', calls: [], malformed: 0 };
  const take = (d: OutputDelta) => {
    r.content += d.content ?? '';
    r.reasoning += d.reasoning ?? '';
    for (const c of d.toolCalls ?? []) {
      assert.match(c.id, /^call_[0-9a-f]{24}$/);
      assert.equal(c.type, 'function');
      assert.equal(typeof c.function.arguments, 'string');
      r.calls.push({ name: c.function.name, arguments: JSON.parse(c.function.arguments) });
    }
  };
  for (const p of pieces) take(parser.push(p));
  take(parser.finish());
  r.malformed = parser.malformedToolCalls;
  return r;
}

/** Whole, per character, and in pieces of 3: all must agree. */
function parseEveryWay(text: string, opts?: { inThink?: boolean }): Parsed {
  const whole = parse([text], new HermesOutputParser(opts));
  assert.deepEqual(parse([...text], new HermesOutputParser(opts)), whole, 'per-character pieces give the same fields');
  const threes = text.match(/[\s\S]{1,3}/g) ?? [];
  assert.deepEqual(parse(threes, new HermesOutputParser(opts)), whole, 'pieces of 3 give the same fields');
  return whole;
}

test('plain text stays content, byte for byte', () => {
  assert.deepEqual(parseEveryWay('Hello there.\n\n  Indented line  '), {
    content: 'Hello there.\n\n  Indented line  ',
    reasoning: '',
    calls: [],
    malformed: 0,
  });
});

test('think block becomes reasoning, without the template newlines', () => {
  const r = parseEveryWay('<think>\nThe user wants a greeting.\nSo greet.\n</think>\n\nHi!');
  assert.deepEqual(r, { content: 'Hi!', reasoning: 'The user wants a greeting.\nSo greet.', calls: [], malformed: 0 });
});

test('a prompt that opened the think block: reasoning until </think>', () => {
  const r = parseEveryWay('Short thought.\n</think>\n\nAnswer.', { inThink: true });
  assert.deepEqual(r, { content: 'Answer.', reasoning: 'Short thought.', calls: [], malformed: 0 });
});

test('empty think block (thinking off) leaves just the content', () => {
  assert.deepEqual(parseEveryWay('<think>\n\n</think>\n\nDone.'), { content: 'Done.', reasoning: '', calls: [], malformed: 0 });
});

test('one tool call after text', () => {
  const r = parseEveryWay('Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
  assert.deepEqual(r, {
    content: 'Let me check.',
    reasoning: '',
    calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
    malformed: 0,
  });
});

test('several tool calls after thinking, no content', () => {
  const text =
    '<think>\nTwo lookups.\n</think>\n\n<tool_call>\n{"name": "read", "arguments": {"path": "a.txt"}}\n</tool_call>\n<tool_call>\n{"name": "exec", "arguments": {"cmd": "ls -la", "n": [1, 2]}}\n</tool_call>';
  const r = parseEveryWay(text);
  assert.deepEqual(r, {
    content: '',
    reasoning: 'Two lookups.',
    malformed: 0,
    calls: [
      { name: 'read', arguments: { path: 'a.txt' } },
      { name: 'exec', arguments: { cmd: 'ls -la', n: [1, 2] } },
    ],
  });
});

test('arguments written as a JSON string are passed on as that string', () => {
  const p = new HermesOutputParser();
  const d = p.push('<tool_call>{"name": "f", "arguments": "{\\"x\\": 1}"}</tool_call>');
  assert.equal(d.toolCalls?.[0].function.arguments, '{"x": 1}');
});

test('malformed tool-call JSON stays text and is counted', () => {
  const bad = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par\n</tool_call>';
  const r = parseEveryWay(`Checking.\n${bad}`);
  assert.deepEqual(r, { content: `Checking.\n${bad}`, reasoning: '', calls: [], malformed: 1 });
  const noName = parseEveryWay('<tool_call>{"arguments": {}}</tool_call>');
  assert.equal(noName.malformed, 1);
  assert.equal(noName.content, '<tool_call>{"arguments": {}}</tool_call>');
});

test('an unclosed tool call (cut by max_tokens) stays text and is counted', () => {
  const r = parseEveryWay('<tool_call>\n{"name": "read", "argu');
  assert.deepEqual(r, { content: '<tool_call>\n{"name": "read", "argu', reasoning: '', calls: [], malformed: 1 });
});

test('a good call next to a malformed one: the good one is kept', () => {
  const r = parseEveryWay('<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{nope}</tool_call>');
  assert.deepEqual(r.calls, [{ name: 'a', arguments: {} }]);
  assert.equal(r.content, '<tool_call>{nope}</tool_call>');
  assert.equal(r.malformed, 1);
});

test('text that only looks like a tag start is released once it is not one', () => {
  const p = new HermesOutputParser();
  assert.deepEqual(p.push('a <tool'), { content: 'a' });
  assert.deepEqual(p.push('box> b'), { content: ' <toolbox> b' });
  assert.deepEqual(p.finish(), {});
});

test('unclosed think block (cut by max_tokens) is reasoning', () => {
  assert.deepEqual(parseEveryWay('<think>\nStill thinking'), { content: '', reasoning: 'Still thinking', calls: [], malformed: 0 });
});

test('PlainOutputParser passes every piece through as content', () => {
  assert.deepEqual(
    parse(['<think>x</think>', '<tool_call>{}</tool_call>'], new PlainOutputParser()).content,
    '<think>x</think><tool_call>{}</tool_call>',
  );
});
