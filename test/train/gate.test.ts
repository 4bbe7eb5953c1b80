// The regression gate on a running `train` server (embedded engine, real HTTP): versions trained on
// deliberately inverted advantages are refused — serving stays on the previous version and chats
// keep answering 200 while it happens — and the training state rolls back to the serving one;
// the same run with a lenient gate serves its versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import pino from 'pino';
import { startServer } from '../../src/app/index.ts';
import { evaluationOfRun, formatEvaluation } from '../../src/evaluation/index.ts';
import { tinyCheckpoint } from '../support/tiny-checkpoint.ts';
import { tempDir } from '../support/temp.ts';
import { LIKED, chat, embeddedTrainConfig, feedLikedAnswer, invertAdvantages, metricsLines } from '../support/train-sessions.ts';

async function run(checkpoint: string, maxDrop: number, overrides: Record<string, unknown> = {}, invert = true) {
  const out = tempDir('ocrl-gate-');
  const config = embeddedTrainConfig(out, checkpoint, {
    'training.lr': 1e-2,
    'evaluation.holdout_fraction': 0.4,
    'evaluation.gate': { metric: 'holdout_reward_logprob', max_drop: maxDrop, min_samples: 2, on_fail: 'rollback' },
    ...overrides,
  });
  const server = await startServer(config, {
    train: true,
    trainerPollMs: 20,
    log: pino({ level: process.env.GATE_DEBUG ? 'info' : 'silent' }),
  });
  // Deliberately inverted advantages: the answer users liked is pushed down.
  const engine = server.engine!;
  if (invert) invertAdvantages(engine);
  const statuses: number[] = [];
  let probing = true;
  let closed = false;
  const probe = (async () => {
    for (let i = 0; probing; i++) {
      const content = await chat(server.url, `probe-${i}`, [{ role: 'user', content: 'hello' }]).catch(() => undefined);
      statuses.push(content === undefined ? 500 : 200);
    }
  })();
  try {
    // One liked answer, many times over: some are held out, the rest are trained (inverted).
    await feedLikedAnswer(server, 16, 30_000);
    const trainedScore = (await engine.scoreTrained!(LIKED)).logprobs;
    const servedScore = (await engine.score(LIKED)).logprobs;
    const health = await (await fetch(`${server.url}/healthz`)).json();
    const metrics = metricsLines(out);
    const drops = server.store.dropsByReason();
    const evaluation = await (await fetch(`${server.url}/evaluation`)).json();
    probing = false;
    await probe;
    await server.close();
    closed = true;
    // What `openclaw-rl report` prints for the stopped run.
    const report = formatEvaluation(evaluationOfRun(out));
    return { version: server.channel.version(), health, metrics, drops, trainedScore, servedScore, statuses, evaluation, report };
  } finally {
    probing = false;
    await probe;
    if (!closed) await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

test('the regression gate refuses versions trained on inverted advantages; serving stays put and answers; training rolls back', async () => {
  const checkpoint = await tinyCheckpoint();
  try {
    const strict = await run(checkpoint, 0);
    const checked = strict.metrics.filter((m) => m.gate_candidate !== undefined);
    assert.ok(checked.length > 0, `the gate checked versions: ${JSON.stringify(strict.metrics)}`);
    assert.ok(
      checked.every((m) => m.gate_passed === 0 && m.gate_drop > 0 && m.gate_candidate < m.gate_baseline),
      `inverted training lowered the held-out metric and was refused: ${JSON.stringify(checked)}`,
    );
    assert.equal(strict.version, 0, 'serving stayed on the base version');
    assert.ok((strict.drops.holdout ?? 0) >= 2, `held-out samples were reserved: ${JSON.stringify(strict.drops)}`);
    assert.ok((strict.drops.rejected ?? 0) > 0, "refused batches are kept as 'rejected'");
    assert.equal(strict.health.trainer.gate.refused, checked.length);
    assert.match(strict.health.trainer.gate.last.reason, /liked held-out answers became less likely/, 'the last refusal says why');
    assert.equal(typeof strict.health.trainer.seconds_since_last_served_version, 'number');
    assert.ok(strict.metrics.some((m) => m.event === 'gate_refused'));
    assert.deepEqual(strict.trainedScore, strict.servedScore, 'on_fail rollback: the training state is the serving one again');
    // Each refusal with its reason: GET /evaluation (the dashboard's source) and `openclaw-rl report`.
    assert.equal(strict.evaluation.gate_refusals.total, checked.length);
    assert.match(strict.evaluation.gate_refusals.newest[0].reason, /liked held-out answers became less likely/);
    assert.equal(strict.evaluation.gate_refusals.newest[0].policy_version, 0);
    assert.match(strict.report, new RegExp(`Regression gate: ${checked.length} trained versions? refused`));
    assert.match(strict.report, /- \S+ step \d+ \(version 0 kept serving\): liked held-out answers became less likely/);
    assert.ok(strict.statuses.length > 0 && strict.statuses.every((s) => s === 200), 'chats answered 200 throughout');

    // The same run with a lenient gate: the (bad) versions serve.
    const lenient = await run(checkpoint, 1e9, {
      'evaluation.gate.max_reverse': 1e9,
      'evaluation.gate.min_batch_gain': -1e9,
      'evaluation.gate.probes.enabled': false,
    });
    assert.ok(lenient.version > 0, 'a passing version serves');
    assert.ok(lenient.metrics.some((m) => m.gate_passed === 1 && m.gate_candidate !== undefined));
  } finally {
    rmSync(checkpoint, { recursive: true, force: true });
  }
});

test('a learning rate 1000x too high is refused by the collapse check on the trained batch, before any answer is held out', async () => {
  const checkpoint = await tinyCheckpoint();
  try {
    // Nothing is held out (the hash picks no turn at this share): the held-out comparison cannot run.
    const broken = await run(checkpoint, 0.5, { 'training.lr': 10, 'evaluation.holdout_fraction': 1e-9 }, false);
    const refused = broken.metrics.filter((m) => m.event === 'gate_refused');
    assert.ok(refused.length > 0, `the collapse was refused: ${JSON.stringify(broken.metrics)}`);
    assert.ok(
      refused.every((m) => /on the batch just trained: every answer scored became much less likely/.test(String(m.reason))),
      JSON.stringify(refused),
    );
    assert.equal(broken.version, 0, 'the broken weights never served');
    assert.ok(broken.statuses.every((s) => s === 200));
  } finally {
    rmSync(checkpoint, { recursive: true, force: true });
  }
});

test('inverted advantages are refused on the batch just trained, before any answer is held out: the step lowered its own objective', async () => {
  const checkpoint = await tinyCheckpoint();
  try {
    const inverted = await run(checkpoint, 0.5, { 'evaluation.holdout_fraction': 1e-9, 'evaluation.gate.probes.enabled': false });
    const refused = inverted.metrics.filter((m) => m.event === 'gate_refused');
    assert.ok(refused.length > 0, `the inverted steps were refused: ${JSON.stringify(inverted.metrics)}`);
    assert.ok(
      refused.every((m) => /^on the batch just trained: the step lowered the objective it trained on/.test(String(m.reason))),
      JSON.stringify(refused),
    );
    const steps = inverted.metrics.filter((m) => m.gate_batch_gain !== undefined);
    assert.ok(
      steps.length > 0 && steps.every((m) => m.gate_batch_gain < 0),
      `every step moved its batch the wrong way: ${JSON.stringify(steps)}`,
    );
    assert.equal(inverted.version, 0, 'no inverted version served');
    // The same training with its advantages as they are raises its objective and serves.
    const healthy = await run(checkpoint, 1e9, { 'evaluation.holdout_fraction': 1e-9, 'evaluation.gate.probes.enabled': false }, false);
    const gains = healthy.metrics.filter((m) => m.gate_batch_gain !== undefined);
    assert.ok(gains.length > 0 && gains.every((m) => m.gate_batch_gain > 0 && m.gate_passed === 1), JSON.stringify(gains));
    assert.ok(healthy.version > 0);
  } finally {
    rmSync(checkpoint, { recursive: true, force: true });
  }
});

test('the probe check: both versions answer the default probes; past a limit the candidate is refused with the numbers', async () => {
  const checkpoint = await tinyCheckpoint();
  try {
    // Healthy training (advantages as they are), but a KL limit no trained version can meet.
    const tight = await run(checkpoint, 1e9, { 'evaluation.gate.max_reverse': 1e9, 'evaluation.gate.probes.max_kl': 1e-9 }, false);
    const refused = tight.metrics.filter((m) => m.event === 'gate_refused');
    assert.ok(refused.length > 0, JSON.stringify(tight.metrics));
    assert.ok(
      refused.every((m) =>
        /^on the probes: its probe answers are [\d.]+ nats\/token from the serving version's \(KL\), above evaluation\.gate\.probes\.max_kl/.test(
          String(m.reason),
        ),
      ),
      JSON.stringify(refused),
    );
    const checked = tight.metrics.filter((m) => m.gate_probe_entropy !== undefined);
    assert.ok(checked.length > 0 && checked.every((m) => m.gate_probe_kl > 0 && m.gate_probe_length_serving > 0));
    assert.equal(tight.version, 0, 'no refused version served');

    // The same run with the check off: versions serve, and no probe numbers are measured.
    const off = await run(checkpoint, 1e9, { 'evaluation.gate.max_reverse': 1e9, 'evaluation.gate.probes.enabled': false }, false);
    assert.ok(off.version > 0);
    assert.ok(off.metrics.every((m) => m.gate_probe_kl === undefined));
  } finally {
    rmSync(checkpoint, { recursive: true, force: true });
  }
});
