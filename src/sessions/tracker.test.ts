import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../engines/types.ts';
import { SessionTracker, type TrackerOptions, type Turn, type TurnRequest, type TurnHandle } from './tracker.ts';
import { prefixHashes } from './canonical.ts';
import { sessionHints } from './hints.ts';
import { compileIgnorePatterns } from './next-state.ts';

const CTX = '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nActive exec sessions: none\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>';
const sys = (content = 'You are a helpful agent.'): ChatMessage => ({ role: 'system', content });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const ctx = (): ChatMessage => ({ role: 'user', content: [{ type: 'text', text: CTX }] });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const toolCall = (id: string, name: string, args: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});
const toolResult = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });

/** A tracker with a fake clock and recording listeners. */
function setup(opts: Partial<TrackerOptions> = {}) {
  const clock = { t: 1_000_000 };
  const completed: Turn[] = [];
  const finalized: Turn[] = [];
  const closed: Array<[string, string]> = [];
  const tracker = new SessionTracker(
    {
      defaultTurnType: 'main',
      fallback: 'infer',
      idleTimeoutMs: 60_000,
      maxSessions: 1000,
      ignorePatterns: compileIgnorePatterns(['<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>']),
      now: () => clock.t,
      ...opts,
    },
    {
      onTurnCompleted: (t) => completed.push(t),
      onTurnFinalized: (t) => finalized.push(t),
      onSessionClosed: (id, r) => closed.push([id, r]),
    },
  );
  return { tracker, clock, completed, finalized, closed };
}

function req(
  messages: ChatMessage[],
  extra: Partial<TurnRequest> & { body?: Record<string, unknown>; traceparent?: string } = {},
): TurnRequest {
  const { body, traceparent, ...rest } = extra;
  return { sessionDone: false, messages, prefix: prefixHashes(messages), hints: sessionHints(messages, body ?? {}, traceparent), ...rest };
}

function answer(tracker: SessionTracker, h: TurnHandle, message: ChatMessage): Turn {
  const turn = tracker.complete(h, { message, finishReason: message.tool_calls ? 'tool_calls' : 'stop', policyVersion: 0 });
  assert.ok(turn, 'main turn completes');
  return turn;
}

/** Runs one request to completion and returns its handle and turn. */
function turn(tracker: SessionTracker, r: TurnRequest, reply: ChatMessage): { h: TurnHandle; t: Turn } {
  const h = tracker.begin(r);
  return { h, t: answer(tracker, h, reply) };
}

test('explicit ids: turns numbered from 1 per session, sessions interleave independently', () => {
  const { tracker } = setup();
  const a1 = turn(tracker, req([user('a1')], { explicitSessionId: 'A' }), assistant('A says 1'));
  const b1 = turn(tracker, req([user('b1')], { explicitSessionId: 'B' }), assistant('B says 1'));
  const a2 = turn(tracker, req([user('a1'), assistant('A says 1'), user('a2')], { explicitSessionId: 'A' }), assistant('A says 2'));
  assert.deepEqual([a1.t.turnId, b1.t.turnId, a2.t.turnId], [1, 1, 2]);
  assert.deepEqual([a1.h.sessionId, b1.h.sessionId, a2.h.sessionId], ['A', 'B', 'A']);
  assert.equal(a2.h.source, 'explicit');
  assert.equal(tracker.counters.requests_without_session_id, 0);
});

test("next state of a turn is the user's reply, delivered when the next request arrives", () => {
  const { tracker, finalized } = setup();
  const first = turn(tracker, req([sys(), user('What is 2+2?')], { explicitSessionId: 'S' }), assistant('4'));
  assert.equal(first.t.nextState, undefined, 'pending until the next request');
  assert.equal(finalized.length, 0);
  tracker.begin(req([sys(), user('What is 2+2?'), assistant('4'), user('Thanks, and 3+3?')], { explicitSessionId: 'S' }));
  assert.deepEqual(
    finalized.map((t) => [t.turnId, t.nextState]),
    [[1, { role: 'user', content: 'Thanks, and 3+3?', messages: 1 }]],
  );
});

