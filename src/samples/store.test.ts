import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { OpenClawError } from '../errors/index.ts';
import { SampleStore } from './store.ts';
import { makeSample, makeTurn } from '../../test/support/sample-fixtures.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'openclaw-samples-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function openTemp(t: { after: (fn: () => void) => void }): SampleStore {
  const store = SampleStore.open(join(tempDir(t), 'run', 'samples.sqlite'));
  t.after(() => store.close());
  return store;
}

/** A store plus a second, read-only connection to its file: what other processes see. */
function openWithReader(t: { after: (fn: () => void) => void }): { store: SampleStore; other: Database.Database } {
  const path = join(tempDir(t), 'samples.sqlite');
  const store = SampleStore.open(path);
  t.after(() => store.close());
  const other = new Database(path, { readonly: true });
  t.after(() => other.close());
  return { store, other };
}

function hasCode(code: string) {
  return (e: unknown) => e instanceof OpenClawError && e.code === code;
}

test('open creates the folders and a WAL-mode file that records its schema version', (t) => {
  const path = join(tempDir(t), 'a', 'b', 'samples.sqlite');
  SampleStore.open(path).close();
  assert.ok(existsSync(path));
  const raw = new Database(path, { readonly: true });
  assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
  assert.deepEqual(raw.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get(), { value: '3' });
  raw.close();
});

test('a store written by a newer schema is refused with a clear error, and left untouched', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  SampleStore.open(path).close();
  const raw = new Database(path);
  raw.prepare(`UPDATE meta SET value = '4' WHERE key = 'schema_version'`).run();
  raw.close();
  assert.throws(
    () => SampleStore.open(path),
    (e: unknown) =>
      e instanceof OpenClawError &&
      e.code === 'store_schema_too_new' &&
      /schema version 4/.test(e.message) &&
      /upgrade openclaw-rl/.test(e.message),
  );
  const again = new Database(path, { readonly: true });
  assert.deepEqual(again.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get(), { value: '4' });
  again.close();
});

test('a file that is not a store gives an actionable error naming the path', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  writeFileSync(path, 'this is not sqlite at all, just some text that is long enough to be a header'.repeat(20));
  assert.throws(
    () => SampleStore.open(path),
    (e: unknown) => e instanceof OpenClawError && e.code === 'store_open_failed' && e.message.includes(path),
  );
});

test('a pending turn comes back exactly as stored, and is stored only once', (t) => {
  const store = openTemp(t);
  const turn = makeTurn('s1', 0, {
    toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
    extra: { tools: [{ type: 'function' }] },
  });
  store.addPendingTurn(turn);
  store.addPendingTurn(makeTurn('s1', 1, { nextState: null }));
  assert.deepEqual(store.pendingTurns(), [turn, makeTurn('s1', 1, { nextState: null })]);
  assert.deepEqual(store.getTurnOutcome('s1', 0), { status: 'pending', turn });
  assert.throws(() => store.addPendingTurn(turn), hasCode('duplicate_turn'));
  assert.equal(store.counts().pending, 2);
});

test('a pending turn whose log-probs do not match its response tokens is refused', (t) => {
  const store = openTemp(t);
  assert.throws(
    () => store.addPendingTurn(makeTurn('s1', 0, { rolloutLogprobs: [-1] })),
    /rolloutLogprobs has 1 entries for 2 response tokens/,
  );
  assert.equal(store.counts().pending, 0);
});

test('resolving a turn into a sample moves it from pending to ready in one step', (t) => {
  const store = openTemp(t);
  store.addPendingTurn(makeTurn('s1', 0));
  const sample = makeSample('s1', 0, {
    type: 'opd+rl',
    teacherLogprobs: [-0.4, -0.3, -0.2],
    teacherTopK: [
      { ids: [7, 3], logprobs: [-0.4, -1.2] },
      { ids: [8], logprobs: [-0.3] },
      { ids: [9], logprobs: [-0.2] },
    ],
    hint: 'check the file first',
  });
  store.resolvePendingTurn({ sessionId: 's1', turnId: 0 }, { kind: 'samples', samples: [sample] });
  assert.deepEqual(store.pendingTurns(), []);
  const outcome = store.getTurnOutcome('s1', 0);
  assert.deepEqual(outcome, {
    status: 'samples',
    samples: [{ ...sample, state: 'ready', dropReason: null, leaseId: null, leaseCount: 0 }],
  });
  assert.throws(
    () => store.addPendingTurn(makeTurn('s1', 0)),
    (e: unknown) => e instanceof OpenClawError && e.code === 'duplicate_turn' && /already judged/.test(e.message),
  );
});

