// The stand-in's server profiles over loopback HTTP: one test per difference between hosted
// Tinker, SkyRL-JAX and SkyRL-Train, each asserting the real server's answer (shapes, statuses,
// error texts; sources cited in profiles.ts and docs/tinker-local.md).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { startEmbeddedTinker, type EmbeddedTinker } from '../../../test/support/embedded-tinker.ts';
import type { TinkerProfileName } from './profiles.ts';

const BASE = 'tiny-embedded';
const servers = {} as Record<TinkerProfileName | 'jax2', EmbeddedTinker>;
let checkpoint: string;

before(async () => {
  servers.hosted = await startEmbeddedTinker({ baseModel: BASE, profile: 'hosted' });
  checkpoint = servers.hosted.checkpoint;
  const engine = servers.hosted.engine;
  // Short long-polls and a fast reaper so 408s and session expiry happen within a test.
  const skyrl = { pollMs: 30, sessionTimeoutMs: 400, sessionCleanupMs: 100 };
  servers['skyrl-jax'] = await startEmbeddedTinker({ baseModel: BASE, checkpoint, engine, profile: 'skyrl-jax', ...skyrl });
  servers['skyrl-train'] = await startEmbeddedTinker({ baseModel: BASE, checkpoint, engine, profile: 'skyrl-train', ...skyrl });
  servers.jax2 = await startEmbeddedTinker({ baseModel: BASE, checkpoint, engine, profile: 'skyrl-jax', maxLoraAdapters: 2, ...skyrl });
});

after(async () => {
  for (const name of ['jax2', 'skyrl-train', 'skyrl-jax', 'hosted'] as const) await servers[name]?.close();
});

type Reply = { status: number; json: any; text: string };

