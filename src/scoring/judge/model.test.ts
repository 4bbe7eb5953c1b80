import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../engines/types.ts';
import { runHintJudge, runPrmJudge } from './model.ts';
import type { CandidateTopK, JudgeCall, JudgeCallOptions, JudgedTurnInput } from '../types.ts';

const turn: JudgedTurnInput = {
  promptMessages: [{ role: 'user', content: 'How far is 3 miles in km?' }],
  responseText: 'It is 3 miles.',
  responseToolCalls: [],
  nextState: { role: 'user', content: 'No, I asked for kilometres.' },
};

/**
 * A fake judge that answers the i-th call with `answers[i]` (a string, or an Error to reject),
 * one macrotask later, and records how many calls had started when each one resolved.
 */
function scriptedJudge(answers: Array<string | Error>) {
  let started = 0;
  const startedAtResolve: number[] = [];
  const seen: Array<{ messages: ChatMessage[]; opts: JudgeCallOptions }> = [];
  const call: JudgeCall = (messages, opts) => {
    const answer = answers[started++];
    seen.push({ messages, opts });
    return new Promise((resolve, reject) => {
      setImmediate(() => {
        startedAtResolve.push(started);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      });
    });
  };
  return { call, startedAtResolve, seen };
}

test('PRM runner: all m calls start before any resolves, with the judge temperature and budget', async () => {
  const judge = scriptedJudge(['\\boxed{-1}', 'bad answer \\boxed{-1}', 'fine \\boxed{1}']);
  const r = await runPrmJudge(turn, { call: judge.call, m: 3, temperature: 0.6, maxTokens: 256 });
  assert.deepEqual(judge.startedAtResolve, [3, 3, 3]);
  assert.deepEqual(r.votes, [-1, -1, 1]);
  assert.equal(r.score, -1);
  assert.equal(r.provider, 'model');
  assert.deepEqual(judge.seen[0].opts, { temperature: 0.6, maxTokens: 256 });
  assert.equal(judge.seen[0].messages[0].role, 'system');
  assert.deepEqual(
    r.details.map((d) => d.raw),
    ['\\boxed{-1}', 'bad answer \\boxed{-1}', 'fine \\boxed{1}'],
  );
});

test('PRM runner: rejected calls and unparseable answers are recorded as fail with the error kept', async () => {
  const judge = scriptedJudge([new Error('judge HTTP 503'), 'I cannot decide.', 'clearly good \\boxed{1}']);
  const r = await runPrmJudge(turn, { call: judge.call, m: 3 });
  assert.deepEqual(r.votes, ['fail', 'fail', 1]);
  assert.equal(r.details[0].error, 'judge HTTP 503');
  assert.equal(r.details[0].raw, null);
  assert.match(r.details[1].error ?? '', /no final \\boxed/);
  assert.equal(r.details[1].raw, 'I cannot decide.');
  assert.equal(r.details[2].error, null);
  assert.deepEqual(r.outcome, { score: 1, valid: 1, failed: 2, reason: 'majority', confidence: 1 });
  // Defaults: temperature 0 and 512 tokens.
  assert.deepEqual(judge.seen[0].opts, { temperature: 0, maxTokens: 512 });
});

test('PRM runner: quorum 2 turns a lone valid vote into 0; a synchronous throw is a fail, not a crash', async () => {
  let calls = 0;
  const call: JudgeCall = async () => {
    calls++;
    if (calls === 1) return '\\boxed{1}';
    throw new Error('boom');
  };
  const r = await runPrmJudge(turn, { call, m: 3, quorum: 2 });
  assert.deepEqual(r.votes, [1, 'fail', 'fail']);
  assert.equal(r.score, 0);
  assert.equal(r.outcome.reason, 'below_quorum');

  const throwsNow: JudgeCall = () => {
    throw new Error('bad request built');
  };
  const r2 = await runPrmJudge(turn, { call: throwsNow, m: 2 });
  assert.deepEqual(r2.votes, ['fail', 'fail']);
  assert.equal(r2.details[1].error, 'bad request built');
  assert.equal(r2.outcome.reason, 'all_failed');
});