test('resolving a turn as a drop records the reason, and drops are counted by reason', (t) => {
  const store = openTemp(t);
  for (let i = 0; i < 3; i++) store.addPendingTurn(makeTurn('s1', i));
  store.resolvePendingTurn({ sessionId: 's1', turnId: 0 }, { kind: 'dropped', reason: 'hint_reject', info: { votes: [-1, -1] } });
  store.resolvePendingTurn({ sessionId: 's1', turnId: 1 }, { kind: 'dropped', reason: 'hint_reject' });
  store.resolvePendingTurn({ sessionId: 's1', turnId: 2 }, { kind: 'dropped', reason: 'no_next_state' });
  const outcome = store.getTurnOutcome('s1', 0);
  assert.ok(outcome !== null && outcome.status === 'dropped');
  assert.equal(outcome.reason, 'hint_reject');
  assert.deepEqual(outcome.info, { votes: [-1, -1] });
  assert.deepEqual(store.dropsByReason(), { hint_reject: 2, no_next_state: 1 });
  assert.deepEqual(store.counts(), { pending: 0, ready: 0, leased: 0, trained: 0, droppedSamples: 0, droppedTurns: 3 });
  assert.equal(store.getTurnOutcome('s1', 9), null);
});

test('a resolution that fails half-way leaves the turn pending and nothing else written', (t) => {
  const store = openTemp(t);
  store.addSample(makeSample('s1', 5, { id: 'taken' }));
  store.addPendingTurn(makeTurn('s1', 0));
  const good = makeSample('s1', 0, { id: 'fresh' });
  const clash = makeSample('s1', 0, { id: 'taken' });
  // the first sample inserts, the second violates uniqueness: the transaction must undo both
  assert.throws(
    () => store.resolvePendingTurn({ sessionId: 's1', turnId: 0 }, { kind: 'samples', samples: [good, clash] }),
    hasCode('duplicate_sample'),
  );
  assert.equal(store.getTurnOutcome('s1', 0)?.status, 'pending');
  assert.equal(store.countSamples(), 1);
});

test('resolutions that would lose or misfile a turn are refused', (t) => {
  const store = openTemp(t);
  store.addPendingTurn(makeTurn('s1', 0));
  assert.throws(
    () => store.resolvePendingTurn({ sessionId: 's1', turnId: 7 }, { kind: 'dropped', reason: 'x' }),
    hasCode('turn_not_pending'),
  );
  assert.throws(
    () => store.resolvePendingTurn({ sessionId: 's1', turnId: 0 }, { kind: 'samples', samples: [makeSample('s2', 0)] }),
    /belongs to s2:0/,
  );
  assert.throws(
    () => store.resolvePendingTurn({ sessionId: 's1', turnId: 0 }, { kind: 'samples', samples: [] }),
    /must be a drop with a reason/,
  );
  assert.throws(() => store.resolvePendingTurn({ sessionId: 's1', turnId: 0 }, { kind: 'dropped', reason: '' }), /non-empty reason/);
  assert.equal(store.getTurnOutcome('s1', 0)?.status, 'pending');
});

test('batches take the oldest ready samples; trained and released leases end where they should', (t) => {
  const store = openTemp(t);
  for (let i = 1; i <= 5; i++) store.addSample(makeSample('s', i));
  const first = store.leaseBatch(2);
  assert.deepEqual(
    first.samples.map((s) => s.id),
    ['s:1', 's:2'],
  );
  assert.ok(first.samples.every((s) => s.state === 'leased' && s.leaseId === first.leaseId));
  const second = store.leaseBatch(2);
  assert.deepEqual(
    second.samples.map((s) => s.id),
    ['s:3', 's:4'],
  );
  assert.notEqual(first.leaseId, second.leaseId);
  assert.equal(store.countReady(), 1);

  assert.equal(store.markTrained(first.leaseId), 2);
  assert.equal(store.releaseLease(second.leaseId), 2);
  assert.equal(store.markTrained(second.leaseId), 0, 'a released lease no longer owns its samples');
  assert.deepEqual(store.counts(), { pending: 0, ready: 3, leased: 0, trained: 2, droppedSamples: 0, droppedTurns: 0 });

  const third = store.leaseBatch(10);
  assert.deepEqual(
    third.samples.map((s) => [s.id, s.leaseCount]),
    [
      ['s:3', 2],
      ['s:4', 2],
      ['s:5', 1],
    ],
  );
  assert.deepEqual(store.leaseBatch(4).samples, []);
});

