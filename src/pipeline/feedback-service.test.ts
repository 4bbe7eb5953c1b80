// The feedback service on its own, on a real store in a temp dir: where feedback goes for each
// place a turn can be (unknown, pending, held, ready sample, dropped), what the feedback log keeps
// and what a restart gets back from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../errors/index.ts';
import { DEFAULT_METHOD_FLAGS } from '../methods/index.ts';
import { SampleStore, type Sample } from '../samples/index.ts';
import { PipelineCounters } from './counters.ts';
import { toPendingTurn } from './convert.ts';
import { FeedbackService } from './feedback-service.ts';
import { JsonlAppender } from './records.ts';
import { finalizedTurn } from '../../test/support/turn-fixture.ts';
import type { DecideSettings } from './verdict.ts';
import { tempDir } from '../../test/support/temp.ts';

const settings: DecideSettings = {
  mode: 'openclaw-rl',
  policy: 'override',
  quorum: 1,
  minHintChars: 10,
  flags: { ...DEFAULT_METHOD_FLAGS },
};

function setup(redecided: Array<[string, number]> = [], heldResolves = false) {
  const dir = tempDir('ocrl-feedback-');
  const store = SampleStore.open(join(dir, 'samples.sqlite'));
  const counters = new PipelineCounters();
  const judgeRecords = new JsonlAppender(join(dir, 'judge.jsonl'));
  const judged: Array<[string, number, unknown]> = [];
  const opts = {
    store,
    settings,
    counters,
    judgeRecords,
    logPath: join(dir, 'feedback.jsonl'),
    now: () => 1000,
    views: { judge: (s: string, t: number, j: unknown) => judged.push([s, t, j]) },
    redecideHeld: (s: string, t: number) => (redecided.push([s, t]), heldResolves),
  };
  const close = () => {
    judgeRecords.close();
    store.close();
  };
  return { dir, store, counters, judged, opts, service: new FeedbackService(opts), close };
}

function statusOf(fn: () => unknown): { status: number; code: string | null } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof OpenClawError);
    return { status: err.status, code: err.code };
  }
  assert.fail('expected an error');
}

test('feedback service: unknown session or turn is a 404 naming which', () => {
  const { service, close } = setup();
  assert.deepEqual(
    statusOf(() => service.submit({ sessionId: 'nope', turnId: undefined, score: 1, comment: null }, undefined)),
    { status: 404, code: 'session_not_found' },
  );
  assert.deepEqual(
    statusOf(() => service.submit({ sessionId: 's', turnId: 9, score: 1, comment: null }, [1, 2])),
    { status: 404, code: 'turn_not_found' },
  );
  close();
});

test('feedback service: feedback on a pending turn is kept, logged, and offered to a held turn', () => {
  const redecided: Array<[string, number]> = [];
  const { dir, store, counters, service, close } = setup(redecided, true);
  const pending = toPendingTurn(finalizedTurn('s', 1, 'ok'), undefined, 0);
  store.addPendingTurn(pending);
  const r = service.submit({ sessionId: 's', turnId: undefined, score: -0.5, comment: 'too long' }, [1]);
  assert.equal(r.status, 'applied', 'the held turn was resolved by it');
  assert.equal(r.turn_id, 1, 'defaults to the latest known turn');
  assert.deepEqual(redecided, [['s', 1]]);
  assert.deepEqual(service.of(pending), { score: -0.5, comment: 'too long', at: 1000 });
  assert.equal(counters.counts.feedback_received, 1);
  service.close();
  const lines = readFileSync(join(dir, 'feedback.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(lines, [{ session_id: 's', turn_id: 1, score: -0.5, comment: 'too long', at: 1000 }]);
  service.forget('s', 1);
  assert.equal(service.of(pending), undefined);
  close();
});

test('feedback service: after a restart, the log gives back feedback newer than the turn was stored with', () => {
  const first = setup();
  const pending = toPendingTurn(finalizedTurn('s', 1, 'ok'), undefined, 0);
  first.store.addPendingTurn(pending);
  assert.equal(first.service.submit({ sessionId: 's', turnId: 1, score: 1, comment: null }, [1]).status, 'recorded');
  first.service.close();
  const again = new FeedbackService(first.opts);
  assert.equal(again.of(pending), undefined, 'nothing before restore');
  again.restore([pending]);
  assert.deepEqual(again.of(pending), { score: 1, comment: null, at: 1000 });
  const storedNewer = toPendingTurn(finalizedTurn('s', 1, 'ok'), { score: -1, comment: null, at: 2000 }, 0);
  const third = new FeedbackService(first.opts);
  third.restore([storedNewer]);
  assert.deepEqual(third.of(storedNewer), { score: -1, comment: null, at: 2000 }, 'the stored one is newer');
  again.close();
  third.close();
  first.close();
});

test('feedback service: a ready sample is replaced with the new reward; a dropped turn is a 409', () => {
  const { dir, store, counters, judged, service, close } = setup();
  const pending = toPendingTurn(finalizedTurn('s', 1, 'ok'), undefined, 0);
  store.addPendingTurn(pending);
  const sample: Sample = {
    id: 's:1',
    sessionId: 's',
    turnId: 1,
    policyVersion: 3,
    promptIds: pending.promptIds,
    responseIds: pending.responseIds,
    rolloutLogprobs: pending.rolloutLogprobs,
    lossMask: 1,
    reward: 1,
    teacherLogprobs: null,
    teacherTopK: null,
    type: 'rl',
    votes: [1],
    hint: null,
    createdAt: 0,
  };
  store.resolvePendingTurn({ sessionId: 's', turnId: 1 }, { kind: 'samples', samples: [sample] });
  const r = service.submit({ sessionId: 's', turnId: 1, score: -1, comment: null }, [1]);
  assert.equal(r.status, 'replaced');
  const now = store.getTurnOutcome('s', 1);
  assert.ok(now !== null && now.status === 'samples');
  assert.equal(now.samples[0].reward, -1);
  assert.equal(counters.counts.feedback_replaced, 1);
  assert.equal(judged.length, 1, 'the view shows the new decision');

  store.addPendingTurn(toPendingTurn(finalizedTurn('s', 2, 'ok'), undefined, 0));
  store.resolvePendingTurn({ sessionId: 's', turnId: 2 }, { kind: 'dropped', reason: 'no_signal' });
  assert.deepEqual(
    statusOf(() => service.submit({ sessionId: 's', turnId: 2, score: 1, comment: null }, [1, 2])),
    { status: 409, code: 'turn_already_resolved' },
  );
  service.close();
  close();
  const record = JSON.parse(readFileSync(join(dir, 'judge.jsonl'), 'utf8').trim());
  assert.equal(record.type, 'feedback_update');
  assert.equal(record.decision.reward, -1);
});
