// A fake Tinker API server on loopback for tests (its behaviour from the Tinker SDK and SkyRL's server, docs/tinker.md): real HTTP, futures with
// scriptable retrieve_future answers (try_again, 408, 410, error bodies), a key check, and a
// `forward_backward` that sums the ppo loss over the datums it receives, as the real learner does.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ppoTokenLoss } from '../../src/rl/index.ts';

/** One request as the server received it. */
export interface TinkerRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, any>;
  text: string;
}

/** A scripted HTTP answer. */
export interface Scripted {
  status: number;
  body?: unknown;
}

type Handler = (body: Record<string, any>, fake: FakeTinker) => unknown;

/** Options of the fake. */
export interface FakeTinkerOptions {
  /** When set, requests without this X-API-Key get 401. */
  apiKey?: string;
  /** Base models in get_server_capabilities. */
  models?: string[];
  /** Learner log-prob = rollout log-prob + this, on every trained position (0: on-policy). */
  learnerShift?: number;
}

/** The running fake and what it saw. */
export interface FakeTinker {
  url: string;
  requests: TinkerRequest[];
  /** retrieve_future answers given (in order) before a future's real result. */
  pollScript: Scripted[];
  /** Answers for the next submits of a path, used before the normal handler. */
  submitScript: Map<string, Scripted[]>;
  /** Per-path result overrides (futures) or answers (plain calls). */
  handlers: Map<string, Handler>;
  /** Sampler/state paths saved so far. */
  saved: string[];
  options: FakeTinkerOptions;
  paths(): string[];
  close(): Promise<void>;
}

const FUTURE_PATHS = new Set([
  '/create_model',
  '/forward_backward',
  '/forward',
  '/optim_step',
  '/save_weights_for_sampler',
  '/save_weights',
  '/load_weights',
  '/asample',
]);

/** The loss a summing learner reports for one forward_backward body, and the learner log-probs. */
export function learnerResult(
  body: Record<string, any>,
  shift: number,
): { loss: number; outputs: Array<{ logprobs: { data: number[]; dtype: string; shape: number[] } }> } {
  const cfg = body.forward_backward_input.loss_fn_config;
  const lo = 1 - cfg.clip_low_threshold;
  const hi = cfg.clip_high_threshold - 1;
  let loss = 0;
  const outputs = (body.forward_backward_input.data as any[]).map((d) => {
    const old: number[] = d.loss_fn_inputs.logprobs.data;
    const adv: number[] = d.loss_fn_inputs.advantages.data;
    const learner = old.map((v, i) => (adv[i] !== 0 ? v + shift : -0.5));
    // The learner computes old→new ratios on every position; zero advantages add nothing.
    const terms = ppoTokenLoss(learner, old, adv, lo, hi);
    for (const v of terms.losses) loss += v;
    return { logprobs: { data: learner, dtype: 'float32', shape: [learner.length] } };
  });
  return { loss, outputs };
}

/** Reads one request: its path under /api/v1, the raw text and the JSON body ({} when not JSON). */
export function readTinkerRequest(req: IncomingMessage): Promise<TinkerRequest> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, any> = {};
      try {
        body = text === '' ? {} : JSON.parse(text);
      } catch {
        body = {};
      }
      resolve({ path: (req.url ?? '').replace(/^\/api\/v1/, ''), headers: req.headers, body, text });
    });
  });
}

/** Answers a request with JSON (an empty body for `undefined`). */
export type Send = (status: number, json?: unknown) => void;

/**
 * A loopback HTTP server on 127.0.0.1 (random port) for a scripted Tinker server: each request is
 * read, recorded in `requests`, then given to `answer` with a `send` for its JSON reply.
 */