test('a tool-call turn gets its tool results as next state: several results become one `tool` state', () => {
  const { tracker, finalized } = setup();
  const call: ChatMessage = {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
      { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } },
    ],
  };
  turn(tracker, req([user('read a and b')], { explicitSessionId: 'T' }), call);
  // The client replays the call with rewritten ids, then both results and its internal block.
  const replayed: ChatMessage = { ...call, tool_calls: call.tool_calls!.map((tc, i) => ({ ...tc, id: `callrec${i}` })) };
  tracker.begin(
    req([user('read a and b'), replayed, toolResult('callrec0', 'AAA'), toolResult('callrec1', 'BBB'), ctx()], { explicitSessionId: 'T' }),
  );
  assert.deepEqual(finalized[0].nextState, { role: 'tool', content: 'AAA\n\nBBB', messages: 2 });
});

test('side turns are forwarded but not recorded and leave session state alone', () => {
  const { tracker, completed, finalized } = setup({ maxSessions: 10 });
  turn(tracker, req([user('hello')], { explicitSessionId: 'S' }), assistant('hi'));
  const side = tracker.begin(
    req([sys('Summarise the conversation.'), user('hello'), assistant('hi')], { explicitSessionId: 'S', turnType: 'side' }),
  );
  assert.equal(side.turnType, 'side');
  assert.equal(side.turn, undefined);
  assert.equal(tracker.complete(side, { message: assistant('summary'), finishReason: 'stop', policyVersion: 0 }), undefined);
  const ruled = tracker.begin(req([sys('Summarise the conversation.'), user('x')], { sideByRule: true }));
  assert.equal(ruled.turnType, 'side', 'the side-call rule applies without an explicit turn type');
  assert.equal(completed.length, 1, 'only the main turn was recorded');
  assert.equal(finalized.length, 0, "a side call is not the main turn's next state");
  const next = turn(tracker, req([user('hello'), assistant('hi'), user('again')], { explicitSessionId: 'S' }), assistant('hi again'));
  assert.equal(next.t.turnId, 2, 'side turns take no turn number');
  assert.deepEqual(finalized[0].nextState, { role: 'user', content: 'again', messages: 1 });
  assert.deepEqual(tracker.sessionIds(), ['S']);
  assert.equal(tracker.counters.side_turns, 2);
});

test('an explicit non-main turn type is a side turn even when the default is main', () => {
  const { tracker } = setup();
  assert.equal(tracker.begin(req([user('q')], { explicitSessionId: 'S', turnType: 'summary' })).turnType, 'side');
  assert.equal(
    tracker.begin(req([user('q')], { explicitSessionId: 'S', turnType: 'main', sideByRule: true })).turnType,
    'main',
    'explicit main beats the rule',
  );
  const defSide = setup({ defaultTurnType: 'side' });
  assert.equal(defSide.tracker.begin(req([user('q')])).turnType, 'side');
});

test('session_done closes the session and finalises its last turn with no next state', () => {
  const { tracker, finalized, closed } = setup();
  turn(tracker, req([user('one')], { explicitSessionId: 'D' }), assistant('1'));
  const last = turn(
    tracker,
    req([user('one'), assistant('1'), user('two')], { explicitSessionId: 'D', sessionDone: true }),
    assistant('2'),
  );
  assert.equal(last.t.turnId, 2);
  assert.deepEqual(
    finalized.map((t) => [t.turnId, t.nextState, t.noNextStateReason]),
    [
      [1, { role: 'user', content: 'two', messages: 1 }, undefined],
      [2, null, 'session_done'],
    ],
  );
  assert.deepEqual(closed, [['D', 'session_done']]);
  assert.equal(tracker.size, 0);
  assert.deepEqual(tracker.memory(), { sessions: 0, prefixKeys: 0, traceKeys: 0, closedIds: 1 });
});

