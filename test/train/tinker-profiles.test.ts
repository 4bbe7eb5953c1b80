// The whole loop against every server profile the stand-in emulates (engine serve --tinker
// --profile hosted | skyrl-jax | skyrl-train: each one's prompt-logprob shape, loss reduction,
// optimizer fields, idempotency, sampler paths): chats → rules judge → the teacher's prompt
// log-probs through Tinker → a step → the next answer from the new sampler → a restart that
// resumes from the checkpoint and trains on. The client detects the profile itself (tinker.server: auto).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { startServer, type RunningServer } from '../../src/app/index.ts';
import { startEmbeddedTinker } from '../support/embedded-tinker.ts';
import { tempDir } from '../support/temp.ts';
import { chat, until } from '../support/train-sessions.ts';

/** One praised and one corrected session: an RL sample and a hinted one the teacher scores. */
async function sessions(server: RunningServer, tag: string): Promise<void> {
  const q1 = [{ role: 'user', content: 'hello there, how can I help you today?' }];
  const a1 = await chat(server.url, `${tag}-1`, q1);
  await chat(
    server.url,
    `${tag}-1`,
    [...q1, { role: 'assistant', content: a1 }, { role: 'user', content: 'thanks, that is perfect!' }],
    true,
  );
  const q2 = [{ role: 'user', content: 'the answer is four.' }];
  const a2 = await chat(server.url, `${tag}-2`, q2);
  await chat(
    server.url,
    `${tag}-2`,
    [...q2, { role: 'assistant', content: a2 }, { role: 'user', content: 'That is wrong, use a numbered list instead.' }],
    true,
  );
}

for (const profile of ['hosted', 'skyrl-jax', 'skyrl-train'] as const) {
  test(`the loop against the ${profile} profile: judge, teacher through Tinker, a step, the new sampler, resume`, {
    timeout: 240_000,
  }, async () => {
    const tinker = await startEmbeddedTinker({ ctx: 256, baseModel: 'openclaw-rl-embedded', profile });
    const out = tempDir(`ocrl-profile-${profile}-`);
    const config = parseConfig(
      {
        mode: 'openclaw-combine',
        output_dir: out,
        server: { port: 0 },
        tinker: { base_url: tinker.url, base_model: 'openclaw-rl-embedded' },
        rollout: { provider: 'tinker', model_id: 'openclaw-rl-embedded', tokenizer: tinker.checkpoint, temperature: 1, max_tokens: 16 },
        judge: { provider: 'rules' },
        teacher: { logprob_api: 'tinker' },
        scoring: { majority_vote: 1, distill_topk: 0 },
        training: { batch_size: 2, lr: 0.002, epochs: 1, save_interval: 1 },
      },
      { env: {} },
    );
    const start = () => startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
    let server = await start();
    try {
      await sessions(server, 'a');
      await until('a step', () => (server.trainer?.step ?? 0) >= 1, 120_000);
      const line = readFileSync(join(out, 'logs', 'train.log'), 'utf8')
        .trim()
        .split('\n')[0];
      assert.match(line, /step=1 policy_version=1 /);
      assert.ok(Number(/hint_accept_rate=(\S+)/.exec(line)?.[1]) > 0, `the teacher scored the hinted turn through ${profile}: ${line}`);
      const h = await (await fetch(`${server.url}/healthz`)).json();
      assert.equal(h.status, 'ok', JSON.stringify(h));
      assert.match(JSON.stringify(h), new RegExp(profile));
      // The next answer comes from the new sampler weights.
      await chat(server.url, 'after', [{ role: 'user', content: 'please be brief.' }]);
      const view = await (await fetch(`${server.url}/sessions/after`)).json();
      assert.equal(view.turns[0].policy_version, 1);
      await server.close();

      // Restart: resumes from the checkpoint, serves version 1 at once, and trains on.
      server = await start();
      assert.equal(server.resume?.step, 1);
      assert.equal(server.channel.version(), 1);
      await chat(server.url, 'resumed', [{ role: 'user', content: 'please be brief.' }]);
      const resumed = await (await fetch(`${server.url}/sessions/resumed`)).json();
      assert.equal(resumed.turns[0].policy_version, 1, 'answered by the resumed sampler');
      await sessions(server, 'b');
      await until('a step after the restart', () => (server.trainer?.step ?? 0) >= 2, 120_000);
      assert.equal(server.channel.version(), 2);
    } finally {
      await server.close();
      await tinker.close();
    }
  });
}
