// End-to-end, openclaw-combine: PRM and hint judges per turn, three-way dispatch (opd+rl / rl /
// opd / nothing) with teacher log-probs where a hint was accepted; feedback on a dropped turn is
// a 409; and the offline rules judge (the default) through the same pipeline.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postJson } from '../support/harness.ts';
import { hintAnswer } from '../support/scripted-judge.ts';
import { expectedTeacherLogprobs } from '../support/scripted-teacher.ts';
import { HINT_MARKER } from '../../src/scoring/index.ts';
import {
  RENDERED_PROMPT,
  answerIds,
  outcomeOf,
  qwen3Prompt,
  runSession,
  samplesByTurn,
  startScoring,
  teacherPrompt,
  type ScoringHarness,
} from './helpers.ts';

const METRIC_HINT = 'Give the distance in kilometres, not miles.';
const TITLE_HINT = 'Add a short title of under ten words.';

for (const thread of [false, true]) {
  describe(thread ? 'scoring in the worker thread' : 'scoring on the main thread', () => {
    let h: ScoringHarness;
    before(async () => {
      h = await startScoring({
        mode: 'openclaw-combine',
        thread,
        script: (v) => {
          const next = v.nextState;
          if (v.kind === 'prm') {
            if (next.startsWith("That's wrong")) return 'A correction. \\boxed{-1}';
            if (next.startsWith('Thanks')) return 'Approval. \\boxed{1}';
            return undefined; // \boxed{0}
          }
          if (next.startsWith("That's wrong")) return hintAnswer(METRIC_HINT);
          if (next.startsWith('Now also add a title')) return hintAnswer(TITLE_HINT);
          return undefined; // \boxed{-1}
        },
      });
    });
    after(async () => {
      await h.close();
    });

    const QUESTIONS = [
      'How far is Paris from London?',
      "That's wrong. Use the metric system instead.",
      'Thanks, that is perfect!',
      'Now also add a title, and keep it short.',
      'hmm',
    ];
    const ANSWERS = ['It is 250 miles.', 'About 400 km.', 'Route: A1 then A2.', 'Title: The Route.', 'Bye.'];

    test('three-way dispatch over a five-turn session', async () => {
      await runSession(h, 'cmb-1', QUESTIONS, ANSWERS);
      await h.server.pipeline.whenIdle();
      const s = samplesByTurn(h, 'cmb-1');
      assert.deepEqual([...s.keys()].sort(), [1, 2, 3]);
      const t1 = s.get(1)!;
      assert.deepEqual([t1.type, t1.reward, t1.lossMask, t1.hint], ['opd+rl', -1, 1, METRIC_HINT], 'hint ✓ and r = -1');
      assert.deepEqual(t1.votes, [-1, -1, -1], 'opd+rl samples carry the PRM votes');
      // The teacher sees the first question with the hint appended, rendered by the policy's chat
      // template: the test's recording renderer on the main thread, Qwen3's (rollout.tokenizer) in the worker.
      const hinted = `${QUESTIONS[0]}\n\n${HINT_MARKER}\n${METRIC_HINT}`;
      const prompt = teacherPrompt(h, ANSWERS[0]);
      assert.deepEqual(prompt, thread ? await qwen3Prompt([{ role: 'user', content: hinted }]) : RENDERED_PROMPT);
      if (!thread) assert.equal(h.rendered[0].at(-1)!.content, hinted);
      assert.deepEqual(t1.teacherLogprobs, expectedTeacherLogprobs(prompt.length, answerIds(ANSWERS[0])));
      const t2 = s.get(2)!;
      assert.deepEqual(
        [t2.type, t2.reward, t2.lossMask, t2.teacherLogprobs, t2.hint],
        ['rl', 1, 1, null, null],
        'r = +1 only: no teacher, OPD term exactly 0',
      );
      const t3 = s.get(3)!;
      assert.deepEqual([t3.type, t3.reward, t3.lossMask, t3.hint], ['opd', 0, 1, TITLE_HINT], 'hint ✓ only');
      assert.deepEqual(t3.votes, [1, 1, 1], 'opd samples carry the hint votes');
      assert.deepEqual(t3.teacherLogprobs, expectedTeacherLogprobs(teacherPrompt(h, ANSWERS[2]).length, answerIds(ANSWERS[2])));
      assert.equal(outcomeOf(h, 'cmb-1', 4), 'dropped:no_signal', 'r = 0 and no hint');
      assert.equal(outcomeOf(h, 'cmb-1', 5), 'dropped:no_next_state');
      // Both judges ran on every judged turn: 4 turns × (3 PRM + 3 hint) calls.
      assert.equal(h.judge.received.length, 24);
      const records = readFileSync(join(h.outDir, 'records', 'judge.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const r1 = records.find((r) => r.session_id === 'cmb-1' && r.turn_id === 1);
      assert.deepEqual([r1.prm.score, r1.hint.chosen, r1.teacher.status, r1.decision.sampleType], [-1, METRIC_HINT, 'scored', 'opd+rl']);
      assert.match(r1.hint.answers[0].raw, /\[HINT_START\]/);
      const health = (await (await fetch(`${h.url}/healthz`)).json()) as { scoring: Record<string, number> };
      assert.equal(health.scoring.hint_accept_rate, 2 / 4);
      assert.equal(health.scoring.prm_eval_score, 0, '(-1 + 1 + 0 + 0) / 4');
      assert.equal(health.scoring.effective_sample_rate, 3 / 4);
    });

    test('feedback on a dropped turn is a 409 that says why', async () => {
      const res = await postJson(`${h.url}/v1/feedback`, { session_id: 'cmb-1', turn_id: 4, score: 1 });
      assert.equal(res.status, 409);
      assert.match(res.body.error.message, /dropped \(no_signal\)/);
    });

    test('feedback on a ready opd sample adds the reward term: opd → opd+rl', async () => {
      const res = await postJson(`${h.url}/v1/feedback`, {
        session_id: 'cmb-1',
        turn_id: 3,
        score: 1,
        comment: 'A comment that comes too late to be a hint.',
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'replaced');
      assert.match(res.body.note, /could not be used as a hint/);
      const t3 = samplesByTurn(h, 'cmb-1').get(3)!;
      assert.deepEqual([t3.type, t3.reward, t3.lossMask, t3.hint], ['opd+rl', 1, 1, TITLE_HINT]);
      assert.deepEqual(
        t3.teacherLogprobs,
        expectedTeacherLogprobs(teacherPrompt(h, ANSWERS[2]).length, answerIds(ANSWERS[2])),
        'teacher log-probs kept',
      );
    });

    test('the rules judge (judge.provider: rules) drives the same dispatch offline', async () => {
      const r = await startScoring({ mode: 'openclaw-combine', thread });
      try {
        await runSession(
          r,
          'rules-1',
          ['List three fruits.', "Don't include tomatoes, use apples instead.", 'Thanks, great!', 'bye'],
          ['Tomato, pear, plum.', 'Apple, pear, plum.', 'Glad to help.', 'Bye.'],
        );
        await r.server.pipeline.whenIdle();
        const s = samplesByTurn(r, 'rules-1');
        const t1 = s.get(1)!;
        assert.deepEqual(
          [t1.type, t1.reward, t1.hint],
          ['opd+rl', -1, "Don't include tomatoes, use apples instead."],
          'a correction: -1 with the correction as hint',
        );
        assert.deepEqual([s.get(2)!.type, s.get(2)!.reward, s.get(2)!.teacherLogprobs], ['rl', 1, null], 'thanks: +1, no hint');
        assert.equal(outcomeOf(r, 'rules-1', 3), 'dropped:no_signal');
        assert.equal(r.judge.received.length, 0, 'no judge model was called');
      } finally {
        await r.close();
      }
    });
  });
}