test("order 'session': the batch is the first ready samples by session and turn, in that order, whatever order they were stored in", (t) => {
  const store = openTemp(t);
  // Judged in the order two concurrent episodes happened to finish.
  for (const [session, turn] of [
    ['e1', 1],
    ['e0', 1],
    ['e1', 0],
    ['e2', 0],
    ['e0', 0],
  ] as const)
    store.addSample(makeSample(session, turn));
  const lease = store.leaseBatch(4, { order: 'session' });
  assert.deepEqual(
    lease.samples.map((s) => s.id),
    ['e0:0', 'e0:1', 'e1:0', 'e1:1'],
  );
  assert.deepEqual(
    store.listSamples({ state: 'ready' }).map((s) => s.id),
    ['e2:0'],
  );
  // The default stays arrival order.
  store.releaseLease(lease.leaseId);
  assert.deepEqual(
    store.leaseBatch(2).samples.map((s) => s.id),
    ['e1:1', 'e0:1'],
  );
});

test('a batch never drops the samples beyond its size', (t) => {
  const store = openTemp(t);
  for (let i = 0; i < 7; i++) store.addSample(makeSample('s', i));
  const lease = store.leaseBatch(3, { currentVersion: 3, maxStaleness: 0 });
  assert.equal(lease.samples.length, 3);
  assert.equal(lease.staleDropped, 0);
  assert.deepEqual(store.counts(), { pending: 0, ready: 4, leased: 3, trained: 0, droppedSamples: 0, droppedTurns: 0 });
  assert.deepEqual(
    store.listSamples({ state: 'ready' }).map((s) => s.id),
    ['s:3', 's:4', 's:5', 's:6'],
  );
});

test('samples more than maxStaleness versions old are dropped as stale and counted', (t) => {
  const store = openTemp(t);
  [0, 1, 2, 3, 5].forEach((v, i) => store.addSample(makeSample('s', i, { policyVersion: v })));
  // current 5, bound 2: staleness 5, 4, 3 are too old; staleness 2 (version 3) is still allowed
  const lease = store.leaseBatch(1, { currentVersion: 5, maxStaleness: 2 });
  assert.equal(lease.staleDropped, 3);
  assert.deepEqual(
    lease.samples.map((s) => s.policyVersion),
    [3],
  );
  assert.deepEqual(
    store.listSamples({ state: 'ready' }).map((s) => s.policyVersion),
    [5],
  );
  assert.deepEqual(store.dropsByReason(), { stale: 3 });
  assert.deepEqual(
    store.listSamples({ state: 'dropped' }).map((s) => [s.policyVersion, s.dropReason]),
    [
      [0, 'stale'],
      [1, 'stale'],
      [2, 'stale'],
    ],
  );
  assert.throws(() => store.leaseBatch(1, { maxStaleness: 2 }), /needs currentVersion/);
});

test('reopening returns leased-but-untrained samples to ready and keeps pending turns', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  const before = SampleStore.open(path);
  for (let i = 0; i < 4; i++) before.addSample(makeSample('s', i));
  before.addPendingTurn(makeTurn('s', 10));
  const trained = before.leaseBatch(1);
  before.markTrained(trained.leaseId);
  before.leaseBatch(2); // the "trainer" dies before finishing this batch
  before.close();

  const after = SampleStore.open(path);
  t.after(() => after.close());
  assert.deepEqual(after.recovery, { leasesReturned: 2, pendingTurns: 1 });
  assert.deepEqual(after.counts(), { pending: 1, ready: 3, leased: 0, trained: 1, droppedSamples: 0, droppedTurns: 0 });
  assert.deepEqual(
    after.listSamples({ state: 'ready' }).map((s) => [s.id, s.leaseId]),
    [
      ['s:1', null],
      ['s:2', null],
      ['s:3', null],
    ],
  );
  assert.deepEqual(after.pendingTurns(), [makeTurn('s', 10)]);
});

