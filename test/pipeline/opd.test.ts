// End-to-end, openclaw-opd: hint judge → longest hint → teacher log-probs of the unchanged
// response tokens under the hinted prompt (scripted SGLang /generate); hint-reject, force-drop,
// teacher token mismatch, and a feedback comment used as the hint.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { postJson } from '../support/harness.ts';
import { hintAnswer } from '../support/scripted-judge.ts';
import { expectedTeacherLogprobs } from '../support/scripted-teacher.ts';
import { fakeTokenId } from '../support/scripted-upstream.ts';
import { HINT_MARKER } from '../../src/scoring/index.ts';
import { holdoutPoint } from '../../src/rl/index.ts';
import { turnKey } from '../../src/rl/turn-key.ts';
import { RENDERED_PROMPT, answerIds, outcomeOf, runSession, samplesByTurn, startScoring, type ScoringHarness } from './helpers.ts';

const SHORT_HINT = 'Show the formula first.';
const LONG_HINT = 'Show the conversion formula F = C × 9/5 + 32 before giving the result.';

let h: ScoringHarness;
before(async () => {
  h = await startScoring({
    mode: 'openclaw-opd',
    script: (v) => {
      assert.equal(v.kind, 'hint', 'openclaw-opd runs only the hint judge');
      if (v.nextState.startsWith('No, you should show the formula'))
        return [hintAnswer(SHORT_HINT), hintAnswer(LONG_HINT), 'Not needed. \\boxed{-1}'][v.seen % 3];
      if (v.nextState.startsWith('Use metric units')) return hintAnswer('Answer in metric units (metres, kilograms).');
      return undefined; // \boxed{-1}: no hint
    },
  });
  // The teacher mis-scores (one log-prob short) any input containing this session's answer.
  h.teacher.mismatch = (ids) => ids.includes(fakeTokenId('Imperial:'));
});
after(async () => {
  await h.close();
});

test('a scripted session: accepted hint → opd sample with teacher log-probs; rejected hint and last turn dropped', async () => {
  const answers = ['20 degrees is 68.', 'F = C × 9/5 + 32, so 68.', 'You are welcome.'];
  await runSession(
    h,
    'opd-1',
    ['Convert 20 °C to Fahrenheit.', 'No, you should show the formula F = C × 9/5 + 32 first.', 'Thanks!'],
    answers,
  );
  await h.server.pipeline.whenIdle();
  const s = samplesByTurn(h, 'opd-1');
  assert.deepEqual([...s.keys()], [1]);
  const t1 = s.get(1)!;
  assert.deepEqual([t1.type, t1.reward, t1.lossMask, t1.hint], ['opd', 0, 1, LONG_HINT], 'the longest +1 hint wins');
  assert.deepEqual([...t1.votes].map(String).sort(), ['-1', '1', '1']);
  assert.deepEqual(t1.teacherLogprobs, expectedTeacherLogprobs(RENDERED_PROMPT.length, answerIds(answers[0])));
  // The teacher saw the hinted prompt ids followed by the student's unchanged response ids.
  const call = h.teacher.received.find((r) => r.input_ids.length === RENDERED_PROMPT.length + answerIds(answers[0]).length)!;
  assert.deepEqual(call.input_ids, [...RENDERED_PROMPT, ...answerIds(answers[0])]);
  assert.equal(call.logprob_start_len, RENDERED_PROMPT.length - 1);
  const lastUser = h.rendered[0].at(-1)!;
  assert.equal(lastUser.content, `Convert 20 °C to Fahrenheit.\n\n${HINT_MARKER}\n${LONG_HINT}`);
  assert.equal(outcomeOf(h, 'opd-1', 2), 'dropped:hint_rejected');
  assert.equal(outcomeOf(h, 'opd-1', 3), 'dropped:no_next_state', 'force-drop');
});

