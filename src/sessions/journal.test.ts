// Delta lines, segments and replay of the turn journal (docs/reliability.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../engines/types.ts';
import { RecordWriter, readRecords } from './records.ts';
import { replayJournal } from './replay.ts';
import type { Turn } from './tracker.ts';
import { tempDir } from '../../test/support/temp.ts';

const tmpJournal = () => join(tempDir('ocrl-journal-'), 'records', 'turns.jsonl');
const SYSTEM: ChatMessage = { role: 'system', content: 'S'.repeat(20_000) };
const TOOLS = [
  {
    type: 'function',
    function: { name: 'read', parameters: { type: 'object', properties: { p: { type: 'string', description: 'D'.repeat(5000) } } } },
  },
];

/** Turn n of a session whose client replays the whole history each time (like OpenClaw). */
function turnOf(session: string, n: number, history: ChatMessage[], opts: { ids?: boolean; rewriteIds?: boolean } = {}): Turn {
  const messages = [...history, { role: 'user', content: `question ${n}` } as ChatMessage];
  const answer: ChatMessage = { role: 'assistant', content: `answer ${n}` };
  return {
    sessionId: session,
    turnId: n,
    messages,
    prefix: [],
    tools: TOOLS,
    startedAt: 1000 * n,
    completedAt: 1000 * n + 500,
    finalized: false,
    failed: false,
    response: {
      message: answer,
      finishReason: 'stop',
      policyVersion: 0,
      ...(opts.ids
        ? {
            promptIds: Array.from({ length: 100 * n }, (_, i) => i),
            responseIds: Array.from({ length: 100 }, (_, i) => 100 * n + i),
            logprobs: Array(100).fill(-0.5),
            promptText: 'T'.repeat(1000 * n),
          }
        : {}),
    },
  };
}

function writeSession(w: RecordWriter, session: string, turns: number, opts: { ids?: boolean } = {}): Turn[] {
  const out: Turn[] = [];
  let history: ChatMessage[] = [SYSTEM];
  for (let n = 1; n <= turns; n++) {
    const t = turnOf(session, n, history, opts);
    w.turnCompleted(t);
    t.nextState = { role: 'user', content: `question ${n + 1}`, messages: 1 };
    w.turnFinalized(t);
    history = [...t.messages, t.response!.message];
    out.push(t);
  }
  return out;
}

test('delta lines: each turn line holds only what is new, and readRecords rebuilds every prompt exactly', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path);
  const written = writeSession(w, 's', 20, { ids: true });
  w.close();
  const lines = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{"type":"turn"'));
  const sizes = lines.map((l) => Buffer.byteLength(l));
  assert.ok(sizes[0] > 25_000, `the first line is full (${sizes[0]} bytes)`);
  assert.ok(
    Math.max(...sizes.slice(1)) < 3_000,
    `later lines hold only the new messages, ids and text (${Math.max(...sizes.slice(1))} bytes)`,
  );
  assert.deepEqual(JSON.parse(lines[5]).base, { turn_id: 5, keep: 11, tools: true, ids_keep: 600, text_keep: 5000 });
  const { turns, skipped } = readRecords(path);
  assert.equal(skipped, 0);
  assert.equal(turns.length, 20);
  for (const [i, t] of turns.entries()) {
    const src = written[i];
    assert.deepEqual(t.messages, src.messages, `turn ${t.turn_id}: messages rebuilt`);
    assert.deepEqual(t.tools, TOOLS);
    assert.deepEqual(t.prompt_ids, src.response!.promptIds);
    assert.equal(t.prompt_text, src.response!.promptText);
    assert.equal(t.base, undefined);
    assert.deepEqual(t.next_state, { role: 'user', content: `question ${i + 2}` });
  }
});

test('a rewritten message (a client changing a tool-call id) ends the kept part there; the rest is stored', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path);
  const t1 = turnOf('s', 1, [SYSTEM]);
  w.turnCompleted(t1);
  const rewritten = { ...t1.response!.message, content: 'answer 1 (edited by the client)' };
  const t2 = turnOf('s', 2, [...t1.messages, rewritten]);
  w.turnCompleted(t2);
  w.close();
  const lines = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines[1].base.keep, 2, 'system + question 1 kept; the edited answer differs from ours');
  assert.deepEqual(readRecords(path).turns[1].messages, t2.messages);
});

test('segments: the journal rotates past the size limit, each segment starts with full lines, reading spans them', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path, { segmentBytes: 27_000 });
  const a = writeSession(w, 'a', 6);
  const b = writeSession(w, 'b', 6);
  const c = writeSession(w, 'c', 6);
  w.close();
  const files = readdirSync(join(path, '..')).sort();
  assert.ok(files.length >= 3, `rotated into several segments: ${files.join(', ')}`);
  assert.deepEqual(files.slice(0, 2), ['turns.000001.jsonl', 'turns.000002.jsonl']);
  for (const f of files) {
    const p = join(path, '..', f);
    assert.ok(statSync(p).size <= 27_000 || readFileSync(p, 'utf8').trim().split('\n').length === 1, `${f} within the limit`);
    const first = JSON.parse(readFileSync(p, 'utf8').split('\n')[0]);
    if (first.type === 'turn') assert.equal(first.base, undefined, `${f} starts with a full turn line`);
  }
  const { turns, skipped } = readRecords(path);
  assert.equal(skipped, 0);
  assert.deepEqual(
    turns.map((t) => t.messages),
    [...a, ...b, ...c].map((t) => t.messages),
  );
});