test('a reused id after close continues numbering instead of repeating turn ids', () => {
  const { tracker } = setup();
  turn(tracker, req([user('one')], { explicitSessionId: 'R', sessionDone: true }), assistant('1'));
  const again = turn(tracker, req([user('back again')], { explicitSessionId: 'R' }), assistant('hello'));
  assert.equal(again.t.turnId, 2);
});

test('resumeNumbering continues turn ids recorded before a restart', () => {
  const { tracker } = setup();
  tracker.resumeNumbering(new Map([['R', 7]]));
  assert.equal(turn(tracker, req([user('after restart')], { explicitSessionId: 'R' }), assistant('ok')).t.turnId, 8);
});

test('idle sessions expire: pending turns finalised, index entries freed, active sessions kept', () => {
  const { tracker, clock, finalized } = setup({ idleTimeoutMs: 60_000 });
  turn(tracker, req([user('old')], { traceparent: '00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbb-01' }), assistant('old answer'));
  clock.t += 30_000;
  const fresh = turn(tracker, req([user('fresh')]), assistant('fresh answer'));
  clock.t += 40_000; // old: idle 70 s; fresh: idle 40 s
  assert.equal(tracker.expireIdle(), 1);
  assert.deepEqual(tracker.sessionIds(), [fresh.h.sessionId]);
  assert.deepEqual(
    finalized.map((t) => [t.messages[0].content, t.nextState, t.noNextStateReason]),
    [['old', null, 'expired']],
  );
  assert.equal(tracker.counters.sessions_expired, 1);
  assert.equal(tracker.memory().prefixKeys, 2, 'only the live session keeps its two history keys');
  // The expired session's history no longer matches: its continuation starts a new session.
  const cont = tracker.begin(req([user('old'), assistant('old answer'), user('more')]));
  assert.equal(cont.source, 'new');
});

test('LRU cap: thousands of sessions keep memory bounded and evicted turns are finalised', () => {
  const { tracker, finalized, completed } = setup({ maxSessions: 100 });
  const longSystem = sys('x'.repeat(2000));
  for (let i = 0; i < 3000; i++) {
    const r = req([longSystem, user(`question ${i}`), ctx()], {
      traceparent: `00-${i.toString(16).padStart(32, '0')}-bbbbbbbbbbbbbbbb-01`,
    });
    const h = tracker.begin(r);
    tracker.noteTrace(h.sessionId, r.hints.traceId);
    answer(tracker, h, assistant(`answer ${i}`));
  }
  assert.equal(completed.length, 3000);
  assert.equal(tracker.size, 100);
  assert.equal(tracker.counters.sessions_evicted, 2900);
  const mem = tracker.memory();
  assert.ok(mem.prefixKeys <= 200, `prefix keys ${mem.prefixKeys} ≤ 2 per live session`);
  assert.ok(mem.traceKeys <= 100 * 4, `trace keys ${mem.traceKeys}`);
  assert.ok(mem.closedIds <= 100);
  assert.equal(finalized.length, 2900);
  assert.ok(finalized.every((t) => t.nextState === null && t.noNextStateReason === 'evicted'));
  // The newest sessions still match their continuation; the oldest were forgotten.
  assert.equal(tracker.begin(req([longSystem, user('question 2999'), assistant('answer 2999'), user('next')])).source, 'prefix');
  assert.equal(tracker.begin(req([longSystem, user('question 0'), assistant('answer 0'), user('next')])).source, 'new');
});

test('a failed turn gets no number and no next state; the retry takes number 1', () => {
  const { tracker, completed, finalized } = setup();
  const h = tracker.begin(req([user('hi')], { explicitSessionId: 'F' }));
  tracker.fail(h);
  assert.equal(
    tracker.complete(h, { message: assistant('late'), finishReason: 'stop', policyVersion: 0 }),
    undefined,
    'a failed turn cannot complete later',
  );
  const retry = turn(tracker, req([user('hi')], { explicitSessionId: 'F' }), assistant('hello'));
  assert.equal(retry.t.turnId, 1);
  assert.equal(h.turn!.turnId, undefined);
  assert.equal(completed.length, 1);
  assert.equal(finalized.length, 0);
});

