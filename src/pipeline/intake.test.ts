// The intake queue and the in-flight count on their own: order, the drain timer, and counts that
// go back to zero (so `whenIdle` and at-least-one's session end can rely on them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { InFlight } from './in-flight.ts';
import { IntakeQueue } from './intake.ts';

test('intake: take returns items in order and empties the queue', () => {
  const q = new IntakeQueue<number>(10_000, () => assert.fail('no timer drain expected'));
  q.push(1);
  q.push(2);
  q.push(3);
  assert.equal(q.size, 3);
  assert.deepEqual(q.take(), [1, 2, 3]);
  assert.equal(q.size, 0);
  assert.deepEqual(q.take(), []);
});

test('intake: the timer drains once, delayMs after the first item, and take stops it', async () => {
  const drained: number[][] = [];
  const q: IntakeQueue<number> = new IntakeQueue<number>(15, () => drained.push(q.take()));
  q.push(1);
  q.push(2);
  await sleep(60);
  assert.deepEqual(drained, [[1, 2]], 'one drain for both items');
  q.push(3);
  assert.deepEqual(q.take(), [3]);
  await sleep(40);
  assert.deepEqual(drained, [[1, 2]], 'take stopped the timer');
});

test('in flight: counted per session and in all; a session at zero leaves no entry', () => {
  const f = new InFlight();
  f.begin('a');
  f.begin('a');
  f.begin('b');
  assert.equal(f.size, 3);
  assert.equal(f.of('a'), 2);
  f.end('a');
  f.end('b');
  assert.equal(f.of('b'), 0);
  assert.equal(f.size, 1);
  f.end('a');
  assert.equal(f.size, 0);
  assert.equal(f.of('a'), 0);
});