const HINT_SHORT = 'Answer in kilometres.';
const HINT_LONG = 'Convert the distance to kilometres (about 4.8 km).';

test('hint runner: concurrent votes, candidates, longest hint chosen', async () => {
  const judge = scriptedJudge([
    `\\boxed{1} [HINT_START]${HINT_SHORT}[HINT_END]`,
    `\\boxed{1}\n[HINT_START]\n${HINT_LONG}\n[HINT_END]`,
    '\\boxed{-1} [HINT_START]A hint on a negative vote is ignored.[HINT_END]',
    new Error('timeout'),
  ]);
  const r = await runHintJudge(turn, { call: judge.call, m: 4 });
  assert.deepEqual(judge.startedAtResolve, [4, 4, 4, 4]);
  assert.deepEqual(r.votes, [1, 1, -1, 'fail']);
  assert.deepEqual(
    r.details.map((d) => d.hint),
    [HINT_SHORT, HINT_LONG, null, null],
  );
  assert.equal(r.hint, HINT_LONG);
  assert.equal(r.selection.used, 'longest');
  assert.equal(r.details[3].error, 'timeout');
  assert.match(String(judge.seen[0].messages[0].content), /HINT_START/);
});

test('hint runner: a \\boxed{0} answer is a failed hint vote and no hint is accepted', async () => {
  const judge = scriptedJudge(['\\boxed{0}', '\\boxed{-1}']);
  const r = await runHintJudge(turn, { call: judge.call, m: 2 });
  assert.deepEqual(r.votes, ['fail', -1]);
  assert.equal(r.hint, null);
});

const ln = Math.log;
const student = [{ ids: [1, 2], logprobs: [ln(0.5), ln(0.4)] }];
const agrees: CandidateTopK = { student, teacher: [{ ids: [1, 2], logprobs: [ln(0.6), ln(0.3)] }] }; // overlap 0.9
const disagrees: CandidateTopK = { student, teacher: [{ ids: [3, 1], logprobs: [ln(0.8), ln(0.1)] }] }; // overlap 0.1

test('hint runner, overlap: scores the eligible hints and picks the best-overlapping one', async () => {
  const judge = scriptedJudge([
    `\\boxed{1} [HINT_START]${HINT_SHORT}[HINT_END]`,
    `\\boxed{1} [HINT_START]${HINT_LONG}[HINT_END]`,
    '\\boxed{-1}',
  ]);
  const asked: string[][] = [];
  const r = await runHintJudge(turn, {
    call: judge.call,
    m: 3,
    strategy: 'overlap',
    scoreCandidates: async (hints) => {
      asked.push(hints);
      return hints.map((h) => (h === HINT_SHORT ? agrees : disagrees));
    },
  });
  assert.deepEqual(asked, [[HINT_SHORT, HINT_LONG]]);
  assert.equal(r.hint, HINT_SHORT);
  assert.equal(r.selection.used, 'overlap');
  assert.ok(Math.abs((r.selection.overlapScores?.[0] ?? 0) - 0.9) < 1e-12);
});

test('hint runner, overlap: a failing top-k scorer falls back to longest and records why', async () => {
  const judge = scriptedJudge([`\\boxed{1} [HINT_START]${HINT_SHORT}[HINT_END]`, `\\boxed{1} [HINT_START]${HINT_LONG}[HINT_END]`]);
  const r = await runHintJudge(turn, {
    call: judge.call,
    m: 2,
    strategy: 'overlap',
    scoreCandidates: async () => {
      throw new Error('teacher down');
    },
  });
  assert.equal(r.hint, HINT_LONG);
  assert.equal(r.selection.used, 'longest');
  assert.match(r.selection.fallback ?? '', /top-k scoring failed: teacher down/);
});

test('runners reject a vote count below 1 with a config error', async () => {
  await assert.rejects(runPrmJudge(turn, { call: async () => '\\boxed{1}', m: 0 }), /majority_vote/);
});