test('a failed request still delivers the previous turn its next state (the user did reply)', () => {
  const { tracker, finalized } = setup();
  turn(tracker, req([user('q1')], { explicitSessionId: 'F' }), assistant('a1'));
  tracker.fail(tracker.begin(req([user('q1'), assistant('a1'), user('q2')], { explicitSessionId: 'F' })));
  assert.deepEqual(finalized[0].nextState, { role: 'user', content: 'q2', messages: 1 });
  const retry = turn(tracker, req([user('q1'), assistant('a1'), user('q2')], { explicitSessionId: 'F' }), assistant('a2'));
  assert.equal(retry.t.turnId, 2);
  assert.equal(finalized.length, 1, 'turn 1 is finalised once');
});

test('a request arriving while the previous turn is in flight: that turn ends with no next state (overlapped)', () => {
  const { tracker, finalized } = setup();
  const a = tracker.begin(req([user('first')], { explicitSessionId: 'C' }));
  const b = tracker.begin(req([user('second')], { explicitSessionId: 'C' }));
  assert.equal(finalized.length, 0, 'not finalised before its answer exists');
  const ta = answer(tracker, a, assistant('to first'));
  assert.deepEqual([ta.turnId, ta.nextState, ta.noNextStateReason], [1, null, 'overlapped']);
  assert.equal(finalized.length, 1);
  const tb = answer(tracker, b, assistant('to second'));
  assert.equal(tb.turnId, 2);
  tracker.begin(req([user('second'), assistant('to second'), user('third')], { explicitSessionId: 'C' }));
  assert.deepEqual(
    finalized.map((t) => t.turnId),
    [1, 2],
  );
  assert.deepEqual(finalized[1].nextState, { role: 'user', content: 'third', messages: 1 });
});

test('a session closed while its turn is in flight: the turn is numbered and finalised when it completes', () => {
  const { tracker, finalized } = setup({ maxSessions: 1 });
  turn(tracker, req([user('q')], { explicitSessionId: 'E' }), assistant('a'));
  const inflight = tracker.begin(req([user('q'), assistant('a'), user('q2')], { explicitSessionId: 'E' }));
  tracker.begin(req([user('other')], { explicitSessionId: 'X' })); // evicts E at once (cap 1)
  assert.deepEqual(tracker.sessionIds(), ['X']);
  const t = answer(tracker, inflight, assistant('a2'));
  assert.deepEqual([t.turnId, t.nextState, t.noNextStateReason], [2, null, 'evicted']);
  assert.deepEqual(
    finalized.map((x) => x.turnId),
    [1, 2],
  );
  assert.equal(tracker.memory().prefixKeys, 0, 'the closed session left nothing in the index');
});