test('with recoverLeases off, a second process leaves the leases of the first alone', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  const owner = SampleStore.open(path);
  t.after(() => owner.close());
  owner.addSample(makeSample('s', 0));
  const lease = owner.leaseBatch(1);
  const reader = SampleStore.open(path, { recoverLeases: false });
  assert.deepEqual(reader.recovery, { leasesReturned: 0, pendingTurns: 0 });
  assert.deepEqual(
    reader.listSamples().map((s) => [s.state, s.leaseId]),
    [['leased', lease.leaseId]],
  );
  reader.close();
});

test('samples page by session with totals, and only ready samples can be dropped by hand', (t) => {
  const store = openTemp(t);
  for (let i = 0; i < 5; i++) store.addSample(makeSample('a', i));
  for (let i = 0; i < 2; i++) store.addSample(makeSample('b', i));
  assert.deepEqual(
    store.listSamples({ sessionId: 'a', limit: 2, offset: 2 }).map((s) => s.id),
    ['a:2', 'a:3'],
  );
  assert.deepEqual(
    store.listSamples({ limit: 3, offset: 5 }).map((s) => s.id),
    ['b:0', 'b:1'],
  );
  assert.equal(store.countSamples({ sessionId: 'a' }), 5);
  assert.equal(store.countSamples(), 7);

  store.leaseBatch(1);
  assert.equal(store.dropSample('a:0', 'operator'), false, 'a leased sample belongs to its trainer batch');
  assert.equal(store.dropSample('a:1', 'operator'), true);
  assert.equal(store.dropSample('nope', 'operator'), false);
  assert.deepEqual(store.dropsByReason(), { operator: 1 });
  assert.throws(() => store.listSamples({ limit: -1 }), /limit must be a non-negative integer/);
});

test('samples that break a per-token invariant are refused before anything is written', (t) => {
  const store = openTemp(t);
  assert.throws(
    () => store.addSample(makeSample('s', 0, { teacherLogprobs: [-1, -2] })),
    /teacherLogprobs has 2 entries for 3 response tokens/,
  );
  assert.throws(() => store.addSample(makeSample('s', 0, { reward: Number.NaN })), /reward must be a finite number/);
  assert.throws(() => store.addSample(makeSample('s', 0, { policyVersion: -1 })), /policyVersion must be a non-negative integer/);
  store.addSample(makeSample('s', 0));
  assert.throws(() => store.addSample(makeSample('s', 0)), hasCode('duplicate_sample'));
  assert.equal(store.countSamples(), 1);
});

test('group commit: writes of one event-loop turn share a transaction, visible to other connections once it commits', async (t) => {
  const { store, other } = openWithReader(t);
  const countOther = () => (other.prepare(`SELECT count(*) AS n FROM pending_turns`).get() as { n: number }).n;
  const errors: unknown[] = [];
  store.groupWrites((err) => errors.push(err));
  store.addPendingTurn(makeTurn('g', 1));
  store.addPendingTurn(makeTurn('g', 2));
  store.resolvePendingTurn({ sessionId: 'g', turnId: 1 }, { kind: 'dropped', reason: 'hint_reject' });
  assert.equal(store.countPending(), 1, 'the store itself sees its writes at once');
  assert.equal(countOther(), 0, 'nothing is committed inside the group');
  await new Promise((r) => setImmediate(r));
  assert.equal(countOther(), 1, 'committed at the check phase');
  assert.equal(store.getTurnOutcome('g', 1)?.status, 'dropped');
  assert.equal(errors.length, 0, 'no commit failed');
  store.groupWrites((err) => errors.push(err));
  store.addPendingTurn(makeTurn('g', 3));
  store.close();
  assert.equal(countOther(), 2, 'close commits an open group');
});

