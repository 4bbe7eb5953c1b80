// The turn journal is the source of truth (docs/reliability.md): at start-up the server replays it from the
// store's checkpoint, so turns the store missed when the process died are stored and judged, and
// a session waiting for its next state at the crash finds its turn when it goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pino from 'pino';
import { startHarness, postJson, readSse } from '../support/harness.ts';
import { parseConfig } from '../../src/config/index.ts';
import { startServer } from '../../src/app/index.ts';
import { ScriptedUpstream, scriptedRollout } from '../support/scripted-upstream.ts';
import { exited, launch } from '../support/child-server.ts';
import { RecordWriter, readRecords, type Turn } from '../../src/sessions/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { tempDir } from '../support/temp.ts';

function recordedTurn(session: string, n: number, question: string): Turn {
  return {
    sessionId: session,
    turnId: n,
    messages: [{ role: 'user', content: question }],
    prefix: [],
    startedAt: 1000,
    completedAt: 2000,
    finalized: false,
    failed: false,
    response: {
      message: { role: 'assistant', content: 'Sure.' },
      finishReason: 'stop',
      policyVersion: 0,
      promptIds: [1, 2, 3],
      responseIds: [4, 5],
      logprobs: [-0.1, -0.2],
    },
  };
}

test('start-up replay: a finished turn the store never got is stored; a waiting session finds its turn after the restart', async () => {
  const outDir = tempDir('ocrl-journal-');
  // What a process killed right after its client got answer + next state leaves: both lines, no store row.
  const w = new RecordWriter(join(outDir, 'records', 'turns.jsonl'));
  const done = recordedTurn('killed', 1, 'Plan my trip');
  w.turnCompleted(done);
  done.nextState = { role: 'user', content: 'Thanks, great!', messages: 1 };
  w.turnFinalized(done);
  w.turnCompleted(recordedTurn('waiting', 1, 'Book a hotel'));
  w.close();

  const h = await startHarness({ output_dir: outDir, mode: 'openclaw-rl' });
  try {
    await h.server.pipeline.whenIdle();
    const o = h.server.store.getTurnOutcome('killed', 1);
    assert.ok(o !== null && o.status === 'samples', `the replayed turn is a sample (got ${JSON.stringify(o?.status ?? null)})`);
    assert.deepEqual(o.samples[0].promptIds, [1, 2, 3]);

    h.upstream.fallback = { kind: 'text', text: 'Done.' };
    const res = await postJson(`${h.url}/v1/chat/completions`, {
      session_id: 'waiting',
      turn_type: 'main',
      messages: [
        { role: 'user', content: 'Book a hotel' },
        { role: 'assistant', content: 'Sure.' },
        { role: 'user', content: 'near the station' },
      ],
    });
    assert.equal(res.status, 200);
    await h.server.pipeline.whenIdle();
    const waiting = h.server.store.getTurnOutcome('waiting', 1);
    // Stored with its next state (at-least-one may hold it as pending until the session ends).
    assert.ok(waiting !== null, 'the restored turn is stored');
    const stored = waiting.status === 'pending' ? waiting.turn.nextState : 'resolved';
    assert.ok(
      stored === 'resolved' || JSON.stringify(stored) === JSON.stringify([{ role: 'user', content: 'near the station' }]),
      'with the next state that came after the restart',
    );
    const turns = readRecords(join(outDir, 'records', 'turns.jsonl')).turns.filter((t) => t.session_id === 'waiting');
    assert.deepEqual(
      turns.map((t) => [t.turn_id, t.next_state?.content]),
      [
        [1, 'near the station'],
        [2, undefined],
      ],
      'numbering continues at 2',
    );
  } finally {
    await h.close();
  }
  // The checkpoint moved past everything the store now holds: a second start re-queues nothing.
  const store = SampleStore.open(join(outDir, 'samples.sqlite'));
  try {
    const cp = store.journalCheckpoint();
    assert.ok(cp !== null && cp.segment === 1 && cp.offset > 0);
    assert.equal(store.countSamples(), 3, 'killed:1, waiting:1 and waiting:2 (ended at shutdown), each once');
  } finally {
    store.close();
  }
  const again = await startHarness({ output_dir: outDir, mode: 'openclaw-rl' });
  try {
    await again.server.pipeline.whenIdle();
    assert.equal(again.server.store.countSamples(), 3, 'nothing judged twice after a clean restart');
  } finally {
    await again.close();
  }
});

for (const stream of [false, true]) {
  test(`acknowledged = on disk: a ${stream ? 'streamed' : 'plain'} answer does not reach the client before its turn line is written`, async () => {
    const policy = await new ScriptedUpstream().start();
    policy.fallback = { kind: 'text', text: 'Here is the whole answer.' };
    const outDir = tempDir('ocrl-ack-');
    // The server SIGKILLs itself the moment the turn line is written: whatever the client holds then came before it.
    const { child, url } = await launch({
      tree: {
        rollout: scriptedRollout(policy.url),
      },
      overrides: { output_dir: outDir, 'server.port': 0 },
      killOnTurnCompleted: true,
    });
    let received = '';
    try {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'ack', turn_type: 'main', stream, messages: [{ role: 'user', content: 'hi' }] }),
      });
      received = await res.text();
    } catch {
      // the connection died with the server: the client has no answer
    } finally {
      await exited(child);
      await policy.stop();
    }
    const complete = stream ? received.includes('[DONE]') : received.includes('whole answer');
    assert.equal(
      complete,
      false,
      `the client got no complete answer from a server that died at the turn line (got ${JSON.stringify(received.slice(0, 120))})`,
    );
    assert.deepEqual(
      readRecords(join(outDir, 'records', 'turns.jsonl')).turns.map((t) => [t.session_id, t.turn_id]),
      [['ack', 1]],
      'the line itself is there',
    );
  });
}

test('a turn line that cannot be written (a full disk) is never acknowledged: plain gets an error, a stream ends with an error event', async () => {
  const upstream = await new ScriptedUpstream().start();
  upstream.fallback = { kind: 'text', text: 'An answer that cannot be recorded.' };
  const outDir = tempDir('ocrl-full-');
  const config = parseConfig(
    { rollout: { provider: 'openai_compatible', base_url: upstream.url, model_id: 'p', timeout_s: 5, max_retries: 0 } },
    { env: {}, overrides: { output_dir: outDir, 'server.port': 0 } },
  );
  // The hook runs inside the journal listener, right after the line is written: its error is the writer's.
  const server = await startServer(config, {
    log: pino({ level: 'silent' }),
    hooks: {
      onTurnCompleted: () => {
        throw new Error('ENOSPC: no space left on device, write');
      },
    },
  });
  try {
    const plain = await postJson(`${server.url}/v1/chat/completions`, { session_id: 'full', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(plain.status >= 500, `plain: an error status, not the answer (got ${plain.status})`);
    assert.equal(typeof plain.body.error?.message, 'string', 'in the OpenAI error shape');
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: 'full2', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const events = await readSse(res);
    assert.equal(events.at(-1), '[DONE]');
    assert.ok(JSON.parse(events.at(-2)!).error !== undefined, `stream: an error event before [DONE] (got ${events.at(-2)})`);
  } finally {
    await server.close();
    await upstream.stop();
  }
});
