import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RecordWriter, readRecords, lastTurnIds, type RecordLine } from './records.ts';
import { tempDir } from '../../test/support/temp.ts';

const tmpFile = () => join(tempDir('ocrl-records-'), 'records', 'turns.jsonl');

function turnLine(session: string, turnId: number, text: string): RecordLine {
  return {
    type: 'turn',
    session_id: session,
    turn_id: turnId,
    messages: [{ role: 'user', content: `q${turnId}` }],
    response: { role: 'assistant', content: text },
    response_text: text,
    finish_reason: 'stop',
    policy_version: 0,
    started_at: '2026-01-01T00:00:00.000Z',
    completed_at: '2026-01-01T00:00:01.000Z',
  };
}
const nsLine = (session: string, turnId: number, content: string | null): RecordLine => ({
  type: 'next_state',
  session_id: session,
  turn_id: turnId,
  next_state: content === null ? null : { role: 'user', content },
  reason: content === null ? 'expired' : undefined,
  at: '2026-01-01T00:00:02.000Z',
});

test('restart: close and reopen the writer, append more, the reader sees every record', () => {
  const path = tmpFile();
  const w1 = new RecordWriter(path);
  w1.append(turnLine('s', 1, 'one'));
  w1.append(nsLine('s', 1, 'thanks'));
  w1.append(turnLine('s', 2, 'two'));
  w1.close();
  const w2 = new RecordWriter(path);
  w2.append(nsLine('s', 2, null));
  w2.append(turnLine('t', 1, 'other'));
  w2.close();
  const { turns, skipped } = readRecords(path);
  assert.equal(skipped, 0);
  assert.deepEqual(
    turns.map((t) => [t.session_id, t.turn_id, t.response_text, t.next_state, t.next_state_reason]),
    [
      ['s', 1, 'one', { role: 'user', content: 'thanks' }, undefined],
      ['s', 2, 'two', null, 'expired'],
      ['t', 1, 'other', undefined, undefined],
    ],
  );
  assert.equal(readFileSync(path, 'utf8').split('\n').length, 6, 'five lines and a final newline');
});

test('a torn last line (crash mid-write) is terminated on reopen and skipped; nothing else is lost', () => {
  const path = tmpFile();
  const w1 = new RecordWriter(path);
  w1.append(turnLine('s', 1, 'one'));
  w1.append(turnLine('s', 2, 'two'));
  w1.close();
  appendFileSync(path, JSON.stringify(turnLine('s', 3, 'three')).slice(0, 40)); // the crash
  const w2 = new RecordWriter(path);
  w2.append(turnLine('s', 4, 'four'));
  w2.close();
  const { turns, skipped } = readRecords(path);
  assert.equal(skipped, 1);
  assert.deepEqual(
    turns.map((t) => t.turn_id),
    [1, 2, 4],
  );
  const lines = readFileSync(path, 'utf8').split('\n');
  assert.equal(JSON.parse(lines[3]).turn_id, 4, 'the new record starts on its own line');
});

test('numbering restarted after a restart: both turns are kept, next states go to the latest', () => {
  const path = tmpFile();
  const w = new RecordWriter(path);
  w.append(turnLine('s', 1, 'before restart'));
  w.append(nsLine('s', 1, 'reply before'));
  w.append(turnLine('s', 1, 'after restart'));
  w.append(nsLine('s', 1, 'reply after'));
  w.close();
  const { turns } = readRecords(path);
  assert.deepEqual(
    turns.map((t) => [t.response_text, t.next_state?.content]),
    [
      ['before restart', 'reply before'],
      ['after restart', 'reply after'],
    ],
  );
  assert.deepEqual(
    [...lastTurnIds([...turns, { session_id: 's', turn_id: 5 }, { session_id: 'u', turn_id: 2 }])],
    [
      ['s', 5],
      ['u', 2],
    ],
  );
});

test('a process SIGKILLed while appending loses no acknowledged record', async () => {
  const path = tmpFile();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('../../test/sessions/append-child.ts', import.meta.url)), path],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let acked = 0;
  let buf = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve());
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) if (l.startsWith('ack ')) acked = Number(l.slice(4));
      if (acked >= 300 && !child.killed) child.kill('SIGKILL');
    });
  });
  assert.equal(child.signalCode, 'SIGKILL');
  assert.ok(acked >= 300);
  const { turns, skipped } = readRecords(path);
  assert.ok(skipped <= 1, `at most the torn last line is unreadable (skipped ${skipped})`);
  const ids = turns.map((t) => t.turn_id);
  assert.deepEqual(
    ids,
    Array.from({ length: ids.length }, (_, i) => i + 1),
    'records are contiguous from 1',
  );
  assert.ok(ids.length >= acked, `every acknowledged record is readable (${ids.length} read, ${acked} acked)`);
  // Reopening after the crash appends cleanly.
  const w = new RecordWriter(path);
  w.append(turnLine('after', 1, 'recovered'));
  w.close();
  const again = readRecords(path);
  assert.equal(again.turns.at(-1)!.session_id, 'after');
  assert.equal(again.turns.length, ids.length + 1);
});
