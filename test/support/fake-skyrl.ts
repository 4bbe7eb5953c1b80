// A scripted SkyRL Tinker server on loopback for the client's profile tests. Each answer is the
// one SkyRL's source gives (NovaSky-AI/SkyRL a956457; file + line next to each behaviour), with
// the learner replaced by arithmetic on the datums it receives:
// - GET / names "Tinker API Mock" (skyrl/tinker/api.py L1692-1696); client/config has only
//   pjwt_auth_enabled (L895-902).
// - create_future dedupes (model_id, seq_id) for forward_backward and optim_step only, 409 on
//   another payload (L362-408, L1133-1175); save_weights* under a recorded name: 409 "Checkpoint
//   … already exists" (L437-439); load_weights after any request: 400 (L1193-1202).
// - failed futures come back as HTTP 400 {detail} (L1417-1424).
// - JAX: per-datum mean over weights (all positions when absent: L592-593), mean over the datums
//   of the step (backends/jax.py L406, L176-185); optim metrics skyrl.ai/* (L141-148);
//   prompt_logprobs P − 1 entries, no null (tx/utils/generator.py L437-439); topk refused
//   (jax.py L916-922); max_lora_adapters slots, slot 0 the base (jax.py L574-578).
// - train (FSDP/Megatron): loss summed (ppo_utils.py L586, L1145-1149); prompt_logprobs P entries,
//   null first (backends/utils.py L27-56); forward_backward metrics pg_loss:sum (L777-782).
import { ppoTokenLoss } from '../../src/rl/index.ts';
import { serveTinker, type TinkerRequest } from './fake-tinker.ts';

export interface FakeSkyrlOptions {
  backend: 'jax' | 'train';
  baseModel?: string;
  /** JAX backend_config max_lora_adapters (one slot is the base model). */
  maxLoraAdapters?: number;
}

export interface FakeSkyrl {
  url: string;
  requests: TinkerRequest[];
  /** Loss of each optim_step as the server reduced it (JAX: mean over datums of per-datum means). */
  stepLosses: number[];
  /** Answer the next submit of a path with this status AFTER recording it (a lost answer). */
  loseAnswer: Set<string>;
  /** Sessions: id → last heartbeat (null = never). */
  sessions: Map<string, number | null>;
  /** Loaded models (slot holders). */
  models: Set<string>;
  paths(): string[];
  close(): Promise<void>;
}

