// The replay evaluation on a running `train` server (embedded engine, real HTTP, real SQLite): each
// version re-answers held-out prompts that got a hint — the first one before it serves, on the
// training thread — and drift probes; a fake judge model (an HTTP server started here) says whether
// each new answer satisfies its hint. The numbers reach the step line, the store's
// version_evaluations, GET /evaluation and `openclaw-rl report` on the stopped run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { startServer } from '../../src/app/index.ts';
import { makeSample } from '../support/sample-fixtures.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';
import { ScriptedUpstream } from '../support/scripted-upstream.ts';
import { LIKED, embeddedTrainConfig, feedLikedAnswer, metricsLines } from '../support/train-sessions.ts';
import { runCli } from '../support/cli.ts';

const cli = (args: string[]) => runCli(args);

const HELD = 4;

test('each version is replayed on held-out hinted prompts and probes; the numbers reach the step line, GET /evaluation and report', async (t) => {
  const checkpoint = await tinyCheckpoint();
  const out = tempDir('ocrl-replay-');
  t.after(() => {
    rmSync(checkpoint, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });
  // The judge model: "yes" to our hint check, anything else gets a neutral answer.
  const judge = await new ScriptedUpstream().start();
  t.after(() => judge.stop());
  judge.fallback = (req) => {
    const system = (req.body.messages as Array<{ role: string; content: string }>)[0]?.content ?? '';
    return { kind: 'text', text: /GUIDANCE/.test(system) ? 'It does what was asked. \\boxed{yes}' : '\\boxed{0}' };
  };
  const probeFile = join(out, 'probes.jsonl');
  writeFileSync(
    probeFile,
    '{"prompt": "hello"}\n{"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "why?"}]}\n',
  );
  const config = embeddedTrainConfig(out, checkpoint, {
    mode: 'openclaw-combine',
    // The test reserves its own held-out samples below; the trainer's hash picks none of the rest.
    'evaluation.holdout_fraction': 1e-9,
    'evaluation.replay_max': HELD,
    'evaluation.probe_file': probeFile,
    'evaluation.probe_max_tokens': 6,
    'judge.provider': 'openai_compatible',
    'judge.base_url': judge.url,
    'judge.model_id': 'judge',
    'scoring.majority_vote': 3,
  });
  const server = await startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  let closed = false;
  t.after(async () => {
    if (!closed) await server.close();
  });
  // Held-out turns that got a hint, with the hinted prompt the teacher scored (as the pipeline keeps them).
  for (let i = 0; i < HELD; i++) {
    server.store.addSample(
      makeSample(`held-${i}`, 1, {
        policyVersion: 0,
        type: 'opd',
        reward: 0,
        promptIds: LIKED.promptIds,
        responseIds: LIKED.responseIds,
        rolloutLogprobs: [-1, -1, -1, -1],
        teacherLogprobs: [-0.5, -0.5, -0.5, -0.5],
        teacherPromptIds: [...LIKED.promptIds, 11, 12],
        hint: 'answer with a greeting',
      }),
    );
  }
  assert.equal(server.store.reserveHoldout((s) => s.startsWith('held-')).moved, HELD);
  await feedLikedAnswer(server, 4, 60_000); // two steps of two: versions 1 and 2

  const steps = metricsLines(out).filter((m) => m.step !== undefined);
  assert.equal(steps.length, 2);
  for (const m of steps) {
    assert.equal(typeof m.replay_opd_advantage, 'number', JSON.stringify(m));
    assert.ok(Number.isFinite(m.replay_opd_advantage) && m.replay_opd_advantage !== 0, 'teacher and student disagree somewhere');
    assert.equal(m.replay_samples, HELD);
    assert.equal(m.replay_hint_satisfied, 1, 'the judge said yes to every answer');
    assert.equal(m.probe_samples, 2);
    assert.equal(typeof m.probe_kl, 'number');
    assert.ok(m.probe_length_mean >= 0 && m.probe_length_mean <= 6);
    assert.ok(m.probe_empty_rate >= 0 && m.probe_garbled_rate >= 0);
    assert.ok(m.eval_time_s > 0);
  }
  const hintChecks = judge.received.filter((r) => /GUIDANCE/.test(JSON.stringify(r.body.messages)));
  assert.equal(hintChecks.length, 3 * HELD * 3, 'three votes per held-out answer, for versions 0, 1 and 2');
  assert.match(JSON.stringify(hintChecks[0].body.messages), /answer with a greeting/);

  // Per version in the store: the serving version 0 (before the first step) and each new one.
  const rows = server.store.versionEvaluations().filter((r) => r.metric === 'replay_opd_advantage');
  assert.deepEqual(
    rows.map((r) => [r.policyVersion, r.samples]),
    [
      [0, HELD],
      [1, HELD],
      [2, HELD],
    ],
  );
  assert.equal(rows[1].value, steps[0].replay_opd_advantage, 'the step line and the store agree');
  const kl0 = server.store.versionEvaluations().find((r) => r.policyVersion === 0 && r.metric === 'probe_kl');
  assert.equal(kl0, undefined, 'no KL for the serving version against itself');

  const evaluation = await (await fetch(`${server.url}/evaluation`)).json();
  const v2 = evaluation.versions.find((v: { policy_version: number }) => v.policy_version === 2);
  assert.equal(v2.replay.replay_opd_advantage.value, rows[2].value);
  assert.equal(v2.replay.replay_hint_satisfied.value, 1);
  assert.equal(v2.replay.probe_length_mean.samples, 2);

  await server.close();
  closed = true;
  const report = await cli(['report', '--output-dir', out]);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /Replay evaluation/);
  assert.match(report.stdout, new RegExp(`\\| 2 \\| ${rows[2].value.toFixed(3)} \\(${HELD}\\) \\| 1\\.00 \\(${HELD}\\) \\|`));
  const json = JSON.parse((await cli(['report', '--output-dir', out, '--json'])).stdout);
  assert.equal(json.versions.find((v: { policy_version: number }) => v.policy_version === 0).replay.replay_opd_advantage.samples, HELD);
});