test('OpenClaw shape without any hint: requests 1-3 form one session, request 4 another (prefix inference)', () => {
  const { tracker, finalized } = setup();
  const S = sys('long system prompt '.repeat(50));
  const r1 = turn(tracker, req([S, user('What is 2+2?'), ctx()]), assistant('4.'));
  const r2 = turn(
    tracker,
    req([S, user('What is 2+2?'), assistant('4.'), user('LIST_FILES please'), ctx()]),
    toolCall('call_rec_2', 'ls', '{"path":"."}'),
  );
  const r3 = turn(
    tracker,
    req([
      S,
      user('What is 2+2?'),
      assistant('4.'),
      user('LIST_FILES please'),
      toolCall('callrec2', 'ls', '{"path":"."}'),
      toolResult('callrec2', 'a.txt\nb.txt'),
      ctx(),
    ]),
    assistant('Two files.'),
  );
  const r4 = turn(tracker, req([S, user('Say hello.'), ctx()]), assistant('Hello!'));
  assert.equal(r1.h.source, 'new');
  assert.deepEqual([r2.h.source, r3.h.source], ['prefix', 'prefix']);
  assert.equal(r2.h.sessionId, r1.h.sessionId);
  assert.equal(r3.h.sessionId, r1.h.sessionId);
  assert.notEqual(r4.h.sessionId, r1.h.sessionId);
  assert.deepEqual([r1.t.turnId, r2.t.turnId, r3.t.turnId, r4.t.turnId], [1, 2, 3, 1]);
  assert.deepEqual(
    finalized.map((t) => [t.turnId, t.nextState]),
    [
      [1, { role: 'user', content: 'LIST_FILES please', messages: 1 }],
      [2, { role: 'tool', content: 'a.txt\nb.txt', messages: 1 }],
    ],
  );
});

test('hints: Runtime sessionId trailer and prompt_cache_key name the session; traceparent ties a turn whose history changed', () => {
  const { tracker } = setup();
  const first = user('Hi\n\nRuntime: agent=main | sessionId=abc-123 | host=vm');
  const a = tracker.begin(req([sys(), first, ctx()]));
  assert.deepEqual([a.sessionId, a.source], ['openclaw-abc-123', 'runtime_hint']);
  answer(tracker, a, assistant('Hello'));
  const b = tracker.begin(req([sys(), first, assistant('Hello'), user('more'), ctx()]));
  assert.deepEqual([b.sessionId, b.source], ['openclaw-abc-123', 'runtime_hint']);

  const p = tracker.begin(req([user('x')], { body: { prompt_cache_key: 'sess-9:3' } }));
  assert.deepEqual([p.sessionId, p.source], ['pck-sess-9', 'prompt_cache_key']);

  const tp = (span: string) => `00-0123456789abcdef0123456789abcdef-${span}-01`;
  const t1 = tracker.begin(req([user('trace me')], { traceparent: tp('1111111111111111') }));
  tracker.noteTrace(t1.sessionId, '0123456789abcdef0123456789abcdef');
  answer(tracker, t1, assistant('ok'));
  // Same user turn, but the client reformatted our answer: no prefix match, the trace id decides.
  const t2 = tracker.begin(req([user('trace me'), assistant('ok (edited)'), user('next')], { traceparent: tp('2222222222222222') }));
  assert.deepEqual([t2.sessionId, t2.source], [t1.sessionId, 'trace']);
});

test('explicit ids win over hints; anonymous fallback shares one session', () => {
  const { tracker } = setup();
  const h = tracker.begin(req([user('Runtime: sessionId=zzz')], { explicitSessionId: 'mine', body: { prompt_cache_key: 'k:1' } }));
  assert.deepEqual([h.sessionId, h.source], ['mine', 'explicit']);
  const anon = setup({ fallback: 'anonymous' });
  assert.equal(anon.tracker.begin(req([user('a')])).sessionId, 'anonymous');
  assert.equal(anon.tracker.begin(req([user('b')])).sessionId, 'anonymous');
});

test('per-request work does not depend on how many sessions are live or how long the history is', () => {
  // Count Map lookups made by begin(): the tracker's tables are Maps, so this bounds its work.
  const countLookups = (sessions: number, historyTurns: number): number => {
    const { tracker } = setup({ maxSessions: 100_000 });
    for (let i = 0; i < sessions; i++) turn(tracker, req([sys(), user(`other ${i}`)]), assistant(`reply ${i}`));
    let history: ChatMessage[] = [sys(), user('mine 0')];
    for (let k = 0; k < historyTurns; k++) {
      turn(tracker, req([...history, ctx()]), assistant(`mine reply ${k}`));
      history = [...history, assistant(`mine reply ${k}`), user(`mine ${k + 1}`)];
    }
    const r = req([...history, ctx()]);
    const get = Map.prototype.get;
    let n = 0;
    Map.prototype.get = function (this: Map<unknown, unknown>, key: unknown) {
      n++;
      return get.call(this, key);
    };
    try {
      assert.equal(tracker.begin(r).source, historyTurns > 0 ? 'prefix' : 'new');
    } finally {
      Map.prototype.get = get;
    }
    return n;
  };
  const small = countLookups(10, 3);
  assert.equal(countLookups(2000, 3), small, 'same work with 2000 live sessions');
  assert.equal(countLookups(10, 40), small, 'same work with a 40-turn history');
});