export async function serveTinker(
  requests: TinkerRequest[],
  answer: (request: TinkerRequest, send: Send, req: IncomingMessage) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void readTinkerRequest(req).then((request) => {
      requests.push(request);
      answer(
        request,
        (status, json) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(json === undefined ? '' : JSON.stringify(json));
        },
        req,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Starts the fake on 127.0.0.1 (random port). */
export async function startFakeTinker(options: FakeTinkerOptions = {}): Promise<FakeTinker> {
  const futures = new Map<string, { path: string; body: Record<string, any> }>();
  const bySeq = new Map<string, { id: string; text: string }>();
  let nextId = 1;
  let models = 0;
  const fake: FakeTinker = {
    url: '',
    requests: [],
    pollScript: [],
    submitScript: new Map(),
    handlers: new Map(),
    saved: [],
    options,
    paths: () => fake.requests.map((r) => r.path),
    close: () => http.close(),
  };

  const defaults: Record<string, Handler> = {
    '/create_session': () => ({ session_id: 'sess-1', info_message: null, warning_message: null, error_message: null }),
    '/session_heartbeat': () => ({}),
    '/healthz': () => ({ status: 'ok' }),
    '/get_server_capabilities': () => ({ supported_models: (options.models ?? ['Qwen/Qwen3-8B']).map((m) => ({ model_name: m })) }),
    '/get_info': (b) => ({
      model_id: b.model_id,
      model_data: { arch: 'qwen3', model_name: 'Qwen/Qwen3-8B' },
      is_lora: true,
      lora_rank: 32,
    }),
    '/create_model': () => ({ model_id: `model-${++models}` }),
    '/forward_backward': (b) => {
      const r = learnerResult(b, options.learnerShift ?? 0);
      return { loss_fn_output_type: 'ppo', loss_fn_outputs: r.outputs, metrics: { 'loss:sum': r.loss } };
    },
    // Position i of a datum's targets gets log-prob −(i + 1)/100: a test can tell which it read.
    '/forward': (b) => ({
      loss_fn_output_type: 'scalar',
      loss_fn_outputs: (b.forward_input.data as any[]).map((d) => {
        const data = (d.loss_fn_inputs.target_tokens.data as number[]).map((_, i) => -(i + 1) / 100);
        return { logprobs: { data, dtype: 'float32', shape: [data.length] } };
      }),
      metrics: {},
    }),
    '/optim_step': () => ({ metrics: {} }),
    '/save_weights_for_sampler': (b) => {
      const p = `tinker://${b.model_id}/sampler_weights/${b.path}`;
      fake.saved.push(p);
      return { path: p };
    },
    '/save_weights': (b) => {
      const p = `tinker://${b.model_id}/weights/${b.path}`;
      fake.saved.push(p);
      return { path: p };
    },
    '/load_weights': () => ({}),
    '/asample': (b) => {
      const prompt: number[] = b.prompt.chunks[0].tokens;
      const n = Math.min(3, b.sampling_params.max_tokens);
      return {
        sequences: [{ tokens: [7, 8, 2].slice(0, n), logprobs: [-0.1, -0.2, -0.3].slice(0, n), stop_reason: n === 3 ? 'stop' : 'length' }],
        prompt_logprobs: b.prompt_logprobs ? prompt.map((_, i) => (i === 0 ? null : -i / 10)) : null,
        topk_prompt_logprobs: null,
      };
    },
  };
  const handle = (path: string, body: Record<string, any>) => (fake.handlers.get(path) ?? defaults[path])?.(body, fake);

  const http = await serveTinker(fake.requests, (request, send) => {
    const { path, body, text } = request;
    if (options.apiKey !== undefined && request.headers['x-api-key'] !== options.apiKey) return send(401, { detail: 'Invalid API key' });
    const scripted = fake.submitScript.get(path)?.shift();
    if (scripted) return send(scripted.status, scripted.body);
    if (path === '/retrieve_future') {
      const f = futures.get(String(body.request_id));
      if (f === undefined) return send(404, { detail: 'Unknown request_id' });
      const next = fake.pollScript.shift();
      if (next) return send(next.status, next.body);
      try {
        return send(200, handle(f.path, f.body));
      } catch (err) {
        return send(200, { error: (err as Error).message, category: 'user' });
      }
    }
    if (FUTURE_PATHS.has(path)) {
      // (model_id, seq_id) is an idempotency key, as in SkyRL: same payload → same future,
      // another payload → 409.
      if (body.model_id !== undefined && body.seq_id !== undefined) {
        const key = `${body.model_id}#${body.seq_id}`;
        const seen = bySeq.get(key);
        if (seen !== undefined && seen.text !== text) return send(409, { detail: 'Training request sequence number was reused' });
        if (seen !== undefined) return send(200, { request_id: seen.id, model_id: body.model_id });
      }
      const id = String(nextId++);
      if (body.model_id !== undefined && body.seq_id !== undefined) bySeq.set(`${body.model_id}#${body.seq_id}`, { id, text });
      futures.set(id, { path, body });
      return send(200, { request_id: id, model_id: body.model_id });
    }
    const answer = handle(path, body);
    if (answer === undefined) return send(404, { detail: `no route ${path}` });
    return send(200, answer);
  });
  fake.url = http.url;
  return fake;
}
