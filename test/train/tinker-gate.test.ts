// The regression gate through Tinker (the embedded stand-in, real HTTP): versions trained on
// deliberately inverted advantages are scored before they could serve, refused, and never served
// (on_fail hold: serving stays on version 0). Hosted scores a staged sampler path; SkyRL-train,
// whose sampler paths load into the training model, scores with `forward` on the training model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import pino from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { startServer } from '../../src/app/index.ts';
import { startEmbeddedTinker } from '../support/embedded-tinker.ts';
import { startTinkerRecorder } from '../support/tinker-recorder.ts';
import { tempDir } from '../support/temp.ts';
import { LIKED, feedLikedAnswer, invertAdvantages, metricsLines } from '../support/train-sessions.ts';

/** The stand-in of `profile`, a recorder in front of it, and a training server gated on held-out turns. */
async function startGated(profile: 'hosted' | 'skyrl-jax' | 'skyrl-train', onFail: 'hold' | 'rollback') {
  const tinker = await startEmbeddedTinker({ ctx: 96, baseModel: 'openclaw-rl-embedded', profile });
  const rec = await startTinkerRecorder(tinker.url);
  const out = tempDir('ocrl-tinker-gate-');
  const config = parseConfig(
    {
      mode: 'openclaw-rl',
      output_dir: out,
      server: { port: 0 },
      tinker: { base_url: rec.url, base_model: 'openclaw-rl-embedded', server: profile },
      rollout: { provider: 'tinker', model_id: 'openclaw-rl-embedded', tokenizer: tinker.checkpoint, temperature: 1, max_tokens: 8 },
      training: { batch_size: 2, lr: 1e-2, epochs: 1 },
      evaluation: {
        holdout_fraction: 0.4,
        gate: { metric: 'holdout_reward_logprob', max_drop: 0, min_samples: 2, on_fail: onFail },
      },
    },
    { env: {} },
  );
  const server = await startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  return { tinker, rec, out, server };
}

for (const profile of ['hosted', 'skyrl-train'] as const) {
  test(`${profile} Tinker: the gate scores the trained weights and refuses inverted training; serving stays on version 0`, {
    timeout: 240_000,
  }, async () => {
    const { tinker, rec, out, server } = await startGated(profile, 'hold');
    try {
      const engine = server.engine!;
      invertAdvantages(engine);
      await feedLikedAnswer(server, 12, 180_000);
      const metrics = metricsLines(out);
      const checked = metrics.filter((m) => m.gate_candidate !== undefined);
      assert.ok(checked.length > 0, `the gate checked versions: ${JSON.stringify(metrics)}`);
      assert.ok(
        checked.every((m) => m.gate_passed === 0 && m.gate_drop > 0 && m.gate_candidate < m.gate_baseline),
        `inverted training lowered the held-out metric and was refused: ${JSON.stringify(checked)}`,
      );
      assert.equal(server.channel.version(), 0, 'serving stayed on the base version');
      assert.equal(engine.version(), 0);
      assert.ok((server.store.dropsByReason().rejected ?? 0) > 0, "refused batches are kept as 'rejected'");
      const saves = rec.requests.filter((r) => r.path === '/save_weights_for_sampler');
      const forwards = rec.requests.filter((r) => r.path === '/forward');
      if (profile === 'hosted') {
        // Each refused step staged its trained state once (the candidate's held-out scores); nothing served it.
        assert.equal(saves.length, checked.length, 'one staged sampler save per checked version');
        assert.equal(forwards.length, 0);
      } else {
        // Nothing staged: a sampler path would load into the training model's adapter slot.
        assert.equal(saves.length, 0, 'no sampler save: nothing was published');
        assert.ok(forwards.length >= checked.length, `the training model scored the candidates: ${forwards.length} forward calls`);
      }
      assert.equal((engine as any).samplerPath(), undefined, 'the base model still serves');
      // on_fail hold: the training state kept the refused training (it differs from the served one).
      const trained = (await engine.scoreTrained!(LIKED)).logprobs;
      const served = (await engine.score(LIKED)).logprobs;
      assert.ok(
        trained.reduce((a, b) => a + b, 0) < served.reduce((a, b) => a + b, 0),
        `held training state is worse: ${trained} vs ${served}`,
      );
    } finally {
      await server.close();
      await rec.close();
      await tinker.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
}

// SkyRL-JAX samples through the training adapter, so a refused version has already answered; the
// gate's on_fail rollback must put the serving version's state back (loaded into a new training
// model, then published), so the adapter that answers is no longer the refused one.
test('skyrl-jax Tinker: a refused version is rolled back to the serving state in a new training model', { timeout: 240_000 }, async () => {
  const { tinker, rec, out, server } = await startGated('skyrl-jax', 'rollback');
  try {
    const engine = server.engine!;
    invertAdvantages(engine);
    await feedLikedAnswer(server, 12, 180_000);
    const checked = metricsLines(out).filter((m) => m.gate_candidate !== undefined);
    assert.ok(checked.length > 0, 'the gate checked versions');
    assert.ok(
      checked.every((m) => m.gate_passed === 0 && m.gate_candidate < m.gate_baseline),
      `inverted training was refused: ${JSON.stringify(checked)}`,
    );
    const paths = rec.requests.map((r) => r.path);
    assert.ok(paths.filter((p) => p === '/forward').length >= checked.length, 'scored with forward');
    // The serving version is the base model (a checkpoint with no tinker.json): each rollback
    // unloads the refused training model and the next step trains a new one from the base.
    assert.ok(paths.filter((p) => p === '/unload_model').length >= checked.length, `refused models unloaded: ${paths.join(' ')}`);
    assert.ok(paths.filter((p) => p === '/create_model').length >= checked.length, 'a new training model per rollback');
    assert.equal(server.channel.version(), 0, 'the base model still serves');
    // No failed steps: a failure after optim_step would retrain the batch on moved weights.
    assert.ok(metricsLines(out).every((m) => m.train_rollout_logprob_abs_diff === undefined || m.train_rollout_logprob_abs_diff < 1e-3));
    // The training state is the serving one again: the trained weights score LIKED as the served ones do.
    const trained = (await engine.scoreTrained!(LIKED)).logprobs;
    const served = (await engine.score(LIKED)).logprobs;
    trained.forEach((v, i) => assert.ok(Math.abs(v - served[i]) < 1e-3, `restored ${trained} vs served ${served}`));
  } finally {
    await server.close();
    await rec.close();
    await tinker.close();
    rmSync(out, { recursive: true, force: true });
  }
});
