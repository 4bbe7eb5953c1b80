import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../../errors/index.ts';
import { FutureStore } from './futures.ts';
import { SeqQueue } from './sequence.ts';

function queue(gapMs: number) {
  const futures = new FutureStore();
  const ran: string[] = [];
  const q = new SeqQueue((w) => futures.track(w), gapMs);
  const call = (seq: number | undefined, name: string) =>
    q.submit(seq, name, async () => {
      ran.push(name);
      return name;
    });
  return { futures, ran, q, call };
}

async function settle(futures: FutureStore, id: string): Promise<unknown> {
  const s = await futures.wait(id, 5000);
  return s.status === 'done' ? s.value : s;
}

test('seq_ids run in order; a call without seq_id runs after what was submitted before it', async () => {
  const { futures, ran, call } = queue(60_000);
  const ids = [call(3, 'c'), call(2, 'b')];
  assert.deepEqual(ran, []);
  ids.push(call(1, 'a'), call(undefined, 'free'));
  for (const id of ids) await settle(futures, id);
  assert.deepEqual(ran, ['a', 'b', 'c', 'free']);
});

test('a missing seq_id is skipped after the gap; a call arriving later under it is refused', async () => {
  const { futures, ran, call } = queue(50);
  const later = call(3, 'c');
  const t0 = Date.now();
  assert.equal(await settle(futures, later), 'c');
  assert.ok(Date.now() - t0 >= 45, 'it waited for the gap first');
  assert.throws(
    () => call(1, 'a'),
    (err: unknown) =>
      err instanceof OpenClawError && err.status === 400 && err.param === 'seq_id' && /seq_id 1 arrived after seq_id 3/.test(err.message),
  );
  assert.deepEqual(ran, ['c']);
});

test('a failed call fails its future only; the queue goes on', async () => {
  const futures = new FutureStore();
  const q = new SeqQueue((w) => futures.track(w), 1000);
  const bad = q.submit(1, 'x', async () => {
    throw new OpenClawError('invalid_request', 'boom');
  });
  const good = q.submit(2, 'y', async () => 'fine');
  const s = await futures.wait(bad, 5000);
  assert.equal(s.status, 'failed');
  assert.equal(await settle(futures, good), 'fine');
});

test('futures: results past maxKept are dropped oldest first and then answer 410', async () => {
  const futures = new FutureStore(2);
  const ids = [futures.track(Promise.resolve(1)), futures.track(Promise.resolve(2)), futures.track(Promise.resolve(3))];
  await futures.wait(ids[2], 1000);
  await new Promise((r) => setImmediate(r));
  await assert.rejects(futures.wait(ids[0], 0), (err: unknown) => err instanceof OpenClawError && err.status === 410);
  assert.deepEqual(await futures.wait(ids[1], 0), { status: 'done', value: 2 });
});
