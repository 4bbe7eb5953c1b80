import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { SampleStore } from './store.ts';
import { OpenClawError } from '../errors/index.ts';
import { exportJsonl } from './export.ts';
import { makeSample } from '../../test/support/sample-fixtures.ts';

function storeWith(t: { after: (fn: () => void) => void }, n: number): { store: SampleStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'openclaw-export-'));
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < n; i++) store.addSample(makeSample('s', i));
  return { store, dir };
}

test('export writes one valid JSON object per sample with its state and drop reason', async (t) => {
  const { store, dir } = storeWith(t, 3);
  store.dropSample('s:1', 'operator');
  store.markTrained(store.leaseBatch(1).leaseId);
  const file = join(dir, 'out.jsonl');
  const out = createWriteStream(file);
  const written = await exportJsonl(store, out);
  out.end();
  await finished(out);

  assert.deepEqual(written, { lines: 3, readerClosed: false });
  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 3);
  assert.deepEqual(
    lines.map((l) => [l.id, l.state, l.drop_reason]),
    [
      ['s:0', 'trained', null],
      ['s:1', 'dropped', 'operator'],
      ['s:2', 'ready', null],
    ],
  );
  // snake_case field names, like every HTTP answer
  assert.deepEqual(lines[2], {
    id: 's:2',
    session_id: 's',
    turn_id: 2,
    policy_version: 3,
    type: 'rl',
    state: 'ready',
    drop_reason: null,
    loss_mask: 1,
    reward: 1,
    votes: [1, 1, 'fail'],
    hint: null,
    prompt_ids: [1, 2, 2],
    response_ids: [7, 8, 9],
    rollout_logprobs: [-0.5, -1e-300, -2.25],
    teacher_logprobs: null,
    teacher_top_k: null,
    created_at: 1_700_000_000_002,
  });
});

test('export waits for a slow reader and still writes every sample, more than one read page', async (t) => {
  const { store } = storeWith(t, 600); // > 2 pages of 256
  const chunks: string[] = [];
  let drains = 0;
  const slow = new Writable({
    highWaterMark: 64,
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      setImmediate(done);
    },
  });
  slow.on('drain', () => drains++);
  // the store stays usable while the export waits on the reader
  const exporting = exportJsonl(store, slow);
  store.addSample(makeSample('late', 0));
  assert.deepEqual(await exporting, { lines: 601, readerClosed: false });
  const ids = chunks
    .join('')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l).id);
  assert.equal(ids.length, 601);
  assert.equal(new Set(ids).size, 601);
  assert.equal(ids[599], 's:599');
  assert.ok(drains > 0, 'backpressure was exercised');
});

test('export can be limited to one state', async (t) => {
  const { store } = storeWith(t, 4);
  store.leaseBatch(1);
  let text = '';
  const sink = new Writable({
    write(chunk, _e, done) {
      text += String(chunk);
      done();
    },
  });
  assert.equal((await exportJsonl(store, sink, { state: 'ready' })).lines, 3);
  assert.deepEqual(
    text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).id),
    ['s:1', 's:2', 's:3'],
  );
});

function failingSink(code: string, after: number): Writable {
  let seen = 0;
  return new Writable({
    highWaterMark: 256,
    write(_chunk, _enc, done) {
      seen += 1;
      if (seen <= after) return setImmediate(done);
      done(Object.assign(new Error(`${code}: write failed`), { code }));
    },
  });
}

test('a reader that closes early (EPIPE) ends the export quietly, after fewer lines than the store holds', async (t) => {
  const { store } = storeWith(t, 300);
  const result = await exportJsonl(store, failingSink('EPIPE', 5));
  assert.equal(result.readerClosed, true);
  assert.ok(result.lines < 300, `${result.lines} lines written to a closed reader`);
});

test('any other write error is reported with the number of samples written', async (t) => {
  const { store } = storeWith(t, 300);
  await assert.rejects(
    exportJsonl(store, failingSink('ENOSPC', 5)),
    (err: unknown) => err instanceof OpenClawError && /export: writing the output failed after \d+ samples: ENOSPC/.test(err.message),
  );
});
