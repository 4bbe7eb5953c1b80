// The embedded Tinker server over loopback HTTP with a tiny checkpoint: futures, seq_id order and
// idempotency, SUM losses that match src/rl, accumulation, sampler snapshots, save/load across a
// restart, prompt log-probs against the engine's own score(), and bad bodies.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { EmbeddedChatTokenizer } from '../../chat/index.ts';
import type { WorkerEngine } from '../../engines/embedded/worker-engine.ts';
import { ppoTokenLoss } from '../../rl/ppo.ts';
import { startEmbeddedTinker, type EmbeddedTinker } from '../../../test/support/embedded-tinker.ts';
import { startEngineServer, type RunningEngineServer } from '../server.ts';
import type { TinkerService } from './service.ts';

const BASE = 'tiny-embedded';
let tinker: EmbeddedTinker;
let engine: WorkerEngine;
let service: TinkerService;
let server: RunningEngineServer;
let session: string;

before(async () => {
  tinker = await startEmbeddedTinker({ baseModel: BASE });
  ({ engine, service, server } = tinker);
  session = (await post('/api/v1/create_session', { tags: [], user_metadata: {}, sdk_version: 'test' })).json.session_id;
});

after(async () => {
  await tinker.close();
});

async function post(path: string, body: unknown, url = server.url): Promise<{ status: number; json: any }> {
  const res = await request(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

/** Submits a call and waits for its result (asserting the submit was accepted). */
async function submit(path: string, body: unknown, url = server.url): Promise<any> {
  const r = await post(path, body, url);
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.json)}`);
  return result(r.json.request_id, url);
}

async function result(requestId: string, url = server.url): Promise<any> {
  for (;;) {
    const r = await post('/api/v1/retrieve_future', { request_id: requestId, allow_metadata_only: false }, url);
    assert.equal(r.status, 200, JSON.stringify(r.json));
    if (r.json.type !== 'try_again') return r.json;
  }
}

let modelSeq = 0;
async function newModel(url = server.url, sess = session): Promise<string> {
  const r = await post(
    '/api/v1/create_model',
    {
      session_id: sess,
      model_seq_id: modelSeq++,
      base_model: BASE,
      lora_config: { rank: 32, seed: null, train_unembed: true, train_mlp: true, train_attn: true },
    },
    url,
  );
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.deepEqual(await result(r.json.request_id, url), { model_id: r.json.model_id });
  return r.json.model_id;
}

const chunks = (tokens: number[]) => ({ chunks: [{ type: 'encoded_text', tokens }] });
const tensor = (data: number[], dtype = 'float32') => ({ data, dtype, shape: [data.length] });

/** A cross-entropy datum over a whole sequence. */
function ceDatum(seq: number[]) {
  return {
    model_input: chunks(seq.slice(0, -1)),
    loss_fn_inputs: { target_tokens: tensor(seq.slice(1), 'int64'), weights: tensor(seq.slice(1).map(() => 1)) },
  };
}

/** A ppo datum: prompt positions carry `promptLp`/`promptAdv`, response positions the given values. */
function ppoDatum(prompt: number[], response: number[], oldLp: number[], adv: number[], promptLp = 0, promptAdv = 0) {
  const seq = [...prompt, ...response];
  const pad = prompt.length - 1;
  return {
    model_input: chunks(seq.slice(0, -1)),
    loss_fn_inputs: {
      target_tokens: tensor(seq.slice(1), 'int64'),
      logprobs: tensor([...Array(pad).fill(promptLp), ...oldLp]),
      advantages: tensor([...Array(pad).fill(promptAdv), ...adv]),
    },
  };
}

const seqs = new Map<string, number>();
function nextSeq(model: string): number {
  const n = (seqs.get(model) ?? 0) + 1;
  seqs.set(model, n);
  return n;
}

async function fb(
  model: string,
  data: unknown[],
  lossFn = 'cross_entropy',
  config: Record<string, number> | null = null,
  url = server.url,
): Promise<any> {
  return submit(
    '/api/v1/forward_backward',
    { model_id: model, seq_id: nextSeq(model), forward_backward_input: { loss_fn: lossFn, loss_fn_config: config, data } },
    url,
  );
}

async function forward(model: string, data: unknown[], url = server.url): Promise<number[][]> {
  const r = await submit(
    '/api/v1/forward',
    { model_id: model, seq_id: nextSeq(model), forward_input: { loss_fn: 'cross_entropy', data } },
    url,
  );
  return r.loss_fn_outputs.map((o: any) => o.logprobs.data);
}

const ADAM = { learning_rate: 0.02, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0.01, grad_clip_norm: 1 };

async function optim(model: string, url = server.url): Promise<any> {
  return submit('/api/v1/optim_step', { model_id: model, seq_id: nextSeq(model), adam_params: ADAM }, url);
}

const seqA = [5, 17, 33, 60, 71, 90, 102, 44, 12];
const seqB = [8, 25, 40, 41, 99, 150, 3];

function maxAbsDiff(a: number[][], b: number[][]): number {
  let m = 0;
  a.forEach((row, i) =>
    row.forEach((v, j) => {
      m = Math.max(m, Math.abs(v - b[i][j]));
    }),
  );
  return m;
}

test('capabilities, session, create_model and get_info; an unsupported base model is a clear 400', async () => {
  const caps = await request(`${server.url}/api/v1/get_server_capabilities`);
  // Hosted: the SDK's SupportedModel carries max_context_length (types/get_server_capabilities_response.py).
  assert.deepEqual(((await caps.body.json()) as any).supported_models, [{ model_name: BASE, max_context_length: 96 }]);
  const health = await request(`${server.url}/api/v1/healthz`);
  assert.deepEqual(await health.body.json(), { status: 'ok' });
  assert.equal((await post('/api/v1/session_heartbeat', { session_id: session })).status, 200);
  assert.equal((await post('/api/v1/session_heartbeat', { session_id: 'nope' })).status, 404);

  const model = await newModel();
  const info = await post('/api/v1/get_info', { model_id: model });
  assert.equal(info.json.is_lora, false);
  assert.equal(info.json.model_data.model_name, BASE);

  const bad = await post('/api/v1/create_model', { session_id: session, base_model: 'Qwen/Qwen3-8B', lora_config: { rank: 32 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.param, 'base_model');
  assert.match(bad.json.detail, /Qwen\/Qwen3-8B.*tiny-embedded/);
});

test('calls run in seq_id order whatever order they arrive in; try_again while waiting; unknown ids 404/410', async () => {
  const ordered = await newModel();
  const ceBefore = await fb(ordered, [ceDatum(seqA)]);
  await optim(ordered);
  const expected = await forward(ordered, [ceDatum(seqA)]);

  const model = await newModel();
  const body = (seq: number, path: string, extra: object) => ({ path, body: { model_id: model, seq_id: seq, ...extra } });
  const calls = [
    body(1, '/api/v1/forward_backward', { forward_backward_input: { loss_fn: 'cross_entropy', data: [ceDatum(seqA)] } }),
    body(2, '/api/v1/optim_step', { adam_params: ADAM }),
    body(3, '/api/v1/forward', { forward_input: { loss_fn: 'cross_entropy', data: [ceDatum(seqA)] } }),
  ];
  const third = await post(calls[2].path, calls[2].body);
  const second = await post(calls[1].path, calls[1].body);
  assert.equal(third.status, 200);
  // seq 1 has not arrived: seq 3 cannot run, so the long poll ends in try_again.
  const waiting = await post('/api/v1/retrieve_future', { request_id: third.json.request_id });
  assert.deepEqual(waiting.json, { type: 'try_again', request_id: third.json.request_id, queue_state: 'active' });
  const first = await post(calls[0].path, calls[0].body);
  const r1 = await result(first.json.request_id);
  await result(second.json.request_id);
  const r3 = await result(third.json.request_id);
  assert.deepEqual(r1.loss_fn_outputs[0].logprobs.data, ceBefore.loss_fn_outputs[0].logprobs.data);
  assert.deepEqual(
    r3.loss_fn_outputs.map((o: any) => o.logprobs.data),
    expected,
    'seq 3 ran after the optimizer step of seq 2',
  );

  const unknown = await post('/api/v1/retrieve_future', { request_id: 'no-such-request' });
  assert.equal(unknown.status, 404);
  assert.match(unknown.json.detail, /no-such-request/);
  const lost = await post('/api/v1/retrieve_future', { request_id: '0badf00d-12' });
  assert.equal(lost.status, 410);
  assert.match(lost.json.detail, /submit the request again/);
});

test('(model, seq_id) is an idempotency key: same payload → same future, another payload → 409 naming seq_id', async () => {
  const model = await newModel();
  const call = { model_id: model, seq_id: 1, forward_backward_input: { loss_fn: 'cross_entropy', data: [ceDatum(seqA)] } };
  const a = await post('/api/v1/forward_backward', call);
  const b = await post('/api/v1/forward_backward', { ...call, type: 'forward_backward' });
  assert.equal(b.json.request_id, a.json.request_id);
  const other = await post('/api/v1/forward_backward', {
    ...call,
    forward_backward_input: { loss_fn: 'cross_entropy', data: [ceDatum(seqB)] },
  });
  assert.equal(other.status, 409);
  assert.equal(other.json.param, 'seq_id');
  assert.match(other.json.detail, /seq_id 1/);
  assert.deepEqual(await result(b.json.request_id), await result(a.json.request_id));
});

test('ppo: loss:sum equals src/rl ppoTokenLoss summed over the returned learner log-probs; prompt positions give nothing', async () => {
  const model = await newModel();
  const prompt = [5, 17, 33, 60, 71];
  const sample = await submit('/api/v1/asample', {
    prompt: chunks(prompt),
    num_samples: 2,
    sampling_params: { max_tokens: 8, temperature: 1, seed: 11 },
    base_model: BASE,
  });
  const datums: any[] = [];
  const inputs: Array<{ old: number[]; adv: number[] }> = [];
  sample.sequences.forEach((s: any, i: number) => {
    // Old log-probs nudged so that some ratios leave the clip band on both sides.
    const old = s.logprobs.map((lp: number, t: number) => lp + [0.5, -0.5, 0.05, 0][t % 4]);
    const adv = s.tokens.map((_: number, t: number) => (i === 0 ? 1 : -0.5) * (1 + t / 10));
    datums.push(ppoDatum(prompt, s.tokens, old, adv));
    inputs.push({ old, adv });
  });
  const out = await fb(model, datums, 'ppo', { clip_low_threshold: 0.8, clip_high_threshold: 1.28 });
  assert.equal(out.loss_fn_outputs.length, 2);
  let expected = 0;
  out.loss_fn_outputs.forEach((o: any, i: number) => {
    const lp: number[] = o.logprobs.data;
    assert.equal(lp.length, prompt.length + sample.sequences[i].tokens.length - 1);
    const response = lp.slice(prompt.length - 1);
    // The learner (temperature 1) reproduces the sampler's log-probs at temperature 1.
    response.forEach((v, t) =>
      assert.ok(Math.abs(v - sample.sequences[i].logprobs[t]) < 1e-4, `token ${t}: ${v} vs ${sample.sequences[i].logprobs[t]}`),
    );
    const terms = ppoTokenLoss(response, inputs[i].old, inputs[i].adv, 0.2, 0.28);
    expected += terms.losses.reduce((a, b) => a + b, 0);
    assert.ok(
      terms.clipped.some((c) => c === 1),
      'the test should exercise the clip',
    );
  });
  assert.ok(Math.abs(out.metrics['loss:sum'] - expected) < 1e-4, `loss:sum ${out.metrics['loss:sum']} vs ${expected}`);
  // importance_sampling on the same inputs (forward only: weights unchanged): −Σ exp(lp − old)·A.
  const is = await submit('/api/v1/forward', {
    model_id: model,
    seq_id: nextSeq(model),
    forward_input: { loss_fn: 'importance_sampling', data: datums },
  });
  let expectedIs = 0;
  is.loss_fn_outputs.forEach((o: any, i: number) => {
    o.logprobs.data.slice(prompt.length - 1).forEach((lp: number, t: number) => {
      expectedIs -= Math.exp(lp - inputs[i].old[t]) * inputs[i].adv[t];
    });
  });
  assert.ok(
    Math.abs(is.metrics['loss:sum'] - expectedIs) < 1e-4,
    `importance_sampling loss:sum ${is.metrics['loss:sum']} vs ${expectedIs}`,
  );

  // Prompt positions with advantage 0 contribute no gradient, whatever their logprobs say.
  const garbage = await newModel();
  const trained = sample.sequences.map((s: any, i: number) => ppoDatum(prompt, s.tokens, inputs[i].old, inputs[i].adv, -7, 0));
  await fb(garbage, trained, 'ppo', { clip_low_threshold: 0.8, clip_high_threshold: 1.28 });
  await optim(garbage);
  await optim(model);
  const probe = [ceDatum(seqA), ceDatum([...prompt, ...sample.sequences[0].tokens])];
  assert.deepEqual(await forward(garbage, probe), await forward(model, probe));
  // …while a nonzero prompt advantage does change the update (so the comparison above can fail).
  const leaky = await newModel();
  await fb(
    leaky,
    sample.sequences.map((s: any, i: number) => ppoDatum(prompt, s.tokens, inputs[i].old, inputs[i].adv, 0, 1)),
    'ppo',
    { clip_low_threshold: 0.8, clip_high_threshold: 1.28 },
  );
  await optim(leaky);
  assert.ok(
    maxAbsDiff(await forward(leaky, probe), await forward(model, probe)) > 1e-4,
    'a nonzero prompt advantage must change the update',
  );
});

test('gradients accumulate: two forward_backward halves + optim_step = one whole + optim_step', async () => {
  const whole = await newModel();
  const halves = await newModel();
  const once = await newModel();
  const wholeOut = await fb(whole, [ceDatum(seqA), ceDatum(seqB)]);
  const h1 = await fb(halves, [ceDatum(seqA)]);
  const h2 = await fb(halves, [ceDatum(seqB)]);
  // Sums, not means: the halves' losses add up to the whole's.
  assert.ok(
    Math.abs(h1.metrics['loss:sum'] + h2.metrics['loss:sum'] - wholeOut.metrics['loss:sum']) < 1e-4,
    "the halves' losses add up to the whole's",
  );
  await fb(once, [ceDatum(seqA)]);
  const m1 = await optim(whole);
  const m2 = await optim(halves);
  await optim(once);
  assert.equal(m1.metrics.accumulated_calls, 1);
  assert.equal(m2.metrics.accumulated_calls, 2);
  assert.ok(Math.abs(m1.metrics.grad_norm - m2.metrics.grad_norm) < 1e-4, `grad norms ${m1.metrics.grad_norm} vs ${m2.metrics.grad_norm}`);
  const probe = [ceDatum(seqA), ceDatum(seqB)];
  const a = await forward(whole, probe);
  assert.ok(maxAbsDiff(a, await forward(halves, probe)) < 1e-5, 'halves + step = whole + step');
  assert.ok(maxAbsDiff(a, await forward(once, probe)) > 1e-4, 'training on half the data must differ');
  // The accumulator was cleared: a second step without forward_backward moves nothing.
  assert.equal((await optim(whole)).metrics.skipped, 1);
});

async function promptLogprobs(body: Record<string, unknown>, prompt: number[]): Promise<number[]> {
  const r = await submit('/api/v1/asample', {
    prompt: chunks(prompt),
    num_samples: 1,
    sampling_params: { max_tokens: 1 },
    prompt_logprobs: true,
    ...body,
  });
  assert.equal(r.prompt_logprobs[0], null);
  return r.prompt_logprobs.slice(1);
}

test('sampler paths are snapshots: a new path has the new weights, the old path keeps the old ones', async () => {
  const model = await newModel();
  const v0 = await submit('/api/v1/save_weights_for_sampler', { model_id: model, path: 'v0', seq_id: nextSeq(model) });
  assert.equal(v0.path, `tinker://${model}/sampler_weights/v0`);
  await fb(model, [ceDatum(seqA)]);
  await optim(model);
  const v1 = await submit('/api/v1/save_weights_for_sampler', { model_id: model, path: 'v1', seq_id: nextSeq(model) });
  await fb(model, [ceDatum(seqA)]);
  await optim(model); // the policy moves on; v1 must not follow

  const base = await promptLogprobs({ base_model: BASE }, seqA);
  assert.deepEqual(await promptLogprobs({ model_path: v0.path }, seqA), base);
  const after1 = await promptLogprobs({ model_path: v1.path }, seqA);
  assert.ok(maxAbsDiff([after1], [base]) > 1e-3, 'v1 must reflect the optimizer step');
  assert.deepEqual(await promptLogprobs({ model_path: v0.path }, seqA), base, 'v0 keeps the old weights');
  const now = await forward(model, [ceDatum(seqA)]);
  assert.ok(maxAbsDiff([after1], now) > 1e-3, 'v1 is a snapshot, not the live policy');

  // Only the newest snapshots stay in memory; older paths come back from the state dir, unchanged.
  for (let i = 0; i < 9; i++)
    await submit('/api/v1/save_weights_for_sampler', { model_id: model, path: `extra${i}`, seq_id: nextSeq(model) });
  assert.deepEqual(await promptLogprobs({ model_path: v0.path }, seqA), base, 'v0 reloaded from disk');
  assert.deepEqual(await promptLogprobs({ model_path: v1.path }, seqA), after1, 'v1 reloaded from disk');

  // Without a path (the SDK's save_weights_and_get_sampling_client) a sampling session is returned.
  const anon = await submit('/api/v1/save_weights_for_sampler', { model_id: model, sampling_session_seq_id: 1, seq_id: nextSeq(model) });
  assert.match(anon.sampling_session_id, /^sampling_/);
  const viaSession = await promptLogprobs({ sampling_session_id: anon.sampling_session_id, seq_id: 1 }, seqA);
  assert.ok(maxAbsDiff([viaSession], now) < 1e-5, 'the sampler and the learner agree on the same weights');
});