test('ignore patterns are configurable: without them the internal block would become the next state', () => {
  const run = (patterns: string[]) => {
    const { tracker, finalized } = setup({ ignorePatterns: compileIgnorePatterns(patterns) });
    turn(tracker, req([user('q1'), ctx()], { explicitSessionId: 'I' }), assistant('a1'));
    tracker.begin(
      req([user('q1'), assistant('a1'), user('q2'), { role: 'user', content: '[[client-note]] cwd=/tmp' }, ctx()], {
        explicitSessionId: 'I',
      }),
    );
    return finalized[0].nextState;
  };
  assert.deepEqual(run(['<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>', '^\\[\\[client-note\\]\\]']), {
    role: 'user',
    content: 'q2',
    messages: 1,
  });
  const leaked = run([]);
  assert.equal(leaked!.messages, 3);
  assert.match(leaked!.content, /BEGIN_OPENCLAW_INTERNAL_CONTEXT/);
});

test('a follow-up that adds only internal context gives the turn no next state', () => {
  const { tracker, finalized } = setup();
  turn(tracker, req([user('q1'), ctx()], { explicitSessionId: 'N' }), assistant('a1'));
  tracker.begin(req([user('q1'), assistant('a1'), ctx()], { explicitSessionId: 'N' }));
  assert.deepEqual([finalized[0].nextState, finalized[0].noNextStateReason], [null, 'no_new_message']);
});

test('an explicit side turn without a session id is not counted as a request without one (it is never trained)', () => {
  const { tracker } = setup();
  tracker.begin(req([user('rate this')], { turnType: 'side' }));
  assert.equal(tracker.counters.requests_without_session_id, 0);
  assert.equal(tracker.counters.side_turns, 1);
  tracker.begin(req([user('who am I?')], {}));
  assert.equal(tracker.counters.requests_without_session_id, 1, 'a request that may be a main turn is counted');
});

test('restore after a restart: an inferred session (no id, no hints) finds its waiting turn by prefix; numbering continues from lastTurnIdOf', () => {
  const before = setup();
  const first = turn(before.tracker, req([sys(), user('Plan my trip'), ctx()]), assistant('Sure.'));
  // A new process: the waiting turn comes back from the journal (replay.ts gives it its prefix hashes).
  const { tracker, finalized, completed } = setup({ lastTurnIdOf: () => 0 });
  const restored: Turn = { ...first.t, prefix: prefixHashes(first.t.messages), finalized: false };
  tracker.restore(restored);
  const next = turn(tracker, req([sys(), user('Plan my trip'), assistant('Sure.'), user('to Rome'), ctx()]), assistant('Done.'));
  assert.equal(next.h.source, 'prefix');
  assert.equal(next.h.sessionId, first.t.sessionId);
  assert.deepEqual(
    finalized.map((t) => [t.turnId, t.nextState?.content]),
    [[1, 'to Rome']],
  );
  assert.equal(completed.at(-1)!.turnId, 2, 'numbering continues after the restored turn');
  // An id the store knows but that was not restored continues after the store's number.
  const other = setup({ lastTurnIdOf: (id) => (id === 'old' ? 7 : 0) });
  assert.equal(turn(other.tracker, req([user('hi')], { explicitSessionId: 'old' }), assistant('yo')).t.turnId, 8);
});