async function call(name: keyof typeof servers, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
  const res = await request(`${servers[name].url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // plain text (FastAPI's 500)
  }
  return { status: res.statusCode, json, text };
}
const post = (name: keyof typeof servers, path: string, body: unknown) => call(name, 'POST', path, body);

/** Polls a future as each server wants: hosted try_again, SkyRL 408. Returns the final reply. */
async function future(name: keyof typeof servers, requestId: string): Promise<Reply> {
  for (;;) {
    const r = await post(name, '/api/v1/retrieve_future', { request_id: requestId, allow_metadata_only: false });
    if (r.status === 408 || r.json?.type === 'try_again') continue;
    return r;
  }
}

/** Submits and returns the successful result. */
async function submit(name: keyof typeof servers, path: string, body: unknown): Promise<any> {
  const r = await post(name, path, body);
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  const f = await future(name, r.json.request_id);
  assert.equal(f.status, 200, `${path} future: ${f.text}`);
  return f.json;
}

async function newSession(name: keyof typeof servers): Promise<string> {
  const r = await post(name, '/api/v1/create_session', { tags: [], user_metadata: {}, sdk_version: '0.19.0' });
  assert.equal(r.status, 200, r.text);
  return r.json.session_id;
}

let modelSeq = 0;
async function createModel(name: keyof typeof servers, session: string, rank = 32): Promise<{ reply: Reply; result: Reply }> {
  const reply = await post(name, '/api/v1/create_model', {
    session_id: session,
    model_seq_id: modelSeq++,
    base_model: BASE,
    lora_config: { rank, seed: null, train_unembed: true, train_mlp: true, train_attn: true },
  });
  assert.equal(reply.status, 200, reply.text);
  return { reply, result: await future(name, reply.json.request_id) };
}

async function newModel(name: keyof typeof servers, session?: string): Promise<string> {
  const { reply, result } = await createModel(name, session ?? (await newSession(name)));
  assert.equal(result.status, 200, result.text);
  return reply.json.model_id;
}

const chunks = (tokens: number[]) => ({ chunks: [{ type: 'encoded_text', tokens }] });
const tensor = (data: number[], dtype = 'float32') => ({ data, dtype, shape: [data.length] });
const SEQ = [3, 9, 4, 7, 12, 5, 8, 2, 6];
const N = SEQ.length - 1; // model_input positions
const K = 3; // response positions (advantage 1)

/** An importance_sampling datum over SEQ: advantages 1 on the last K positions, old log-probs 0. */
function isDatum(weights?: number[]) {
  const inputs: Record<string, unknown> = {
    target_tokens: tensor(SEQ.slice(1), 'int64'),
    logprobs: tensor(Array(N).fill(0)),
    advantages: tensor(Array.from({ length: N }, (_, i) => (i >= N - K ? 1 : 0))),
  };
  if (weights !== undefined) inputs.weights = tensor(weights);
  return { model_input: chunks(SEQ.slice(0, -1)), loss_fn_inputs: inputs };
}

const seqs = new Map<string, number>();
const nextSeq = (model: string) => {
  const s = (seqs.get(model) ?? 0) + 1;
  seqs.set(model, s);
  return s;
};

/** The gradient norm one forward_backward gives (optim_step at learning rate 0 reports it and moves nothing). */
async function gradNorm(name: TinkerProfileName, model: string, data: unknown[]): Promise<number> {
  await submit(name, '/api/v1/forward_backward', {
    model_id: model,
    seq_id: nextSeq(model),
    forward_backward_input: { loss_fn: 'importance_sampling', data },
  });
  const r = await submit(name, '/api/v1/optim_step', {
    model_id: model,
    seq_id: nextSeq(model),
    adam_params: { learning_rate: 0, beta1: 0.9, beta2: 0.95, eps: 1e-12, weight_decay: 0, grad_clip_norm: 0 },
  });
  return r.metrics.grad_norm ?? r.metrics['skyrl.ai/grad_norm'];
}

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-3 * Math.max(Math.abs(b), 1e-6), `${what}: ${a} vs ${b}`);

test('loss reduction: hosted sums (weights unused by RL losses), SkyRL-JAX takes a per-sequence mean over weights then a datum mean, SkyRL-Train a weighted sum', async () => {
  const hosted = await newModel('hosted');
  const g = await gradNorm('hosted', hosted, [isDatum()]);
  assert.ok(g > 0);
  close(await gradNorm('hosted', hosted, [isDatum(), isDatum()]), 2 * g, 'hosted, two datums = twice one');
  close(await gradNorm('hosted', hosted, [isDatum(Array(N).fill(0.5))]), g, 'hosted ignores weights for importance_sampling');

  const jax = await newModel('skyrl-jax');
  close(await gradNorm('skyrl-jax', jax, [isDatum()]), g / N, 'jax, no weights: mean over all N positions');
  close(await gradNorm('skyrl-jax', jax, [isDatum(), isDatum()]), g / N, 'jax: mean over datums');
  const mask = Array.from({ length: N }, (_, i) => (i >= N - K ? 1 : 0));
  close(await gradNorm('skyrl-jax', jax, [isDatum(mask)]), g / K, 'jax, weights = response mask: mean over the K response positions');

  const train = await newModel('skyrl-train');
  close(await gradNorm('skyrl-train', train, [isDatum()]), g, 'train, no weights: the sum');
  close(await gradNorm('skyrl-train', train, [isDatum(), isDatum()]), 2 * g, 'train sums datums');
  close(await gradNorm('skyrl-train', train, [isDatum(Array(N).fill(0.5))]), g / 2, 'train weights every loss');
});

test('forward_backward results: hosted loss:sum; SkyRL-JAX metrics {}; SkyRL-Train total_loss:sum/pg_loss:sum and logprobs only', async () => {
  const body = (model: string) => ({
    model_id: model,
    seq_id: nextSeq(model),
    forward_backward_input: { loss_fn: 'importance_sampling', data: [isDatum()] },
  });
  const h = await newModel('hosted');
  const hr = await submit('hosted', '/api/v1/forward_backward', body(h));
  assert.deepEqual(Object.keys(hr.metrics), ['loss:sum']);
  assert.deepEqual(Object.keys(hr.loss_fn_outputs[0]).sort(), ['elementwise_loss', 'logprobs']);
  const j = await newModel('skyrl-jax');
  const jr = await submit('skyrl-jax', '/api/v1/forward_backward', body(j));
  assert.deepEqual(jr.metrics, {});
  assert.deepEqual(Object.keys(jr.loss_fn_outputs[0]).sort(), ['elementwise_loss', 'logprobs']);
  const t = await newModel('skyrl-train');
  const tr = await submit('skyrl-train', '/api/v1/forward_backward', body(t));
  assert.deepEqual(Object.keys(tr.loss_fn_outputs[0]), ['logprobs']);
  for (const k of ['total_loss:sum', 'pg_loss:sum', 'num_tokens:sum', 'policy_lr:last', 'policy/rollout_train_logprobs_abs_diff_mean:mean'])
    assert.ok(k in tr.metrics, `${k} in ${JSON.stringify(tr.metrics)}`);
  assert.equal(tr.metrics['policy_lr:last'], 1e-6);
  close(tr.metrics['total_loss:sum'], hr.metrics['loss:sum'], 'train total_loss:sum = hosted loss:sum without weights');
});

test('optim_step: grad_clip_norm is an ignored field on SkyRL (200), metrics skyrl.ai/grad_norm and skyrl.ai/learning_rate', async () => {
  const adam = { learning_rate: 0.001, beta1: 0.9, beta2: 0.95, eps: 1e-12, weight_decay: 0, grad_clip_norm: 1e-9 };
  const h = await newModel('hosted');
  const hr = await submit('hosted', '/api/v1/optim_step', { model_id: h, seq_id: nextSeq(h), adam_params: adam });
  assert.ok('grad_norm' in hr.metrics && !('skyrl.ai/grad_norm' in hr.metrics));
  for (const name of ['skyrl-jax', 'skyrl-train'] as const) {
    const m = await newModel(name);
    const r = await submit(name, '/api/v1/optim_step', { model_id: m, seq_id: nextSeq(m), adam_params: adam });
    assert.deepEqual(Object.keys(r.metrics).sort(), ['skyrl.ai/grad_norm', 'skyrl.ai/learning_rate'], name);
    assert.equal(r.metrics['skyrl.ai/learning_rate'], 0.001);
  }
});

test('prompt_logprobs: hosted and SkyRL-Train give P entries with null first, SkyRL-JAX P−1 without; JAX refuses topk_prompt_logprobs', async () => {
  const prompt = [3, 9, 4, 7, 12];
  const sample = (name: TinkerProfileName, topk = 0) =>
    post(name, '/api/v1/asample', {
      prompt: chunks(prompt),
      num_samples: 1,
      sampling_params: { max_tokens: 1, temperature: 1, seed: 1 },
      base_model: BASE,
      prompt_logprobs: true,
      topk_prompt_logprobs: topk,
    });
  const out: Record<string, any> = {};
  for (const name of ['hosted', 'skyrl-jax', 'skyrl-train'] as const) {
    const r = await sample(name);
    assert.equal(r.status, 200, r.text);
    out[name] = (await future(name, r.json.request_id)).json;
  }
  assert.equal(out.hosted.prompt_logprobs.length, prompt.length);
  assert.equal(out.hosted.prompt_logprobs[0], null);
  assert.equal(out.hosted.type, 'sample');
  assert.deepEqual(out['skyrl-train'].prompt_logprobs, out.hosted.prompt_logprobs);
  assert.equal(out['skyrl-jax'].prompt_logprobs.length, prompt.length - 1);
  assert.deepEqual(out['skyrl-jax'].prompt_logprobs, out.hosted.prompt_logprobs.slice(1));
  assert.ok(!('type' in out['skyrl-jax']), 'SkyRL stores SampleOutput, which has no type');

  const jaxTopk = await sample('skyrl-jax', 2);
  assert.equal(jaxTopk.status, 200, 'accepted, then the future fails');
  const failed = await future('skyrl-jax', jaxTopk.json.request_id);
  assert.equal(failed.status, 400);
  assert.deepEqual(failed.json, { detail: 'topk_prompt_logprobs is not supported by the JAX backend' });
  const trainTopk = await future('skyrl-train', (await sample('skyrl-train', 2)).json.request_id);
  assert.equal(trainTopk.json.topk_prompt_logprobs.length, prompt.length);
  assert.equal(trainTopk.json.topk_prompt_logprobs[0], null);
});

test('SkyRL idempotency: (model, seq_id) only for forward_backward/forward/optim_step; save_weights again 409, load_weights late 400', async () => {
  const m = await newModel('skyrl-jax');
  const fb = { model_id: m, seq_id: 7, forward_backward_input: { loss_fn: 'importance_sampling', data: [isDatum()] } };
  // seq_id orders nothing on SkyRL: 7 runs without 1…6 ever arriving.
  const first = await post('skyrl-jax', '/api/v1/forward_backward', fb);
  assert.equal(first.status, 200);
  assert.deepEqual(Object.keys(first.json).sort(), ['future_id', 'request_id', 'status']);
  assert.match(first.json.request_id, /^\d+$/);
  assert.equal((await future('skyrl-jax', first.json.request_id)).status, 200);
  assert.equal((await post('skyrl-jax', '/api/v1/forward_backward', fb)).json.request_id, first.json.request_id);
  const other = await post('skyrl-jax', '/api/v1/optim_step', { model_id: m, seq_id: 7, adam_params: { learning_rate: 0 } });
  assert.equal(other.status, 409);
  assert.deepEqual(other.json, { detail: 'Training request sequence number was reused' });

  const save = { model_id: m, path: 'ck1', seq_id: 8 };
  assert.equal((await future('skyrl-jax', (await post('skyrl-jax', '/api/v1/save_weights', save)).json.request_id)).status, 200);
  const again = await post('skyrl-jax', '/api/v1/save_weights', save);
  assert.equal(again.status, 409);
  assert.deepEqual(again.json, { detail: `Checkpoint 'ck1' already exists for model '${m}'` });
  const load = await post('skyrl-jax', '/api/v1/load_weights', {
    model_id: m,
    path: `tinker://${m}/weights/ck1`,
    seq_id: 9,
    optimizer: true,
  });
  assert.equal(load.status, 400);
  assert.deepEqual(load.json, { detail: 'LoadWeights is not permitted with seq_id 9' });

  // Hosted: the same save under the same seq_id is the same call (a retry), not a second one.
  const h = await newModel('hosted');
  const hs = { model_id: h, path: 'ck1', seq_id: 1 };
  const h1 = await post('hosted', '/api/v1/save_weights', hs);
  assert.equal((await post('hosted', '/api/v1/save_weights', hs)).json.request_id, h1.json.request_id);
});