test('asample: prompt log-probs equal engine.score(); seeded samples equal engine.generate(); stop token ids', async () => {
  const prompt = seqA;
  const r = await submit('/api/v1/asample', {
    prompt: chunks(prompt),
    num_samples: 1,
    sampling_params: { max_tokens: 6, temperature: 0.7, seed: 5 },
    base_model: BASE,
    prompt_logprobs: true,
    topk_prompt_logprobs: 3,
  });
  const scored = await engine.score({ promptIds: prompt.slice(0, 1), responseIds: prompt.slice(1), temperature: 1, topK: 3 });
  assert.deepEqual(r.prompt_logprobs, [null, ...scored.logprobs]);
  assert.equal(r.topk_prompt_logprobs[0], null);
  assert.deepEqual(
    r.topk_prompt_logprobs[1],
    Array.from(scored.topK![0].ids, (id, j) => [id, scored.topK![0].logprobs[j]]),
  );
  const local = await engine.generate({ promptIds: prompt, maxTokens: 6, temperature: 0.7, seed: 5, stopTokenIds: [] });
  assert.deepEqual(r.sequences[0].tokens, local.tokenIds);
  // Sampled at T = 0.7, reported at T = 1 (as SkyRL does): the learner's log-probs of those tokens.
  const atOne = await engine.score({ promptIds: prompt, responseIds: local.tokenIds, temperature: 1 });
  assert.deepEqual(r.sequences[0].logprobs, atOne.logprobs);
  assert.notDeepEqual(r.sequences[0].logprobs, local.logprobs);
  assert.equal(r.sequences[0].stop_reason, 'length');

  // Stop at the second sampled token's id: the sequence ends with it.
  const stopId = local.tokenIds[1];
  const stopped = await submit('/api/v1/asample', {
    prompt: chunks(prompt),
    sampling_params: { max_tokens: 6, temperature: 0.7, seed: 5, stop: [stopId] },
    base_model: BASE,
  });
  const end = local.tokenIds.indexOf(stopId);
  assert.deepEqual(stopped.sequences[0].tokens, local.tokenIds.slice(0, end + 1));
  assert.equal(stopped.sequences[0].stop_reason, 'stop');
  assert.equal(stopped.prompt_logprobs, null);
});