test('an old single-file journal (full lines, no base) reads as before', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path);
  w.append({
    type: 'turn',
    session_id: 's',
    turn_id: 1,
    messages: [{ role: 'user', content: 'hi' }],
    response: { role: 'assistant', content: 'yo' },
    response_text: 'yo',
    finish_reason: 'stop',
    policy_version: 0,
    started_at: new Date(0).toISOString(),
    completed_at: new Date(0).toISOString(),
  });
  w.append({
    type: 'turn',
    session_id: 's',
    turn_id: 2,
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'yo' },
      { role: 'user', content: 'again' },
    ],
    response: { role: 'assistant', content: 'ok' },
    response_text: 'ok',
    finish_reason: 'stop',
    policy_version: 0,
    started_at: new Date(0).toISOString(),
    completed_at: new Date(0).toISOString(),
  });
  w.close();
  assert.deepEqual(
    readRecords(path).turns.map((t) => t.messages.length),
    [1, 3],
  );
  assert.ok(!existsSync(join(path, '..', 'turns.000001.jsonl')));
});

test('replay from a checkpoint: finished turns the store lacks are re-queued, waiting turns are restored, stored ones are skipped', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path);
  const early = writeSession(w, 'early', 2);
  const checkpoint = w.position;
  const done = writeSession(w, 'done', 3); // finished; the store has 1 and 2, not 3 (the kill came first)
  const open = turnOf('open', 1, [SYSTEM]);
  w.turnCompleted(open); // its next state never came before the crash
  w.close();
  const held = new Set(['early:1', 'early:2', 'done:1', 'done:2']);
  const store = { hasTurn: (s: string, n: number) => held.has(`${s}:${n}`) };
  const found: Turn[] = [];
  const r = replayJournal(path, checkpoint, store, (t) => found.push(t));
  assert.equal(r.requeued, 1);
  assert.deepEqual(
    found.map((t) => `${t.sessionId}:${t.turnId}`),
    ['done:3'],
  );
  assert.deepEqual(found[0].nextState, { role: 'user', content: 'question 4', messages: 1 });
  assert.deepEqual(found[0].messages, done[2].messages, 'its prompt is rebuilt from the delta line');
  assert.equal(found[0].finalized, true);
  assert.deepEqual(
    r.open.map((x) => [x.turn.sessionId, x.turn.turnId, x.turn.finalized, x.turn.prefix.length]),
    [['open', 1, false, 2]],
  );
  assert.deepEqual(
    [...r.lastTurnIds],
    [
      ['done', 3],
      ['open', 1],
    ],
    'nothing before the checkpoint was read as a turn',
  );
  assert.equal(r.stats.turns, 4);
  assert.ok(early.length === 2);
  // Without a checkpoint everything is replayed; the store's turns are still skipped.
  const again: Turn[] = [];
  const all = replayJournal(path, undefined, store, (t) => again.push(t));
  assert.deepEqual(
    again.map((t) => `${t.sessionId}:${t.turnId}`),
    ['done:3'],
  );
  assert.equal(all.stats.turns, 6);
});

test('replay: a waiting turn followed by a later turn of its session (an old journal) is finished with reason restart', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path);
  const t1 = turnOf('s', 1, [SYSTEM]);
  w.turnCompleted(t1);
  w.turnCompleted(turnOf('s', 2, [...t1.messages, t1.response!.message]));
  w.close();
  const found: Turn[] = [];
  const r = replayJournal(path, undefined, { hasTurn: () => false }, (t) => found.push(t));
  assert.deepEqual(
    found.map((t) => [t.turnId, t.nextState, t.noNextStateReason]),
    [[1, null, 'restart']],
  );
  assert.deepEqual(
    r.open.map((x) => x.turn.turnId),
    [2],
  );
});

test('replay: a delta line after the checkpoint is rebuilt from its base before it; other sessions before it are not parsed', () => {
  const path = tmpJournal();
  const w = new RecordWriter(path);
  writeSession(w, 'other', 3);
  const t1 = turnOf('span', 1, [SYSTEM]);
  w.turnCompleted(t1);
  t1.nextState = { role: 'user', content: 'question 2', messages: 1 };
  w.turnFinalized(t1);
  const checkpoint = w.position;
  const t2 = turnOf('span', 2, [...t1.messages, t1.response!.message]);
  w.turnCompleted(t2);
  t2.nextState = { role: 'user', content: 'question 3', messages: 1 };
  w.turnFinalized(t2);
  w.close();
  const found: Turn[] = [];
  const r = replayJournal(path, checkpoint, { hasTurn: (s, n) => s !== 'span' || n !== 2 }, (t) => found.push(t));
  assert.deepEqual(
    found.map((t) => [t.sessionId, t.turnId, t.messages.length]),
    [['span', 2, 4]],
  );
  assert.deepEqual(found[0].messages, t2.messages);
  assert.ok(r.stats.bytes > 0);
});
