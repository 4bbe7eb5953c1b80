import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LazyInts, parseWithLazyInts } from './lazy-ints.ts';

const KEY = 'prompt_token_ids';
const ids = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 151_000);
const idsText = JSON.stringify(ids);

/** What a reader of the result sees: JSON.parse of its serialisation. */
const seen = (v: unknown) => JSON.parse(JSON.stringify(v));

test('a large top-level id array stays text, and the result reads exactly as JSON.parse would', () => {
  const docs = [
    `{"id":"c1","prompt_token_ids":${idsText},"choices":[{"index":0,"delta":{"content":"hi"}}]}`,
    `{ "prompt_token_ids" :\t[ ${ids.join(', ')} ], "usage": {"prompt_tokens": 3000} }`,
    `{"choices":[],"prompt_token_ids":[]${' '.repeat(5000)}}`,
  ];
  for (const doc of docs) {
    const out = parseWithLazyInts(doc, KEY);
    assert.ok(out[KEY] instanceof LazyInts, doc.slice(0, 40));
    assert.deepEqual(seen(out), JSON.parse(doc));
    assert.deepEqual((out[KEY] as LazyInts).values(), JSON.parse(doc)[KEY]);
  }
  assert.equal((parseWithLazyInts(docs[0], KEY)[KEY] as LazyInts).json, idsText, 'the text is kept as received');
});

test('anything unusual is parsed whole, with the same result as JSON.parse', () => {
  const docs = [
    `{"prompt_token_ids":[1,2,3]}`, // small: nothing to save
    `{"choices":[{"prompt_token_ids":${idsText}}]}`, // not top-level
    `{"note":"say \\"prompt_token_ids\\":[1]","x":${idsText}}`, // only inside a string
    `{"prompt_token_ids":[${ids.slice(0, 2000).join(',')},"a]"],"y":1}`, // a string element
    `{"prompt_token_ids":[[1,2],${idsText}]}`, // nested arrays
    `{"prompt_token_ids":[1,\n${ids.join(',\n')}]}`, // line breaks would split a JSONL record
    `{"prompt_token_ids":${idsText},"prompt_token_ids":5}`, // a later duplicate wins, as in JSON.parse
    `[{"prompt_token_ids":${idsText}}]`, // not an object
  ];
  for (const doc of docs) {
    const out = parseWithLazyInts(doc, KEY);
    assert.ok(!(out[KEY] instanceof LazyInts) && !(Array.isArray(out) && out[0][KEY] instanceof LazyInts), doc.slice(0, 60));
    assert.deepEqual(out, JSON.parse(doc));
  }
});

test('invalid JSON outside the array throws as JSON.parse does; inside it, values() says so', () => {
  for (const doc of [`{"prompt_token_ids":${idsText},"x":}`, `{"prompt_token_ids":${idsText}`, `{"prompt_token_ids":1${idsText}}`]) {
    assert.throws(() => parseWithLazyInts(doc, KEY), SyntaxError, doc.slice(-30));
  }
  const damaged = parseWithLazyInts(`{"prompt_token_ids":[1,,2${','.repeat(5000)}]}`, KEY)[KEY] as LazyInts;
  assert.throws(() => damaged.values(), /not a JSON array/);
});

test('values() refuses text that is not an array of integers, naming the problem', () => {
  assert.throws(() => new LazyInts('[1,2.5,3]').values(), /element 1 is 2.5, not an integer/);
  assert.throws(() => new LazyInts('[1,,2]').values(), /not a JSON array/);
  assert.throws(() => new LazyInts('{"a":1}').values(), /not a JSON array/);
  assert.deepEqual(new LazyInts('[7, 8]').values(), [7, 8]);
  assert.equal(JSON.stringify({ ids: new LazyInts('[1, "x"]') }), '{"ids":[1,"x"]}', 'passed on as received');
});
