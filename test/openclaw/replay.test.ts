// Replays OpenClaw-shaped request sequences through the real gateway against the scripted
// upstream: requests 1–3 must land in one inferred session and request 4 in another;
// turn 1's next state is the user's second message, turn 2's (a tool call) is the tool result,
// and nothing is ever judged on OpenClaw's internal-context block. Runs with the session hints
// OpenClaw leaves (Runtime trailer, prompt_cache_key) and without any (pure prefix inference),
// on generated sequences and on the committed recording of the real client (test/fixtures/openclaw/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, readSse } from '../support/harness.ts';
import type { Behaviour } from '../support/scripted-upstream.ts';
import { readRecords, contentText } from '../../src/sessions/index.ts';
import type { ChatMessage } from '../../src/engines/types.ts';
import {
  generateOpenClawSequence,
  withoutHints,
  INTERNAL_BEGIN,
  OPENCLAW_RECORDING,
  type RecordedRequest,
} from '../fixtures/openclaw-like.ts';

function replyBehaviour(r: RecordedRequest): Behaviour {
  const call = r.reply.tool_calls?.[0];
  if (call) return { kind: 'tool_call', name: call.function.name, arguments: call.function.arguments, id: call.id };
  return { kind: 'text', text: r.reply.content ?? '' };
}

/** What the next request added after the last assistant message, minus the internal block. */
function expectedNextState(next: RecordedRequest): { role: string; content: string } {
  const msgs = next.body.messages as ChatMessage[];
  let i = msgs.length - 1;
  while (msgs[i].role !== 'assistant') i--;
  const added = msgs.slice(i + 1).filter((m) => !contentText(m.content).includes(INTERNAL_BEGIN));
  assert.equal(added.length, 1, 'each follow-up adds exactly one message besides the internal block');
  return { role: added[0].role, content: contentText(added[0].content) };
}

/** Replays a sequence on a fresh server and checks sessions, turn numbers and next states. */
async function replayAndCheck(requests: RecordedRequest[], expectSession: (i: number) => RegExp | string): Promise<void> {
  assert.equal(requests.length, 4);
  const h = await startHarness();
  let serverClosed = false;
  try {
    h.upstream.script(...requests.map(replyBehaviour));
    const sessionIds: string[] = [];
    for (const r of requests) {
      const res = await fetch(`${h.url}${r.path}`, {
        method: r.method,
        headers: {
          'content-type': 'application/json',
          traceparent: r.headers.traceparent,
          'user-agent': r.headers['user-agent'] ?? 'replay',
        },
        body: JSON.stringify(r.body),
      });
      assert.equal(res.status, 200, `request ${r.seq} answered`);
      const events = await readSse(res);
      assert.equal(events.at(-1), '[DONE]');
      assert.ok(
        events.some((e) => e !== '[DONE]' && JSON.parse(e).usage !== undefined),
        'usage chunk streamed (stream_options.include_usage)',
      );
      sessionIds.push(res.headers.get('x-session-id') ?? '');
    }
    assert.equal(sessionIds[1], sessionIds[0], 'request 2 continues the session of request 1');
    assert.equal(sessionIds[2], sessionIds[0], 'request 3 (tool follow-up) continues it too');
    assert.notEqual(sessionIds[3], sessionIds[0], 'request 4 is another session');
    sessionIds.forEach((id, i) =>
      typeof expectSession(i) === 'string' ? assert.equal(id, expectSession(i)) : assert.match(id, expectSession(i) as RegExp),
    );

    // Everything the client sent reached the upstream (tools, tool_choice, streaming).
    assert.equal(h.upstream.received.length, 4);
    h.upstream.received.forEach((got, i) => {
      assert.equal((got.body.tools as unknown[]).length, (requests[i].body.tools as unknown[]).length);
      assert.equal(got.body.tool_choice, 'auto');
      assert.equal(got.body.stream, true);
    });

    const recordsPath = join(h.outDir, 'records', 'turns.jsonl');
    const live = readRecords(recordsPath).turns;
    const a = live.filter((t) => t.session_id === sessionIds[0]);
    const b = live.filter((t) => t.session_id === sessionIds[3]);
    assert.deepEqual(
      a.map((t) => t.turn_id),
      [1, 2, 3],
    );
    assert.deepEqual(
      b.map((t) => t.turn_id),
      [1],
    );
    assert.deepEqual(a[0].next_state, expectedNextState(requests[1]));
    assert.equal(a[0].next_state!.role, 'user');
    assert.deepEqual(a[1].next_state, expectedNextState(requests[2]));
    assert.equal(a[1].next_state!.role, 'tool');
    assert.equal(a[1].finish_reason, 'tool_calls');
    assert.equal((a[1].tool_calls as Array<{ id: string }>)[0].id, requests[1].reply.tool_calls![0].id, 'recorded with the id we answered');
    assert.equal(a[2].next_state, undefined, 'the last turn waits for its next state');
    assert.equal(a[0].messages.length, requests[0].body.messages.length, 'the prompt is recorded as sent');
    await h.server.close(); // shutdown finalises the pending turns
    serverClosed = true;
    const all = readRecords(recordsPath).turns;
    for (const t of all) {
      assert.ok(
        !(t.next_state?.content ?? '').includes(INTERNAL_BEGIN),
        `turn ${t.turn_id} was not given the internal block as next state`,
      );
    }
    assert.deepEqual(
      all.filter((t) => t.next_state === null).map((t) => [t.session_id, t.turn_id, t.next_state_reason]),
      [
        [sessionIds[0], 3, 'shutdown'],
        [sessionIds[3], 1, 'shutdown'],
      ],
    );
  } finally {
    if (serverClosed) await h.upstream.stop();
    else await h.close();
  }
}

