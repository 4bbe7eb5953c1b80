// End-to-end, openclaw-rl: multi-turn sessions through the gateway against a scripted judge
// model produce exactly the expected samples; at-least-one; judge failures as 'fail' votes;
// explicit feedback (before judging, on a ready sample, on a leased one); visibility.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postJson } from '../support/harness.ts';
import {
  answerIds,
  answerLogprobs,
  outcomeOf,
  runSession,
  samplesByTurn,
  sortedVotes,
  startScoring,
  type ScoringHarness,
} from './helpers.ts';

for (const thread of [false, true]) {
  describe(thread ? 'scoring in the worker thread' : 'scoring on the main thread', () => {
    let h: ScoringHarness;
    before(async () => {
      h = await startScoring({
        mode: 'openclaw-rl',
        thread,
        script: (v) => {
          if (v.kind !== 'prm') return undefined;
          if (v.nextState.startsWith("That's wrong")) return 'The user asks for a redo. \\boxed{-1}';
          // One of three votes has no boxed score: a 'fail' vote, the other two decide.
          if (v.nextState.startsWith('Thanks, great')) return v.seen === 0 ? 'Looks positive to me.' : 'The user is happy. \\boxed{1}';
          if (v.nextState.startsWith('hmm')) return { kind: 'status', status: 500 };
          return 'Nothing conclusive. \\boxed{0}';
        },
      });
    });
    after(async () => {
      await h.close();
    });

    test('a scripted session: -1 and +1 turns train, the unanswered last turn is kept masked', async () => {
      const answers = ['Rain falls, soft and slow', 'Soft rain on the roof', 'Glad to help!'];
      await runSession(
        h,
        'rl-1',
        ['Write a haiku about rain.', "That's wrong, redo it with five syllables first.", 'Thanks, great haiku!'],
        answers,
      );
      await h.server.pipeline.whenIdle();
      const s = samplesByTurn(h, 'rl-1');
      assert.equal(s.size, 3);
      const t1 = s.get(1)!;
      assert.deepEqual([t1.type, t1.reward, t1.lossMask, t1.teacherLogprobs, t1.hint], ['rl', -1, 1, null, null]);
      assert.deepEqual(t1.votes, [-1, -1, -1]);
      assert.deepEqual(t1.responseIds, answerIds(answers[0]));
      assert.deepEqual(t1.rolloutLogprobs, answerLogprobs(answerIds(answers[0]).length));
      assert.deepEqual(t1.promptIds, [1, 2, 3]);
      const t2 = s.get(2)!;
      assert.deepEqual([t2.type, t2.reward, t2.lossMask], ['rl', 1, 1]);
      assert.deepEqual(sortedVotes(t2.votes), ['1', '1', 'fail']);
      const t3 = s.get(3)!;
      assert.deepEqual([t3.type, t3.reward, t3.lossMask, t3.votes], ['rl', 0, 0, []], 'no next state: reward 0, masked, no votes');
    });

    test('at-least-one: a session with only neutral turns trains its first judged turn; HTTP 500 judges are fail votes', async () => {
      await runSession(h, 'rl-neutral', ['Hi there', 'ok', 'hmm', 'bye'], ['Hello!', 'Anything else?', 'Sure.', 'Bye!']);
      await h.server.pipeline.whenIdle();
      const s = samplesByTurn(h, 'rl-neutral');
      assert.deepEqual([s.get(1)!.reward, s.get(1)!.lossMask], [0, 1], 'turn 1 promoted');
      assert.deepEqual(s.get(1)!.votes, [0, 0, 0]);
      assert.deepEqual(s.get(2)!.votes, ['fail', 'fail', 'fail'], "every judge call on turn 2 (next state 'hmm') answered 500");
      assert.deepEqual([s.get(2)!.reward, s.get(2)!.lossMask], [0, 0]);
      assert.deepEqual([s.get(3)!.reward, s.get(3)!.lossMask, s.get(3)!.votes], [0, 0, [0, 0, 0]]);
      assert.deepEqual([s.get(4)!.lossMask, s.get(4)!.votes], [0, []]);
      const record = readFileSync(join(h.outDir, 'records', 'judge.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const r1 = record.find((r) => r.session_id === 'rl-neutral' && r.turn_id === 1);
      assert.equal(r1.decision.promoted, true);
      const r2 = record.find((r) => r.session_id === 'rl-neutral' && r.turn_id === 2);
      assert.equal(r2.prm.outcome.reason, 'all_failed');
      assert.match(r2.prm.answers[0].error, /500/);
      assert.equal(r2.next_state.content, 'hmm');
    });

    test('feedback: before judging it overrides the judge with a graded reward; on a ready sample it replaces it', async () => {
      h.policy.script({ kind: 'text', text: 'Here is the summary.' });
      const first = await postJson(`${h.url}/v1/chat/completions`, {
        messages: [{ role: 'user', content: 'Summarise this' }],
        session_id: 'rl-fb',
        turn_type: 'main',
      });
      assert.equal(first.status, 200);
      const fb1 = await postJson(`${h.url}/v1/feedback`, { session_id: 'rl-fb', score: 0.5 });
      assert.equal(fb1.status, 200);
      assert.deepEqual([fb1.body.turn_id, fb1.body.status, fb1.body.policy], [1, 'recorded', 'override'], 'default turn: the latest');
      h.policy.script({ kind: 'text', text: 'Next answer.' });
      await postJson(`${h.url}/v1/chat/completions`, {
        messages: [
          { role: 'user', content: 'Summarise this' },
          { role: 'assistant', content: 'Here is the summary.' },
          { role: 'user', content: 'Next question please' },
        ],
        session_id: 'rl-fb',
        turn_type: 'main',
        session_done: true,
      });
      await h.server.pipeline.whenIdle();
      let s = samplesByTurn(h, 'rl-fb');
      assert.deepEqual([s.get(1)!.reward, s.get(1)!.lossMask], [0.5, 1], 'judge said 0, the user 0.5');
      assert.deepEqual(s.get(1)!.votes, [0, 0, 0, 1], 'judge votes plus the feedback vote');
      assert.deepEqual([s.get(2)!.reward, s.get(2)!.lossMask], [0, 0]);
      const fb2 = await postJson(`${h.url}/v1/feedback`, { session_id: 'rl-fb', turn_id: 2, score: 'down' });
      assert.equal(fb2.status, 200);
      assert.equal(fb2.body.status, 'replaced');
      s = samplesByTurn(h, 'rl-fb');
      assert.deepEqual([s.get(2)!.reward, s.get(2)!.lossMask, s.get(2)!.state], [-1, 1, 'ready']);
      // Once the trainer took it, feedback can no longer change it.
      h.server.store.leaseBatch(1000);
      const fb3 = await postJson(`${h.url}/v1/feedback`, { session_id: 'rl-fb', turn_id: 2, score: 1 });
      assert.equal(fb3.status, 409);
      assert.equal(fb3.body.error.code, 'turn_already_resolved');
      assert.match(fb3.body.error.message, /leased/);
    });

    test('feedback validation: OpenAI-shaped 400/404 naming the field', async () => {
      const bad = await postJson(`${h.url}/v1/feedback`, { session_id: 'rl-1', score: 2 });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.param, 'score');
      assert.equal(bad.body.error.type, 'invalid_request_error');
      const missing = await postJson(`${h.url}/v1/feedback`, { score: 1 });
      assert.deepEqual(
        [missing.status, missing.body.error.param, missing.body.error.code],
        [400, 'session_id', 'missing_required_parameter'],
      );
      const noSession = await postJson(`${h.url}/v1/feedback`, { session_id: 'never-seen', score: 1 });
      assert.deepEqual([noSession.status, noSession.body.error.param], [404, 'session_id']);
      const noTurn = await postJson(`${h.url}/v1/feedback`, { session_id: 'rl-1', turn_id: 99, score: 1 });
      assert.deepEqual([noTurn.status, noTurn.body.error.param], [404, 'turn_id']);
    });

    test('visibility: GET /sessions/:id shows judged turns; /metrics and /healthz show the rates', async () => {
      const res = await fetch(`${h.url}/sessions/rl-1`);
      const body = (await res.json()) as { turns: Array<{ turn_id: number; judgement: Record<string, unknown> }> };
      assert.deepEqual(
        body.turns.map((t) => [t.turn_id, t.judgement.score, t.judgement.loss_mask, t.judgement.sample_type]),
        [
          [1, -1, 1, 'rl'],
          [2, 1, 1, 'rl'],
          [3, null, 0, 'rl'],
        ],
      );
      assert.deepEqual(body.turns[0].judgement.votes, [-1, -1, -1]);
      assert.equal(body.turns[0].judgement.hint_accepted, false);
      const health = (await (await fetch(`${h.url}/healthz`)).json()) as { scoring: Record<string, any> };
      assert.equal(health.scoring.thread, thread ? 'worker' : 'main');
      const c = health.scoring.counts;
      // Judged turns: rl-1 ×2, rl-neutral ×3, rl-fb turn 1 (judge + feedback) = 6; trainable: rl-1 ×2 + promoted + rl-fb turn 1 = 4.
      assert.equal(c.turns_judged, 6);
      assert.equal(c.samples_trainable, 4);
      assert.equal(health.scoring.effective_sample_rate, 4 / 6);
      assert.equal(health.scoring.samples.pending, 0);
      const metrics = await (await fetch(`${h.url}/metrics`)).text();
      assert.match(metrics, /openclaw_rl_scoring_effective_sample_rate 0\.6666/);
      assert.match(metrics, /openclaw_rl_scoring_dropped_no_signal 0/);
      // PRM runs: rl-1 (-1, +1), rl-neutral (0, 0, 0), rl-fb (0): mean -0/6 = 0; failed votes 1 + 3 of 18.
      assert.match(metrics, /openclaw_rl_scoring_vote_failure_rate 0\.2222/);
      assert.equal(outcomeOf(h, 'rl-1', 3), 'sample');
    });
  });
}