test('group commit: a turn resolved in its own group is never written as pending; one left pending is written at the commit', async (t) => {
  const { store, other } = openWithReader(t);
  // AUTOINCREMENT counts every row ever inserted into pending_turns.
  const pendingInserts = () =>
    (other.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'pending_turns'`).get() as { seq: number } | undefined)?.seq ?? 0;
  store.groupWrites((err) => assert.fail(String(err)));
  const kept = makeTurn('g', 2);
  store.addPendingTurn(makeTurn('g', 1));
  store.addPendingTurn(kept);
  assert.throws(
    () => store.addPendingTurn(makeTurn('g', 2)),
    (e: unknown) => e instanceof OpenClawError && /already pending/.test(e.message),
  );
  assert.deepEqual(store.getTurnOutcome('g', 2), { status: 'pending', turn: kept });
  assert.deepEqual(
    store.pendingTurns().map((p) => p.turnId),
    [1, 2],
  );
  store.resolvePendingTurn({ sessionId: 'g', turnId: 1 }, { kind: 'samples', samples: [makeSample('g', 1, { id: 'taken' })] });
  assert.throws(
    () => store.resolvePendingTurn({ sessionId: 'g', turnId: 1 }, { kind: 'dropped', reason: 'x' }),
    hasCode('turn_not_pending'),
  );
  // A resolution that fails half-way leaves the turn pending, also before it was ever written.
  assert.throws(
    () =>
      store.resolvePendingTurn(
        { sessionId: 'g', turnId: 2 },
        { kind: 'samples', samples: [makeSample('g', 2, { id: 'fresh' }), makeSample('g', 2, { id: 'taken' })] },
      ),
    hasCode('duplicate_sample'),
  );
  assert.deepEqual(store.getTurnOutcome('g', 2), { status: 'pending', turn: kept });
  await new Promise((r) => setImmediate(r));
  assert.equal(pendingInserts(), 1, 'only the turn still pending at the commit was written to pending_turns');
  assert.deepEqual(other.prepare(`SELECT turn_id FROM pending_turns`).all(), [{ turn_id: 2 }]);
  assert.deepEqual(other.prepare(`SELECT turn_id FROM samples`).all(), [{ turn_id: 1 }]);
  assert.deepEqual(store.pendingTurns(), [kept]);
  store.resolvePendingTurn({ sessionId: 'g', turnId: 2 }, { kind: 'dropped', reason: 'hint_reject' });
  assert.equal(store.countPending(), 0);
});

test('group commit: a turn whose data is bad is refused when it is added, not at the commit (the group still commits)', async (t) => {
  const { store, other } = openWithReader(t);
  store.groupWrites((err) => assert.fail(String(err)));
  store.addPendingTurn(makeTurn('b', 1));
  assert.throws(
    () => store.addPendingTurn({ ...makeTurn('b', 2), promptIds: [1, 2.5] }),
    (e: unknown) => e instanceof OpenClawError && /promptIds\[1\] = 2.5/.test(e.message),
  );
  assert.throws(
    () => store.addPendingTurn({ ...makeTurn('b', 3), rolloutLogprobs: ['x' as unknown as number] }),
    hasCode('invalid_sample_data'),
  );
  assert.throws(() => store.addPendingTurn({ ...makeTurn('b', 4), turnId: 4.5 }), hasCode('invalid_sample_data'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(other.prepare(`SELECT turn_id FROM pending_turns`).all(), [{ turn_id: 1 }]);
});

test('journal bookkeeping: hasTurn and lastTurnId see pending, sampled and dropped turns; the checkpoint survives reopening', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  const store = SampleStore.open(path);
  assert.equal(store.journalCheckpoint(), null, 'a new store has none');
  store.addPendingTurn(makeTurn('s', 1));
  store.addPendingTurn(makeTurn('s', 2));
  store.addPendingTurn(makeTurn('s', 5));
  store.resolvePendingTurn({ sessionId: 's', turnId: 1 }, { kind: 'samples', samples: [makeSample('s', 1)] });
  store.resolvePendingTurn({ sessionId: 's', turnId: 2 }, { kind: 'dropped', reason: 'hint_reject' });
  assert.deepEqual(
    [1, 2, 3, 5].map((n) => store.hasTurn('s', n)),
    [true, true, false, true],
  );
  assert.deepEqual([store.lastTurnId('s'), store.lastTurnId('unknown')], [5, 0]);
  store.setJournalCheckpoint({ segment: 3, offset: 4096 });
  store.setJournalCheckpoint({ segment: 4, offset: 17 });
  store.close();
  const again = SampleStore.open(path);
  t.after(() => again.close());
  assert.deepEqual(again.journalCheckpoint(), { segment: 4, offset: 17 });
});

test('resume rewinds: samples trained by steps after a checkpoint return to ready, earlier ones stay trained', (t) => {
  const store = openTemp(t);
  for (let i = 0; i < 6; i++) store.addSample(makeSample('s', i, { policyVersion: i }));
  store.markTrained(store.leaseBatch(2).leaseId, 1);
  store.markTrained(store.leaseBatch(2).leaseId, 2);
  store.markTrained(store.leaseBatch(2).leaseId, 3);
  assert.equal(store.requeueTrainedAfter(1), 4);
  assert.deepEqual(store.counts(), { pending: 0, ready: 4, leased: 0, trained: 2, droppedSamples: 0, droppedTurns: 0 });
  assert.deepEqual(
    store.leaseBatch(10).samples.map((s) => s.id),
    ['s:2', 's:3', 's:4', 's:5'],
  );
  assert.equal(store.maxPolicyVersion(), 5);
});

test('a version-1 store is migrated in place: old trained rows stay trained, new ones record their step', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  const store = SampleStore.open(path);
  store.addSample(makeSample('s', 0));
  store.addSample(makeSample('s', 1));
  store.markTrained(store.leaseBatch(1).leaseId);
  store.close();
  // Make it look like a file written by schema 1 (no trained_step column).
  const raw = new Database(path);
  raw.exec(`ALTER TABLE samples DROP COLUMN trained_step`);
  raw.exec(`ALTER TABLE samples DROP COLUMN teacher_prompt_ids`);
  raw.exec(`DROP TABLE version_evaluations`);
  raw.prepare(`UPDATE meta SET value = '1' WHERE key = 'schema_version'`).run();
  raw.close();
  const again = SampleStore.open(path);
  t.after(() => again.close());
  assert.equal(again.requeueTrainedAfter(0), 0, 'a row trained before the migration has no step and stays trained');
  again.markTrained(again.leaseBatch(1).leaseId, 4);
  assert.equal(again.requeueTrainedAfter(3), 1);
  const check = new Database(path, { readonly: true });
  assert.deepEqual(check.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get(), { value: '3' });
  check.close();
});

test('a version-2 store is migrated in place: its samples read back, new held-out samples keep their hinted prompt, versions get evaluations', (t) => {
  const path = join(tempDir(t), 'samples.sqlite');
  const hinted = (turn: number, prompt: number[] | null) =>
    makeSample('s', turn, { type: 'opd', hint: 'use bullet points', teacherLogprobs: [-1, -2, -3], teacherPromptIds: prompt });
  const store = SampleStore.open(path);
  store.addSample(hinted(0, null));
  store.close();
  // Make it look like a file written by schema 2 (no teacher_prompt_ids, no version_evaluations).
  const raw = new Database(path);
  raw.exec(`ALTER TABLE samples DROP COLUMN teacher_prompt_ids`);
  raw.exec(`DROP TABLE version_evaluations`);
  raw.prepare(`UPDATE meta SET value = '2' WHERE key = 'schema_version'`).run();
  raw.close();
  // A read-only open (report) of the schema-2 file reads it as it is: no evaluations, nothing migrated.
  const reader = SampleStore.open(path, { readOnly: true });
  assert.deepEqual(reader.versionEvaluations(), []);
  assert.equal(reader.listSamples({}).length, 1);
  reader.close();
  const again = SampleStore.open(path);
  t.after(() => again.close());
  assert.equal(again.listSamples({})[0].teacherPromptIds ?? null, null, 'a sample stored before keeps no prompt');
  again.addSample(hinted(1, [5, 6, 7]));
  again.reserveHoldout(() => true);
  assert.deepEqual(
    again.replaySamples(10).map((s) => [s.id, s.teacherPromptIds]),
    [['s:1', [5, 6, 7]]],
    'only held-out samples with their hinted prompt can be replayed',
  );
  again.recordVersionEvaluation({ policyVersion: 2, metric: 'replay_opd_advantage', value: -0.5, samples: 4, at: 7 });
  again.recordVersionEvaluation({ policyVersion: 2, metric: 'replay_opd_advantage', value: -0.25, samples: 5, at: 8 });
  assert.deepEqual(again.versionEvaluations(), [{ policyVersion: 2, metric: 'replay_opd_advantage', value: -0.25, samples: 5, at: 8 }]);
  const check = new Database(path, { readonly: true });
  assert.deepEqual(check.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get(), { value: '3' });
  check.close();
});

test('readOnly: reads a store another connection is writing, changes nothing, refuses writes and missing files', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'samples.sqlite');
  assert.throws(() => SampleStore.open(path, { readOnly: true }), hasCode('store_open_failed'));
  assert.equal(existsSync(path), false, 'a read-only open creates no file');
  const writer = SampleStore.open(path);
  t.after(() => writer.close());
  writer.addSample(makeSample('s', 1));
  writer.addSample(makeSample('s', 2));
  const lease = writer.leaseBatch(1);
  const reader = SampleStore.open(path, { readOnly: true });
  t.after(() => reader.close());
  assert.equal(reader.recovery.leasesReturned, 0, 'a reader never returns the running trainer its leases');
  assert.equal(reader.counts().leased, 1);
  writer.addSample(makeSample('s', 3));
  assert.equal(reader.countSamples(), 3, 'sees what the writer commits');
  assert.throws(() => reader.addSample(makeSample('s', 4)), /readonly/i);
  assert.equal(writer.markTrained(lease.leaseId), 1);
});

test('readOnly: a file that is not a store, or of a newer schema, is refused with the path', (t) => {
  const dir = tempDir(t);
  const other = join(dir, 'other.sqlite');
  const db = new Database(other);
  db.exec('CREATE TABLE x (y)');
  db.close();
  assert.throws(
    () => SampleStore.open(other, { readOnly: true }),
    (e: unknown) => hasCode('store_not_a_store')(e) && String(e).includes(other),
  );
  const newer = join(dir, 'newer.sqlite');
  SampleStore.open(newer).close();
  const w = new Database(newer);
  w.prepare(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`).run();
  w.close();
  assert.throws(() => SampleStore.open(newer, { readOnly: true }), hasCode('store_schema_too_new'));
});