test('SkyRL futures and errors: 408 long-poll, 404 unknown ids, 500 non-integer id, 400 {detail} failures, 422 validation, FastAPI 404 route', async () => {
  const r = await post('skyrl-jax', '/api/v1/asample', {
    prompt: chunks([1, 2, 3]),
    num_samples: 8,
    sampling_params: { max_tokens: 40, temperature: 1, seed: 3 },
    base_model: BASE,
  });
  const poll = await post('skyrl-jax', '/api/v1/retrieve_future', { request_id: r.json.request_id });
  assert.equal(poll.status, 408);
  assert.deepEqual(poll.json, { detail: 'Timeout waiting for result' });
  await future('skyrl-jax', r.json.request_id);
  assert.deepEqual((await post('skyrl-jax', '/api/v1/retrieve_future', { request_id: '999999' })).json, { detail: 'Future not found' });
  const nonInt = await post('skyrl-jax', '/api/v1/retrieve_future', { request_id: 'abc-1' });
  assert.equal(nonInt.status, 500);
  assert.equal(nonInt.text, 'Internal Server Error');
  assert.deepEqual((await post('skyrl-jax', '/api/v1/get_info', { model_id: 'model_nope' })).json, { detail: 'Model not found' });
  const wrongBase = await post('skyrl-jax', '/api/v1/asample', {
    prompt: chunks([1, 2]),
    sampling_params: { max_tokens: 1 },
    base_model: 'other',
  });
  assert.equal(wrongBase.status, 200, 'the engine, not the API, checks the base model');
  assert.deepEqual((await future('skyrl-jax', wrongBase.json.request_id)).json, {
    detail: `Engine is configured for '${BASE}' but request specified 'other'`,
  });
  const noMax = await post('skyrl-jax', '/api/v1/asample', { prompt: chunks([1, 2]), sampling_params: {}, base_model: BASE });
  assert.deepEqual([noMax.status, noMax.json], [400, { detail: 'max_tokens is currently required' }]);
  const noTags = await post('skyrl-jax', '/api/v1/create_session', { sdk_version: '0.19.0' });
  assert.equal(noTags.status, 422);
  assert.deepEqual(noTags.json.detail[0].loc, ['body', 'tags']);
  assert.equal(noTags.json.detail[0].type, 'missing');
  assert.equal((await post('hosted', '/api/v1/create_session', { sdk_version: '0.19.0' })).status, 200);
  const noRoute = await post('skyrl-jax', '/api/v1/client/dynamic_config', { sdk_version: '0.25.0' });
  assert.deepEqual([noRoute.status, noRoute.json], [404, { detail: 'Not Found' }]);
});