test('save_weights / load_weights round trip (weights and AdamW state) on a restarted server; load only as first request', async () => {
  const model = await newModel();
  await fb(model, [ceDatum(seqA)]);
  await optim(model);
  const saved = await submit('/api/v1/save_weights', { model_id: model, path: 'step1', seq_id: nextSeq(model) });
  assert.equal(saved.path, `tinker://${model}/weights/step1`);
  const atSave = await forward(model, [ceDatum(seqB)]);
  await fb(model, [ceDatum(seqA)]);
  await optim(model);
  const step2 = await forward(model, [ceDatum(seqB)]);

  const late = await post('/api/v1/load_weights', { model_id: model, path: saved.path, seq_id: nextSeq(model) });
  assert.equal(late.status, 400);
  assert.match(late.json.detail, /first request/);
  seqs.set(model, (seqs.get(model) ?? 1) - 1);

  // A second server on the same state dir (the first one keeps running: it is shared by the other tests).
  const restarted = await startEmbeddedTinker({ checkpoint: tinker.checkpoint, stateDir: tinker.stateDir, engine, baseModel: BASE });
  let closed = false;
  try {
    const url = restarted.url;
    const sess = (await post('/api/v1/create_session', { tags: [] }, url)).json.session_id;
    const fresh = await newModel(url, sess);
    const loaded = await submit(
      '/api/v1/load_weights',
      { model_id: fresh, path: saved.path, seq_id: nextSeq(fresh), optimizer: true },
      url,
    );
    assert.equal(loaded.path, saved.path);
    assert.deepEqual(await forward(fresh, [ceDatum(seqB)], url), atSave);
    await fb(fresh, [ceDatum(seqA)], 'cross_entropy', null, url);
    await optim(fresh, url);
    // Equal only if the AdamW moments and step count came back too.
    assert.ok(maxAbsDiff(await forward(fresh, [ceDatum(seqB)], url), step2) < 1e-6, 'the step after load equals the step after save');
    const missing = await post(
      '/api/v1/load_weights',
      { model_id: await newModel(url, sess), path: `tinker://${model}/weights/nope`, seq_id: 1 },
      url,
    );
    assert.equal(missing.status, 404);

    // unload_model frees a model; later calls on it are 404s.
    const unloaded = await post('/api/v1/unload_model', { model_id: fresh }, url);
    assert.deepEqual(await result(unloaded.json.request_id, url), { model_id: fresh });
    assert.equal((await post('/api/v1/get_info', { model_id: fresh }, url)).status, 404);

    // A dead worker shows on healthz (503) instead of failing every call silently.
    await restarted.service.close();
    closed = true;
    const health = await request(`${url}/api/v1/healthz`);
    assert.equal(health.statusCode, 503);
    assert.match(((await health.body.json()) as { detail: string }).detail, /closed/);
  } finally {
    if (!closed) await restarted.service.close();
    await restarted.server.close();
  }
});