test('tallyByVersion groups samples by version and evaluated fields, and drops by the version in their info', (t) => {
  const store = openTemp(t);
  store.addSample(makeSample('a', 1, { policyVersion: 1, reward: -1, votes: [-1, 'fail'] }));
  store.addSample(makeSample('a', 2, { policyVersion: 1, reward: -1, votes: [-1] }));
  store.addSample(makeSample('a', 3, { policyVersion: 1, reward: 0, votes: ['fail', 'fail'], lossMask: 0 }));
  store.addSample(makeSample('a', 4, { policyVersion: 2, type: 'opd', reward: 0, votes: [1], hint: 'shorter' }));
  store.addSample(makeSample('a', 5, { policyVersion: 2, reward: 0, votes: [], hint: '' }));
  for (const [id, info] of [
    [6, { policy_version: 2 }],
    [7, null],
    [8, { policy_version: 'two' }],
  ] as const) {
    store.addPendingTurn(makeTurn('b', id));
    store.resolvePendingTurn({ sessionId: 'b', turnId: id }, { kind: 'dropped', reason: 'no_signal', info });
  }
  const tally = store.tallyByVersion();
  const strip = tally.samples.map(({ firstAt: _f, lastAt: _l, ...rest }) => rest);
  assert.deepEqual(strip, [
    { policyVersion: 1, type: 'rl', state: 'ready', dropReason: null, reward: -1, hasHint: false, hasVote: true, n: 2 },
    { policyVersion: 1, type: 'rl', state: 'ready', dropReason: null, reward: 0, hasHint: false, hasVote: false, n: 1 },
    { policyVersion: 2, type: 'opd', state: 'ready', dropReason: null, reward: 0, hasHint: true, hasVote: true, n: 1 },
    { policyVersion: 2, type: 'rl', state: 'ready', dropReason: null, reward: 0, hasHint: false, hasVote: false, n: 1 },
  ]);
  assert.equal(tally.samples[0].firstAt, 1_700_000_000_001);
  assert.equal(tally.samples[0].lastAt, 1_700_000_000_002);
  assert.deepEqual(tally.turnDrops, [
    { policyVersion: null, reason: 'no_signal', n: 2 },
    { policyVersion: 2, reason: 'no_signal', n: 1 },
  ]);
  // The grouped scan reads the covering index, never the rows with their token blobs.
  const db = new Database(store.path, { readonly: true });
  t.after(() => db.close());
  const plan = db
    .prepare(
      `EXPLAIN QUERY PLAN SELECT policy_version, type, state, drop_reason, reward, hint IS NOT NULL, votes, count(*), min(created_at)
         FROM samples GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    )
    .all() as { detail: string }[];
  assert.ok(
    plan.some((p) => p.detail.includes('COVERING INDEX samples_evaluation')),
    JSON.stringify(plan),
  );
});