export async function startFakeSkyrl(opts: FakeSkyrlOptions): Promise<FakeSkyrl> {
  const base = opts.baseModel ?? 'Qwen/Qwen3-8B';
  const slots = opts.maxLoraAdapters ?? 32;
  let nextId = 1;
  const futures = new Map<number, { status: 'done'; result: unknown } | { status: 'failed'; error: string }>();
  const bySeq = new Map<string, { id: number; text: string }>();
  const checkpoints = new Set<string>(); // tinker:// paths, completed at once
  const requestsOf = new Map<string, number>(); // model → recorded non-create requests
  const samplingPaths = new Map<string, string | undefined>(); // sampling session → model_path
  let accum: { sum: number; count: number } = { sum: 0, count: 0 };
  const fake: FakeSkyrl = {
    url: '',
    requests: [],
    stepLosses: [],
    loseAnswer: new Set(),
    sessions: new Map(),
    models: new Set(),
    paths: () => fake.requests.map((r) => r.path),
    close: () => http.close(),
  };

  const record = (result: unknown): number => {
    const id = nextId++;
    futures.set(id, { status: 'done', result });
    return id;
  };
  const fail = (error: string): number => {
    const id = nextId++;
    futures.set(id, { status: 'failed', error });
    return id;
  };

  function forwardBackward(body: Record<string, any>): unknown {
    const cfg = body.forward_backward_input.loss_fn_config ?? {};
    const lo = 1 - (cfg.clip_low_threshold ?? 0.8);
    const hi = (cfg.clip_high_threshold ?? 1.2) - 1;
    let total = 0;
    const outputs = (body.forward_backward_input.data as any[]).map((d) => {
      const old: number[] = d.loss_fn_inputs.logprobs.data;
      const adv: number[] = d.loss_fn_inputs.advantages.data;
      const n = d.loss_fn_inputs.target_tokens.data.length;
      const w: number[] = d.loss_fn_inputs.weights?.data ?? new Array(n).fill(1); // api.py L592-593
      const learner = old.map((v, i) => (adv[i] !== 0 ? v : -0.5)); // on-policy learner
      const losses = ppoTokenLoss(learner, old, adv, lo, hi).losses.map((l, i) => (w[i] !== 0 ? w[i] * l : 0));
      const sum = losses.reduce((a, b) => a + b, 0);
      if (opts.backend === 'jax') {
        accum.sum +=
          sum /
          Math.max(
            w.reduce((a, b) => a + b, 0),
            1e-9,
          ); // jax.py L406
        accum.count += 1; // jax.py L167-174: counts per datum
      } else {
        accum.sum += sum; // ppo_utils.py reduce_loss: a sum
        accum.count = 1;
      }
      total += sum;
      return { logprobs: { data: learner, dtype: 'float32', shape: [learner.length] } };
    });
    const metrics = opts.backend === 'jax' ? {} : { 'pg_loss:sum': total, 'total_loss:sum': total };
    return { loss_fn_output_type: 'scalar', loss_fn_outputs: outputs, metrics };
  }

  function asample(body: Record<string, any>): number {
    const prompt: number[] = body.prompt.chunks[0].tokens;
    if (body.topk_prompt_logprobs > 0 && opts.backend === 'jax') return fail('topk_prompt_logprobs is not supported by the JAX backend');
    // A sampler checkpoint is loaded into its training model's adapter slot (jax.py L1024-1040;
    // skyrl_train_backend.py L172-186 looks up the model's role): an unloaded model cannot sample.
    const modelPath = body.sampling_session_id !== undefined ? samplingPaths.get(body.sampling_session_id) : body.model_path;
    const owner = /^tinker:\/\/([^/]+)\//.exec(String(modelPath ?? ''))?.[1];
    if (owner !== undefined && !fake.models.has(owner)) return fail(`KeyError: '${owner}'`);
    const n = Math.min(3, body.sampling_params.max_tokens);
    let plp: Array<number | null> | null = null;
    if (body.prompt_logprobs) {
      const own = prompt.map((_, i) => -(i + 1) / 10); // log p(token i) = −(i+1)/10
      plp = opts.backend === 'jax' ? own.slice(1) : [null, ...own.slice(1)];
    }
    return record({
      sequences: [{ tokens: [7, 8, 2].slice(0, n), logprobs: [-0.1, -0.2, -0.3].slice(0, n), stop_reason: 'stop' }],
      prompt_logprobs: plp,
    });
  }

  const http = await serveTinker(fake.requests, (request, send, req) => {
    const { path, body, text } = request;
    const future = (id: number) => {
      if (fake.loseAnswer.delete(path)) return send(500, { detail: 'Internal Server Error' });
      send(200, { future_id: String(id), status: 'pending', request_id: String(id) });
    };
    const touch = (model: string) => requestsOf.set(model, (requestsOf.get(model) ?? 0) + 1);
    if (req.method === 'GET' && req.url === '/') return send(200, { name: 'Tinker API Mock', version: '0.0.1', endpoints: {} });
    const ckpt = /^\/training_runs\/([^/]+)\/checkpoints$/.exec(path);
    if (ckpt) {
      const list = [...checkpoints].filter((p) => p.startsWith(`tinker://${ckpt[1]}/`)).map((p) => ({ tinker_path: p }));
      return send(200, { checkpoints: list });
    }
    switch (path) {
      case '/client/config':
        return send(200, { pjwt_auth_enabled: false });
      case '/healthz':
        return send(200, { status: 'ok' });
      case '/get_server_capabilities':
        return send(200, { supported_models: [{ model_name: base }] });
      case '/create_session': {
        const id = `session_${fake.sessions.size + 1}`;
        fake.sessions.set(id, null);
        return send(200, { type: 'create_session', session_id: id });
      }
      case '/session_heartbeat':
        if (!fake.sessions.has(body.session_id)) return send(404, { detail: 'Session not found' });
        fake.sessions.set(body.session_id, Date.now());
        return send(200, { type: 'session_heartbeat' });
      case '/create_sampling_session': {
        // api.py L939-958: the session row keeps base_model / model_path; asample resolves it (L1301-1309).
        const id = `sampling_${nextId++}`;
        samplingPaths.set(id, body.model_path);
        return send(200, { type: 'create_sampling_session', sampling_session_id: id });
      }
      case '/create_model': {
        const model = `model_${nextId}`;
        if (opts.backend === 'jax' && fake.models.size >= slots - 1)
          return send(200, { model_id: model, request_id: String(fail(`Maximum number of LoRA adapters (${slots}) reached`)) });
        fake.models.add(model);
        return send(200, { model_id: model, base_model: base, status: 'created', request_id: String(record({ model_id: model })) });
      }
      case '/unload_model':
        if (!fake.models.delete(body.model_id)) return send(404, { detail: 'Model not found' });
        return send(200, { request_id: String(record({ model_id: body.model_id, status: 'unloaded' })), model_id: body.model_id });
      case '/get_info':
        return send(200, { model_id: body.model_id, status: 'created', model_data: { base_model: base, model_name: base } });
      case '/forward_backward':
      case '/optim_step': {
        if (body.seq_id !== undefined && body.seq_id !== null) {
          const key = `${body.model_id}#${body.seq_id}`;
          const seen = bySeq.get(key);
          if (seen && seen.text !== text) return send(409, { detail: 'Training request sequence number was reused' });
          if (seen) return future(seen.id);
        }
        touch(body.model_id);
        let result: unknown;
        if (path === '/forward_backward') result = forwardBackward(body);
        else {
          fake.stepLosses.push(opts.backend === 'jax' ? accum.sum / Math.max(accum.count, 1) : accum.sum);
          accum = { sum: 0, count: 0 };
          result = { metrics: { 'skyrl.ai/grad_norm': 0.5, 'skyrl.ai/learning_rate': body.adam_params.learning_rate } };
        }
        const id = record(result);
        if (body.seq_id !== undefined) bySeq.set(`${body.model_id}#${body.seq_id}`, { id, text });
        return future(id);
      }
      case '/save_weights':
      case '/save_weights_for_sampler': {
        const kind = path === '/save_weights' ? 'weights' : 'sampler_weights';
        const p = `tinker://${body.model_id}/${kind}/${body.path}`;
        if (checkpoints.has(p)) return send(409, { detail: `Checkpoint '${body.path}' already exists for model '${body.model_id}'` });
        checkpoints.add(p);
        touch(body.model_id);
        return future(record({ path: p, type: path.slice(1) }));
      }
      case '/load_weights':
        if ((requestsOf.get(body.model_id) ?? 0) > 0)
          return send(400, { detail: `LoadWeights is not permitted with seq_id ${body.seq_id}` });
        touch(body.model_id);
        return future(record({ path: body.path }));
      case '/asample':
        return future(asample(body));
      case '/retrieve_future': {
        const f = futures.get(Number(body.request_id));
        if (!f) return send(404, { detail: 'Future not found' });
        if (f.status === 'failed') return send(400, { detail: f.error });
        return send(200, f.result);
      }
      default:
        return send(404, { detail: 'Not Found' });
    }
  });
  fake.url = http.url;
  return fake;
}