test('detection: client/config, GET /, get_server_capabilities, create_model and get_info answer as each real server does', async () => {
  const hc = await post('hosted', '/api/v1/client/config', { sdk_version: '0.25.0' });
  assert.equal(hc.json.pjwt_auth_enabled, false);
  assert.equal(hc.json.proto_write_fwdbwd, false);
  assert.equal(hc.json.fwdbwd_max_chunk_len, 1024);
  assert.equal((await post('hosted', '/api/v1/client/dynamic_config', { sdk_version: '0.25.0' })).json.refresh_interval_sec, 300);
  for (const name of ['skyrl-jax', 'skyrl-train'] as const) {
    assert.deepEqual((await post(name, '/api/v1/client/config', { sdk_version: '0.25.0' })).json, { pjwt_auth_enabled: false });
    assert.equal((await call(name, 'GET', '/')).json.name, 'Tinker API Mock');
    assert.deepEqual((await call(name, 'GET', '/api/v1/get_server_capabilities')).json, { supported_models: [{ model_name: BASE }] });
    assert.deepEqual((await call(name, 'GET', '/api/v1/healthz')).json, { status: 'ok' });
    const { reply, result } = await createModel(name, await newSession(name));
    assert.deepEqual(Object.keys(reply.json).sort(), ['base_model', 'lora_config', 'model_id', 'request_id', 'status']);
    assert.equal(reply.json.status, 'created');
    assert.deepEqual(result.json.lora_config.alpha, 32);
    assert.equal(result.json.lora_config.train_unembed, false);
    const info = (await post(name, '/api/v1/get_info', { model_id: reply.json.model_id })).json;
    assert.deepEqual(info, {
      model_id: reply.json.model_id,
      status: 'created',
      model_data: { base_model: BASE, lora_config: { rank: 32, seed: null }, model_name: BASE },
    });
  }
  assert.notEqual((await call('hosted', 'GET', '/')).json?.name, 'Tinker API Mock');
  const hostedInfo = (await post('hosted', '/api/v1/get_info', { model_id: await newModel('hosted') })).json;
  assert.equal(hostedInfo.type, 'get_info');
});

