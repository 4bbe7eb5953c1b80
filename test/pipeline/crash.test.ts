// Crash test: a child process running the server is SIGKILLed mid-session while judging is in
// flight (the scripted judge never answers). After a restart on the same output folder, every
// acknowledged turn is a sample or a recorded drop: pending turns are re-judged, feedback given
// before the crash still applies, and the session rules (at-least-one) hold across the restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedUpstream, scriptedRollout } from '../support/scripted-upstream.ts';
import { judgeFallback } from '../support/scripted-judge.ts';
import { postJson } from '../support/harness.ts';
import { exited, launch, waitFor } from '../support/child-server.ts';
import { readRecords } from '../../src/sessions/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { tempDir } from '../support/temp.ts';

async function health(url: string): Promise<any> {
  return (await fetch(`${url}/healthz`)).json();
}

async function chat(url: string, sessionId: string, messages: Array<{ role: string; content: string }>, done = false): Promise<void> {
  const res = await postJson(`${url}/v1/chat/completions`, { messages, session_id: sessionId, turn_type: 'main', session_done: done });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

for (const thread of [false, true]) {
  test(`SIGKILL while judging (scoring on the ${thread ? 'worker' : 'main'} thread): after restart every acknowledged turn is a sample or a recorded drop`, async () => {
    const policy = await new ScriptedUpstream().start();
    const judge = await new ScriptedUpstream().start();
    judge.fallback = { kind: 'hang' }; // judging is in flight when the process dies
    const outDir = tempDir('ocrl-crash-');
    const spec = {
      tree: {
        rollout: scriptedRollout(policy.url),
        judge: { provider: 'openai_compatible', base_url: judge.url, model_id: 'j', timeout_s: 60 },
      },
      overrides: { output_dir: outDir, 'server.port': 0, mode: 'openclaw-rl', 'scoring.worker_thread': thread },
      thread,
    };
    let child: ChildProcess | undefined;
    try {
      const first = await launch(spec);
      child = first.child;
      const url = first.url;
      const u = (content: string) => ({ role: 'user', content });
      const a = (content: string) => ({ role: 'assistant', content });
      policy.fallback = { kind: 'text', text: 'Sure, here you go.' };
      // Session A stays open: turns 1-3 get next states (acknowledged), turn 4 is still awaiting one.
      const hist = [
        u('Plan my trip'),
        a('Sure, here you go.'),
        u('ok'),
        a('Sure, here you go.'),
        u('fine'),
        a('Sure, here you go.'),
        u('and the hotel?'),
      ];
      for (const n of [1, 3, 5, 7]) await chat(url, 'crash-A', hist.slice(0, n));
      // Session B ends: turn 1 is judged (in flight), turn 2 has no next state and is resolved at once.
      await chat(url, 'crash-B', [u('Hello')]);
      await chat(url, 'crash-B', [u('Hello'), a('Sure, here you go.'), u('Thanks, great!')], true);
      const fb = await postJson(`${url}/v1/feedback`, { session_id: 'crash-A', turn_id: 2, score: 1 });
      assert.equal(fb.body.status, 'recorded');
      // 12 judge calls are due (4 judged turns × 3 votes); scoring.judge_concurrency (8) bounds those in flight.
      await waitFor('8 judge calls in flight', () => judge.received.length === 8);
      // The scoring thread reports its numbers every 500 ms.
      await waitFor('5 turns acknowledged, 4 pending', async () => {
        const { scoring } = await health(url);
        return scoring.counts.turns_acknowledged === 5 && scoring.samples.pending === 4;
      });

      child.kill('SIGKILL');
      await exited(child);

      judge.fallback = judgeFallback((v) => (v.nextState.startsWith('Thanks') ? 'Happy user. \\boxed{1}' : 'Neutral. \\boxed{0}'));
      const second = await launch(spec);
      child = second.child;
      // The session goes on after the restart: its waiting turn 4 gets this request as next state.
      await chat(second.url, 'crash-A', [...hist, a('Sure, here you go.'), u('and breakfast?')]);
      // A deadline, not a speed check: re-judging after a restart waits on a loaded machine.
      await waitFor('no pending turns after restart', async () => (await health(second.url)).scoring.samples.pending === 0, 90_000);
      child.kill('SIGTERM');
      await exited(child);
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await policy.stop();
      await judge.stop();
    }

    const store = SampleStore.open(join(outDir, 'samples.sqlite'), { recoverLeases: false });
    try {
      const { turns } = readRecords(join(outDir, 'records', 'turns.jsonl'));
      const acknowledged = turns.filter((t) => t.next_state !== undefined);
      assert.deepEqual(acknowledged.map((t) => `${t.session_id}:${t.turn_id}`).sort(), [
        'crash-A:1',
        'crash-A:2',
        'crash-A:3',
        'crash-A:4',
        'crash-A:5',
        'crash-B:1',
        'crash-B:2',
      ]);
      assert.deepEqual(
        turns.find((t) => t.session_id === 'crash-A' && t.turn_id === 4)!.next_state,
        { role: 'user', content: 'and breakfast?' },
        'the turn waiting at the crash finds its next state after the restart',
      );
      for (const t of acknowledged) {
        const o = store.getTurnOutcome(t.session_id, t.turn_id);
        assert.ok(o !== null && o.status !== 'pending', `${t.session_id}:${t.turn_id} is resolved`);
      }
      const sample = (s: string, n: number) => {
        const o = store.getTurnOutcome(s, n);
        assert.ok(o?.status === 'samples');
        return o.samples[0];
      };
      assert.deepEqual(
        [sample('crash-A', 2).reward, sample('crash-A', 2).lossMask],
        [1, 1],
        'feedback given before the crash still applies',
      );
      assert.deepEqual(
        [sample('crash-A', 1).lossMask, sample('crash-A', 3).lossMask],
        [0, 0],
        'no promotion: the session has a trainable turn',
      );
      assert.deepEqual([sample('crash-B', 1).reward, sample('crash-B', 1).lossMask], [1, 1]);
      assert.deepEqual([sample('crash-B', 2).reward, sample('crash-B', 2).lossMask], [0, 0]);
      assert.deepEqual(
        [sample('crash-A', 4).reward, sample('crash-A', 4).lossMask],
        [0, 0],
        'judged on its next state from after the restart',
      );
      const records = readFileSync(join(outDir, 'records', 'judge.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(records.filter((r) => r.rejudged === true).length, 4);
    } finally {
      store.close();
    }
  });
}
