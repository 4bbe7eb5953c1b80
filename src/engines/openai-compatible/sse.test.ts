import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sseData } from './sse.ts';

async function collect(pieces: Array<string | Uint8Array>): Promise<string[]> {
  async function* source() {
    for (const p of pieces) yield p;
  }
  const out: string[] = [];
  for await (const d of sseData(source())) out.push(d);
  return out;
}

const bytes = (s: string) => new TextEncoder().encode(s);

/** Every way of cutting `text` into two byte chunks, plus one byte at a time. */
function splits(text: string): Uint8Array[][] {
  const all = bytes(text);
  const out: Uint8Array[][] = [];
  for (let i = 0; i <= all.length; i++) out.push([all.slice(0, i), all.slice(i)]);
  out.push([...all].map((b) => Uint8Array.of(b)));
  return out;
}

test('events split across any chunk boundary come out whole, multi-byte characters included', async () => {
  const stream = 'data: {"a":1}\n\ndata: héllo 👋\n\n: keep-alive\n\ndata: [DONE]\n\n';
  for (const pieces of splits(stream)) {
    assert.deepEqual(await collect(pieces), ['{"a":1}', 'héllo 👋', '[DONE]'], `split ${pieces.map((p) => p.length).join('+')}`);
  }
});

test('a byte-order mark opening the stream is dropped, wherever its bytes are split', async () => {
  for (const pieces of splits('\uFEFFdata: first\n\ndata: \uFEFFkept\n\n')) {
    assert.deepEqual(await collect(pieces), ['first', '\uFEFFkept']);
  }
});

test('CRLF line endings, split anywhere (also between \\r and \\n)', async () => {
  const stream = 'data: one\r\n\r\ndata: two\r\ndata: more\r\n\r\n';
  for (const pieces of splits(stream)) {
    assert.deepEqual(await collect(pieces), ['one', 'two\nmore']);
  }
});

test('LF and CRLF mixed within one stream', async () => {
  for (const pieces of splits('data: a\n\r\ndata: b\r\n\ndata: c\n\n')) {
    assert.deepEqual(await collect(pieces), ['a', 'b', 'c']);
  }
});

test('multi-line data is joined with \\n; other fields and comments are ignored', async () => {
  assert.deepEqual(await collect(['event: message\nid: 7\nretry: 100\n: a comment\ndata: line 1\ndata: line 2\n\n']), ['line 1\nline 2']);
  assert.deepEqual(await collect([': only a comment\n\n', 'event: ping\n\n']), []);
});

test('one optional space after "data:" is removed, further spaces are kept', async () => {
  assert.deepEqual(await collect(['data:x\n\ndata:  y\n\ndata: \n\n']), ['x', ' y', '']);
});

test('a last event without its blank line is still delivered at the end of the body', async () => {
  assert.deepEqual(await collect(['data: a\n\ndata: [DONE]']), ['a', '[DONE]']);
  assert.deepEqual(await collect(['data: a\n\n', '\n']), ['a']);
});

test('events are yielded as soon as they are complete, before the body ends', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  async function* source() {
    yield bytes('data: first\n\n');
    await gate;
    yield bytes('data: second\n\n');
  }
  const it = sseData(source());
  assert.deepEqual(await it.next(), { value: 'first', done: false });
  release();
  assert.deepEqual(await it.next(), { value: 'second', done: false });
  assert.equal((await it.next()).done, true);
});
