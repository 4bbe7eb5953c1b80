// The whole loop over the Tinker protocol against the embedded Tinker server, with a recorder in
// between to check the wire: `train` with rollout.provider tinker serves chats from asample, the
// judged turn becomes a sample, the trainer sends forward_backward + optim_step +
// save_weights_for_sampler, and the next answer is sampled from the new sampler path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { startServer } from '../../src/app/index.ts';
import { startEmbeddedTinker } from '../support/embedded-tinker.ts';
import { tinkerTrainConfig } from '../support/tinker-child-config.ts';
import { startTinkerRecorder } from '../support/tinker-recorder.ts';
import { until } from '../gateway/expect.ts';
import { postJson } from '../support/harness.ts';
import { tempDir } from '../support/temp.ts';

test('train with rollout.provider tinker: chat → judged sample → Tinker step → the next answer uses the new sampler path', async () => {
  const tinker = await startEmbeddedTinker({ ctx: 256 });
  const wire = await startTinkerRecorder(tinker.url);
  const out = tempDir('ocrl-tinker-loop-');
  const config = tinkerTrainConfig(wire.url, out, tinker.baseModel, { tokenizer: tinker.checkpoint, max_tokens: 32 });
  const server = await startServer(config, { train: true, trainerPollMs: 20, log: pino({ level: 'silent' }) });
  try {
    const headers = { 'x-session-id': 's1' };
    const first = await postJson(`${server.url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'list the files' }] }, headers);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const asample = wire.requests.find((r) => r.path === '/asample')!.body;
    // Sampled through a sampling session on the base model, as the SDK does (sampling_client.py).
    const session = wire.requests.find((r) => r.path === '/create_sampling_session')!.body;
    assert.equal(session.base_model, tinker.baseModel);
    assert.equal(typeof asample.sampling_session_id, 'string');
    assert.equal(asample.seq_id, 0);
    assert.equal(asample.sampling_params.temperature, 1);
    assert.ok(asample.prompt.chunks[0].tokens.length > 3, 'the chat template was rendered and encoded');
    const sampled = wire.results('sequences')[0].sequences[0];
    assert.equal(first.body.usage.completion_tokens, sampled.tokens.length);
    const answer = first.body.choices[0].message;
    await postJson(
      `${server.url}/v1/chat/completions`,
      {
        messages: [
          { role: 'user', content: 'list the files' },
          { role: 'assistant', content: answer.content },
          { role: 'user', content: 'thanks, perfect!' },
        ],
      },
      { ...headers, 'x-session-done': 'true' },
    );
    await until(() => wire.paths().includes('/save_weights_for_sampler'), 20_000, 'a published step');
    const fb = wire.requests.find((r) => r.path === '/forward_backward')!.body;
    const datum = fb.forward_backward_input.data[0];
    // the recorded response ids and log-probs are the sampled ones, unchanged: the datum ends with them
    const n = sampled.tokens.length;
    assert.deepEqual(datum.loss_fn_inputs.target_tokens.data.slice(-n), sampled.tokens);
    assert.deepEqual(
      datum.loss_fn_inputs.logprobs.data.slice(-n).map((x: number) => x.toFixed(5)),
      sampled.logprobs.map((x: number) => x.toFixed(5)),
    );
    await until(() => server.channel.version() === 1, 10_000, 'version 1');
    await postJson(`${server.url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'again' }] }, { 'x-session-id': 's2' });
    const last = wire.requests.filter((r) => r.path === '/asample').pop()!.body;
    // a new sampling session on the published sampler path
    const lastSession = wire.requests.filter((r) => r.path === '/create_sampling_session').pop()!.body;
    assert.match(String(lastSession.model_path), /^tinker:\/\/[^/]+\/sampler_weights\//);
    assert.notEqual(last.sampling_session_id, asample.sampling_session_id);
    await until(() => wire.paths().includes('/save_weights'), 10_000, 'save_weights (save_interval 1)');
  } finally {
    await server.close();
    await wire.close();
    await tinker.close();
  }
});
