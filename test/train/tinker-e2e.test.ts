// End to end on this CPU over the real Tinker protocol: `openclaw-rl train --config
// configs/tinker-local.yaml` (a temp copy: batch 2, save every step, a tiny checkpoint) as a child
// process against the embedded Tinker server. The official `openai` client chats (streamed and
// not), the rules judge scores the replies, the teacher scores through Tinker, two judged turns
// make one step (forward_backward + optim_step + save_weights_for_sampler), logs/train.log gets
// the usual keys, and the next answer comes from the new sampler weights (policy_version 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parseDocument } from 'yaml';
import { STEP_KEYS } from '../../src/trainer/index.ts';
import { startEmbeddedTinker } from '../support/embedded-tinker.ts';
import { until } from '../gateway/expect.ts';
import { tempDir } from '../support/temp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'openclaw-rl.js');

/** configs/tinker-local.yaml with the test's sizes; URLs and folders come in through its ${VARS}. */
function testConfig(dir: string): string {
  const doc = parseDocument(readFileSync(join(ROOT, 'configs', 'tinker-local.yaml'), 'utf8'));
  doc.setIn(['training', 'batch_size'], 2);
  doc.setIn(['training', 'save_interval'], 1);
  doc.setIn(['training', 'epochs'], 1);
  doc.setIn(['rollout', 'max_tokens'], 24);
  const path = join(dir, 'tinker-local.yaml');
  writeFileSync(path, doc.toString());
  return path;
}

test('train --config configs/tinker-local.yaml against the embedded Tinker server: openai chats → judged samples → a Tinker step → the next answer from the new sampler weights', {
  timeout: 240_000,
}, async () => {
  const tinker = await startEmbeddedTinker({ ctx: 256, baseModel: 'openclaw-rl-embedded' });
  const dir = tempDir('ocrl-tinker-e2e-');
  const out = join(dir, 'run');
  const env = {
    ...process.env,
    OPENCLAW_RL_LOG_LEVEL: 'warn',
    TINKER_BASE_URL: tinker.url,
    OPENCLAW_RL_TOKENIZER: tinker.checkpoint,
    OPENCLAW_RL_OUTPUT_DIR: out,
  };
  const child = spawn(process.execPath, [BIN, 'train', '--config', testConfig(dir), '--port', '0'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /serving .* at (http:\/\/\S+\/v1) \(mode openclaw-combine, training\)/.exec(stderr);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`train exited ${code}: ${stderr}`)));
    });
    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    const model = 'openclaw-rl-embedded';

    // Session 1, not streamed; the user is happy (+1).
    const q1 = [{ role: 'user' as const, content: 'hello there, how can I help you today?' }];
    const a1 = await client.chat.completions.create({ model, messages: q1 }, { headers: { 'x-session-id': 'e2e-1' } });
    assert.equal(a1.choices[0].message.role, 'assistant');
    assert.equal(typeof a1.choices[0].message.content, 'string');
    assert.ok(a1.usage!.completion_tokens > 0 && a1.usage!.completion_tokens <= 24, `completion_tokens ${a1.usage!.completion_tokens}`);
    assert.equal((a1 as unknown as { policy_version: number }).policy_version, 0);
    await client.chat.completions.create(
      {
        model,
        messages: [
          ...q1,
          { role: 'assistant', content: a1.choices[0].message.content },
          { role: 'user', content: 'thanks, that is perfect!' },
        ],
      },
      { headers: { 'x-session-id': 'e2e-1', 'x-session-done': 'true' } },
    );

    // Session 2, streamed; the user corrects the answer (−1 with a hint: the teacher scores it through Tinker).
    const q2 = [{ role: 'user' as const, content: 'the answer is four.' }];
    const stream = await client.chat.completions.create({ model, messages: q2, stream: true }, { headers: { 'x-session-id': 'e2e-2' } });
    let text = '';
    let chunks = 0;
    let finish: string | null = null;
    for await (const c of stream) {
      chunks++;
      text += c.choices[0]?.delta?.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    assert.ok(chunks >= 2, `streamed as chunks (${chunks})`);
    assert.ok(finish === 'stop' || finish === 'length', `finish_reason ${finish}`);
    await client.chat.completions.create(
      {
        model,
        messages: [...q2, { role: 'assistant', content: text }, { role: 'user', content: 'That is wrong, use a numbered list instead.' }],
      },
      { headers: { 'x-session-id': 'e2e-2', 'x-session-done': 'true' } },
    );

    // Two judged turns → one Tinker step, logged with the embedded trainer's keys.
    const trainLog = join(out, 'logs', 'train.log');
    await until(
      () => existsSync(trainLog) && readFileSync(trainLog, 'utf8').includes('step=1'),
      180_000,
      `a logged step (train stderr: ${stderr})`,
    );
    const line = readFileSync(trainLog, 'utf8').trim().split('\n')[0];
    const kv = Object.fromEntries(
      line
        .split(/\s+/)
        .filter((p) => p.includes('='))
        .map((p) => p.split('=') as [string, string]),
    );
    for (const key of [
      'advantage_mean',
      'advantage_std',
      'effective_sample_rate',
      'reward_mean',
      'pg_loss',
      'pg_clipfrac',
      'ppo_kl',
      'entropy',
      'staleness_mean',
      'train_rollout_logprob_abs_diff',
    ]) {
      assert.ok(key in kv, `train.log has ${key}: ${line}`);
      assert.ok(Number.isFinite(Number(kv[key])), `${key}=${kv[key]} is a number`);
    }
    assert.ok(STEP_KEYS.includes('pg_loss' as never), "the keys are the trainer's own");
    assert.equal(Number(kv.policy_version), 1, line);
    assert.equal(Number(kv.batch_size), 2, line);
    assert.ok(Number(kv.hint_accept_rate) > 0, `the corrected turn's hint was accepted and scored by the Tinker teacher: ${line}`);
    // Sampler and learner are the same weights at T = 1: the recorded log-probs match the learner's.
    assert.ok(Number(kv.train_rollout_logprob_abs_diff) < 1e-4, line);
    // A new sampler snapshot and (save_interval 1) a training state were saved on the Tinker server.
    const modelDirs = readdirSync(tinker.stateDir);
    assert.ok(
      modelDirs.some((m) => existsSync(join(tinker.stateDir, m, 'sampler_weights'))),
      `sampler weights under ${tinker.stateDir}: ${modelDirs}`,
    );
    const ckpt = join(out, 'checkpoints', 'step-000001', 'tinker.json');
    const saved = () => (existsSync(ckpt) ? JSON.parse(readFileSync(ckpt, 'utf8')) : {});
    await until(() => saved().weights_path != null, 30_000, 'a saved training state in checkpoints/step-000001/tinker.json');
    assert.match(saved().weights_path, /^tinker:\/\/.*\/weights\//);
    assert.match(saved().sampler_path, /^tinker:\/\/.*\/sampler_weights\//);

    // The next answer is sampled from the new sampler path.
    const a3 = await client.chat.completions.create(
      { model, messages: [{ role: 'user', content: 'please be brief.' }] },
      { headers: { 'x-session-id': 'e2e-3' } },
    );
    assert.equal((a3 as unknown as { policy_version: number }).policy_version, 1);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await tinker.close();
  }
});