test('teacher token mismatch: the turn is dropped with its reason, never padded', async () => {
  await runSession(
    h,
    'opd-mismatch',
    ['How tall is the tower?', 'Use metric units instead please.'],
    ['Imperial: 984 feet.', 'About 300 metres.'],
  );
  await h.server.pipeline.whenIdle();
  assert.equal(outcomeOf(h, 'opd-mismatch', 1), 'dropped:teacher_mismatch');
  assert.equal(samplesByTurn(h, 'opd-mismatch').size, 0);
  const health = (await (await fetch(`${h.url}/healthz`)).json()) as { scoring: Record<string, any> };
  assert.equal(health.scoring.dropped_by_reason.teacher_mismatch, 1);
  assert.equal(health.scoring.counts.teacher_failures, 1);
});

test('a feedback comment given before judging is the hint the teacher distils from', async () => {
  h.policy.script({ kind: 'text', text: 'Nine is prime.' });
  await postJson(`${h.url}/v1/chat/completions`, {
    messages: [{ role: 'user', content: 'Name a prime.' }],
    session_id: 'opd-fb',
    turn_type: 'main',
  });
  const comment = '9 is not prime; answer with 7 or another actual prime.';
  const fb = await postJson(`${h.url}/v1/feedback`, { session_id: 'opd-fb', score: -1, comment });
  assert.deepEqual([fb.status, fb.body.status, fb.body.hint_applied], [200, 'recorded', true]);
  h.policy.script({ kind: 'text', text: 'Done.' });
  await postJson(`${h.url}/v1/chat/completions`, {
    messages: [
      { role: 'user', content: 'Name a prime.' },
      { role: 'assistant', content: 'Nine is prime.' },
      { role: 'user', content: 'ok next' },
    ],
    session_id: 'opd-fb',
    turn_type: 'main',
    session_done: true,
  });
  await h.server.pipeline.whenIdle();
  const t1 = samplesByTurn(h, 'opd-fb').get(1)!;
  assert.deepEqual([t1.type, t1.hint, t1.lossMask, t1.reward], ['opd', comment, 1, 0], 'the judge rejected a hint; the comment overrides');
  assert.deepEqual(t1.teacherLogprobs, expectedTeacherLogprobs(RENDERED_PROMPT.length, answerIds('Nine is prime.')));
  assert.ok(h.rendered.some((m) => m.at(-1)!.content === `Name a prime.\n\n${HINT_MARKER}\n${comment}`));
  const view = (await (await fetch(`${h.url}/sessions/opd-fb`)).json()) as { turns: Array<{ judgement: Record<string, unknown> }> };
  assert.deepEqual(
    [view.turns[0].judgement.hint_accepted, view.turns[0].judgement.hint, view.turns[0].judgement.score],
    [true, comment, null],
  );
  assert.equal(view.turns[1].judgement.dropped_reason, 'no_next_state');
});

test('a held-out turn keeps the hinted prompt its teacher scores came from (for the replay evaluation); other turns do not', async () => {
  const held = await startScoring({
    mode: 'openclaw-opd',
    overrides: { 'evaluation.holdout_fraction': 0.5 },
    script: (v) => (v.nextState.startsWith('No, you should show') ? hintAnswer(LONG_HINT) : undefined),
  });
  try {
    // One session whose first turn falls in the held-out share, one whose first turn does not.
    const ids = Array.from({ length: 40 }, (_, i) => `keep-${i}`);
    const inShare = ids.find((id) => holdoutPoint(turnKey(id, 1)) < 0.5)!;
    const outOfShare = ids.find((id) => holdoutPoint(turnKey(id, 1)) >= 0.5)!;
    const answers = ['20 degrees is 68.', 'F = C × 9/5 + 32, so 68.'];
    for (const id of [inShare, outOfShare])
      await runSession(held, id, ['Convert 20 °C to Fahrenheit.', 'No, you should show the formula F = C × 9/5 + 32 first.'], answers);
    await held.server.pipeline.whenIdle();
    const kept = samplesByTurn(held, inShare).get(1)!;
    assert.equal(kept.hint, LONG_HINT);
    assert.deepEqual(kept.teacherPromptIds, RENDERED_PROMPT, 'the hinted prompt the teacher scored');
    const other = samplesByTurn(held, outOfShare).get(1)!;
    assert.equal(other.hint, LONG_HINT);
    assert.equal(other.teacherPromptIds, undefined);
  } finally {
    await held.close();
  }
});