test('SkyRL sampler paths: tinker://<model>/<name> from save_weights_for_sampler, both forms sample; sampling sessions need seq_id', async () => {
  const session = await newSession('skyrl-train');
  const m = await newModel('skyrl-train', session);
  const saved = await submit('skyrl-train', '/api/v1/save_weights_for_sampler', { model_id: m, path: 's1', seq_id: 1 });
  assert.deepEqual(saved, { path: `tinker://${m}/s1`, type: 'save_weights_for_sampler', sampling_session_id: null });
  for (const modelPath of [saved.path, `tinker://${m}/sampler_weights/s1`]) {
    const r = await submit('skyrl-train', '/api/v1/asample', {
      prompt: chunks([1, 2]),
      sampling_params: { max_tokens: 2 },
      model_path: modelPath,
    });
    assert.equal(r.sequences.length, 1);
  }
  const anon = await submit('skyrl-train', '/api/v1/save_weights_for_sampler', { model_id: m, sampling_session_seq_id: 0, seq_id: 2 });
  assert.equal(anon.path, null);
  assert.match(anon.sampling_session_id, /^sampling_[0-9a-f]{8}$/);
  const noSeq = await post('skyrl-train', '/api/v1/asample', {
    prompt: chunks([1, 2]),
    sampling_params: { max_tokens: 2 },
    sampling_session_id: anon.sampling_session_id,
  });
  assert.equal(noSeq.status, 422);
  const ss = await post('skyrl-train', '/api/v1/create_sampling_session', {
    session_id: session,
    sampling_session_seq_id: 1,
    base_model: BASE,
  });
  assert.equal(ss.status, 200);
  const viaSession = await submit('skyrl-train', '/api/v1/asample', {
    prompt: chunks([1, 2]),
    sampling_params: { max_tokens: 2 },
    sampling_session_id: ss.json.sampling_session_id,
    seq_id: 0,
  });
  assert.equal(viaSession.sequences.length, 1);
  const missing = await post('skyrl-train', '/api/v1/asample', {
    prompt: chunks([1, 2]),
    sampling_params: { max_tokens: 2 },
    model_path: `tinker://${m}/nope`,
  });
  assert.deepEqual([missing.status, missing.json], [404, { detail: `Checkpoint not found: ${m}/nope` }]);
});