test('bad bodies are 400s naming the field; failures come back as {error, category}', async () => {
  const model = await newModel();
  const noMax = await post('/api/v1/asample', { prompt: chunks([1, 2]), sampling_params: {}, base_model: BASE });
  assert.equal(noMax.status, 400);
  assert.equal(noMax.json.param, 'sampling_params.max_tokens');
  const topK = await post('/api/v1/asample', { prompt: chunks([1, 2]), sampling_params: { max_tokens: 2, top_k: 5 }, base_model: BASE });
  assert.equal(topK.status, 400);
  assert.equal(topK.json.param, 'sampling_params.top_k');
  const both = await post('/api/v1/asample', { prompt: chunks([1, 2]), sampling_params: { max_tokens: 2 } });
  assert.equal(both.status, 400);
  const lossFn = await post('/api/v1/forward_backward', {
    model_id: model,
    seq_id: 1,
    forward_backward_input: { loss_fn: 'dpo', data: [ceDatum(seqA)] },
  });
  assert.equal(lossFn.status, 400);
  assert.equal(lossFn.json.param, 'forward_backward_input.loss_fn');
  const short = ppoDatum([1, 2, 3], [4, 5], [-1], [1, 1]);
  const misaligned = await post('/api/v1/forward_backward', {
    model_id: model,
    seq_id: 1,
    forward_backward_input: { loss_fn: 'ppo', data: [short] },
  });
  assert.equal(misaligned.status, 400);
  assert.equal(misaligned.json.param, 'forward_backward_input.data[0].loss_fn_inputs.logprobs');
  const noAdv = await post('/api/v1/forward_backward', {
    model_id: model,
    seq_id: 1,
    forward_backward_input: { loss_fn: 'ppo', data: [ceDatum(seqA)] },
  });
  assert.equal(noAdv.status, 400);
  assert.match(noAdv.json.detail, /logprobs is required by loss_fn 'ppo'/);
  const vocab = await post('/api/v1/forward_backward', {
    model_id: model,
    seq_id: 1,
    forward_backward_input: { loss_fn: 'cross_entropy', data: [ceDatum([1, 100000])] },
  });
  assert.equal(vocab.status, 400);
  const unknownModel = await post('/api/v1/optim_step', { model_id: 'model_nope', seq_id: 1, adam_params: {} });
  assert.equal(unknownModel.status, 404);
  const notJson = await request(`${server.url}/api/v1/asample`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  assert.equal(notJson.statusCode, 400);
  assert.equal(typeof ((await notJson.body.json()) as any).detail, 'string');
  // A prompt that fills the context is refused at once.
  const long = await post('/api/v1/asample', { prompt: chunks(Array(96).fill(1)), sampling_params: { max_tokens: 2 }, base_model: BASE });
  assert.equal(long.status, 400);
  // Work that fails in the background fails its future, not the server.
  await fb(model, [
    { ...ceDatum(seqA), loss_fn_inputs: { ...ceDatum(seqA).loss_fn_inputs, weights: tensor(seqA.slice(1).map(() => 1e38)) } },
  ]);
  const failed = await optim(model);
  assert.equal(failed.category, 'user');
  assert.match(failed.error, /gradient norm/);
  assert.equal((await fb(model, [ceDatum(seqA)])).loss_fn_outputs.length, 1);
});

test('stop strings end a sample at the token that completes them', async () => {
  const prompt = seqB;
  const local = await engine.generate({ promptIds: prompt, maxTokens: 8, temperature: 1, seed: 21, stopTokenIds: [] });
  const tok = engine.tokenizer!;
  const stop = tok.decode(local.tokenIds.slice(0, 3));
  assert.notEqual(stop, '');
  const k = local.tokenIds.findIndex((_, i) => tok.decode(local.tokenIds.slice(0, i + 1)).includes(stop)) + 1;
  const r = await submit('/api/v1/asample', {
    prompt: chunks(prompt),
    sampling_params: { max_tokens: 8, temperature: 1, seed: 21, stop: [stop] },
    base_model: BASE,
  });
  assert.deepEqual(r.sequences[0].tokens, local.tokenIds.slice(0, k));
  assert.deepEqual(r.sequences[0].logprobs, local.logprobs.slice(0, k));
  assert.equal(r.sequences[0].stop_reason, 'stop');
});

test('with an API key, Tinker routes take X-API-Key (or a bearer token); healthz stays open', async () => {
  const keyed = await startEngineServer({
    engine,
    tokenizer: new EmbeddedChatTokenizer(engine.tokenizer!),
    modelId: BASE,
    contextLength: engine.config.ctx,
    tinker: service,
    apiKey: 'sekret',
  });
  try {
    const call = (headers: Record<string, string>) =>
      request(`${keyed.url}/api/v1/create_session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"tags":[]}',
      });
    assert.equal((await call({})).statusCode, 401);
    assert.equal((await call({ 'x-api-key': 'wrong' })).statusCode, 401);
    assert.equal((await call({ 'x-api-key': 'sekret' })).statusCode, 200);
    assert.equal((await call({ authorization: 'Bearer sekret' })).statusCode, 200);
    assert.equal((await request(`${keyed.url}/api/v1/healthz`)).statusCode, 200);
  } finally {
    await keyed.close();
  }
});