const runtimeId = (r: RecordedRequest): string =>
  /sessionId=([A-Za-z0-9._:-]+)/.exec(String((r.body.messages as ChatMessage[])[1].content))![1];

test('generated OpenClaw sequence: Runtime trailer names the sessions', async () => {
  const seq = generateOpenClawSequence();
  await replayAndCheck(seq, (i) => `openclaw-${runtimeId(seq[i])}`);
});

test('generated sequence with prompt_cache_key only (no trailer)', async () => {
  const seq = generateOpenClawSequence({ runtimeTrailer: false, promptCacheKey: true, seed: 11 });
  await replayAndCheck(seq, (i) => `pck-${String(seq[i].body.prompt_cache_key).replace(/:\d+$/, '')}`);
});

test('generated sequence without any hint: pure prefix inference', async () => {
  await replayAndCheck(withoutHints(generateOpenClawSequence({ seed: 23 })), () => /^s-[0-9a-f-]{36}$/);
});

test('generator output has the shape of the real client requests', () => {
  const seq = generateOpenClawSequence();
  for (const r of seq) {
    assert.equal(r.body.stream, true);
    assert.deepEqual(r.body.stream_options, { include_usage: true });
    assert.equal(r.body.max_completion_tokens, 1024);
    assert.equal(r.body.tool_choice, 'auto');
    const last = r.body.messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.ok(Array.isArray(last.content) && String((last.content[0] as { text: string }).text).startsWith(INTERNAL_BEGIN));
    assert.match(r.headers.traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  }
  assert.deepEqual(
    seq.map((r) => (r.body.tools as unknown[]).length),
    [12, 12, 12, 11],
  );
  assert.ok(String(seq[0].body.messages[0].content).length >= 39_000);
  const trace = (r: RecordedRequest) => r.headers.traceparent.split('-')[1];
  assert.equal(trace(seq[1]), trace(seq[2]), 'one user turn shares a trace id');
  assert.notEqual(trace(seq[0]), trace(seq[1]));
  const replayed = (seq[2].body.messages[4].tool_calls as Array<{ id: string }>)[0].id;
  assert.deepEqual([seq[1].reply.tool_calls![0].id, replayed], ['call_rec_2', 'callrec2']);
});

const realRequests = (): RecordedRequest[] =>
  readFileSync(OPENCLAW_RECORDING, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RecordedRequest);

test('real OpenClaw 2026.9.6 recording (test/fixtures/openclaw), as sent', async () => {
  const seq = realRequests();
  await replayAndCheck(seq, (i) => `openclaw-${runtimeId(seq[i])}`);
});

test('real OpenClaw recording without its Runtime trailer: pure prefix inference', async () => {
  const seq = withoutHints(realRequests());
  assert.ok(!JSON.stringify(seq).includes('sessionId='), 'hints removed');
  await replayAndCheck(seq, () => /^s-/);
});