test('SkyRL sessions: a session that never sent a heartbeat is never reaped; a stale one loses its models (unloaded, futures fail)', async () => {
  const quiet = await newSession('skyrl-jax');
  const quietModel = await newModel('skyrl-jax', quiet);
  const beating = await newSession('skyrl-jax');
  const beatingModel = await newModel('skyrl-jax', beating);
  assert.equal((await post('skyrl-jax', '/api/v1/session_heartbeat', { session_id: beating })).status, 200);
  await sleep(900); // > timeout 400 ms + one cleanup interval
  assert.equal((await post('skyrl-jax', '/api/v1/get_info', { model_id: quietModel })).json.status, 'created');
  assert.equal((await post('skyrl-jax', '/api/v1/get_info', { model_id: beatingModel })).json.status, 'unloaded');
  assert.equal(servers['skyrl-jax'].service.sessionInfo(beating)?.status, 'expired');
  assert.equal(servers['skyrl-jax'].service.sessionInfo(quiet)?.lastHeartbeat, null);
  const fb = await post('skyrl-jax', '/api/v1/forward_backward', {
    model_id: beatingModel,
    seq_id: 1,
    forward_backward_input: { loss_fn: 'importance_sampling', data: [isDatum()] },
  });
  assert.equal(fb.status, 200, 'the row stays: accepted');
  assert.deepEqual((await future('skyrl-jax', fb.json.request_id)).json, { detail: `Model ${beatingModel} not loaded` });
  const un = await submit('skyrl-jax', '/api/v1/unload_model', { model_id: beatingModel });
  assert.deepEqual(un, { model_id: beatingModel, status: 'unloaded', type: 'unload_model' });
});

test('LoRA slots (skyrl-jax, max_lora_adapters 2: one slot is the base) and SkyRL-Train multi-tenancy: the real error texts', async () => {
  const session = await newSession('jax2');
  const first = await newModel('jax2', session);
  const full = await createModel('jax2', session);
  assert.equal(full.reply.status, 200, 'create_model is accepted; the backend refuses it');
  assert.deepEqual([full.result.status, full.result.json], [400, { detail: 'Maximum number of LoRA adapters (2) reached' }]);
  await submit('jax2', '/api/v1/unload_model', { model_id: first });
  const rank0 = await createModel('jax2', session, 0);
  assert.deepEqual(rank0.result.json, { detail: 'LoRA rank 0 must be between 1 and 32' });
  assert.equal((await createModel('jax2', session)).result.status, 200, 'the freed slot is used again');

  const s = await newSession('skyrl-train');
  await newModel('skyrl-train', s); // rank 32 (earlier tests made rank-32 models too)
  const fft = await createModel('skyrl-train', s, 0);
  assert.deepEqual(fft.result.json, {
    detail: "SkyRLTrainBackend already has a 'policy' model; multi-tenant training is only supported for LoRA (rank > 0)",
  });
  const other = await createModel('skyrl-train', s, 16);
  assert.match(other.result.json.detail, /^LoRA signature mismatch for model 'model_[0-9a-f]{8}': got \(rank, alpha\)=\(16, 32\)/);
});
