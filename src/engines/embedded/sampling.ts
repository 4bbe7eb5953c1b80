// Generation and scoring on a Gpt. Log-probs everywhere are log_softmax(logits / T) of the
// chosen token under the FULL distribution (top-p only narrows which tokens may be drawn), so a
// training pass at the same temperature reproduces them and PPO ratios start at exactly 1.
// Temperature 0 means greedy decoding; its log-probs are then reported at T = 1.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError, invalidRequest } from '../../errors/index.ts';
import { logprobTemperature, type TopK } from '../types.ts';
import type { BatchKvCache, Gpt, KvCache } from './model.ts';
import { Rng } from '../../rl/index.ts';

/** What to sample. */
export interface GenerateTokensRequest {
  promptIds: readonly number[];
  maxTokens: number;
  temperature: number;
  topP?: number;
  stopTokenIds?: readonly number[];
  /**
   * Put the sampled stop token (and its log-prob) at the end of the result (default true): RL must
   * train the end-of-turn decision, or answer length could never be learned.
   */
  includeStopToken?: boolean;
  seed?: number;
  signal?: AbortSignal;
}

/** Sampled tokens with their log-probs. */
export interface GeneratedTokens {
  tokenIds: number[];
  logprobs: number[];
  finishReason: 'stop' | 'length';
}

function checkTokens(name: string, ids: readonly number[], vocabSize: number): void {
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
      throw invalidRequest(`${name} contains token id ${id}, outside the model's vocabulary of ${vocabSize}`, name);
    }
  }
}

/** Draws one index from probabilities `probs` restricted to the top-p nucleus. */
export function sampleIndex(probs: Float64Array, topP: number, rng: Rng): number {
  let order: number[] | null = null;
  let mass = 1;
  if (topP < 1) {
    order = Array.from(probs.keys()).sort((a, b) => probs[b] - probs[a] || a - b);
    let kept = 0;
    mass = 0;
    while (kept < order.length && mass < topP) mass += probs[order[kept++]];
    order.length = kept;
  }
  const u = rng.uniform() * mass;
  let acc = 0;
  const n = order === null ? probs.length : order.length;
  for (let i = 0; i < n; i++) {
    const id = order === null ? i : order[i];
    acc += probs[id];
    if (u < acc) return id;
  }
  // Rounding can leave u just above the last partial sum: take the last candidate.
  return order === null ? probs.length - 1 : order[n - 1];
}

function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** Throws the error a caller can act on for a request the model cannot answer. */
function checkGenerateRequest(model: Gpt, req: GenerateTokensRequest): void {
  const { ctx, vocabSize } = model.config;
  if (req.promptIds.length === 0) throw invalidRequest('promptIds is empty: the model needs at least one prompt token', 'promptIds');
  if (req.promptIds.length >= ctx) {
    throw new OpenClawError(
      'context_length',
      `prompt of ${req.promptIds.length} tokens leaves no room in the embedded model's context of ${ctx}`,
      { param: 'messages' },
    );
  }
  if (!(req.temperature >= 0)) throw invalidRequest(`temperature must be ≥ 0, got ${req.temperature}`, 'temperature');
  const topP = req.topP ?? 1;
  if (!(topP > 0 && topP <= 1)) throw invalidRequest(`top_p must be in (0, 1], got ${topP}`, 'top_p');
  checkTokens('promptIds', req.promptIds, vocabSize);
}

/** The next token from log-probs `lp`: greedy at temperature 0, else drawn within the top-p nucleus. */
function drawToken(lp: Float32Array, temperature: number, topP: number, rng: Rng): number {
  if (temperature === 0) return argmax(lp);
  const probs = new Float64Array(lp.length);
  for (let i = 0; i < lp.length; i++) probs[i] = Math.exp(lp[i]);
  return sampleIndex(probs, topP, rng);
}

/** Samples up to maxTokens after the prompt with a KV cache; yields to the event loop per token. */
export async function generateTokens(
  model: Gpt,
  req: GenerateTokensRequest,
  onToken?: (id: number, logprob: number) => void,
): Promise<GeneratedTokens> {
  const { ctx } = model.config;
  checkGenerateRequest(model, req);
  const topP = req.topP ?? 1;
  const stop = new Set(req.stopTokenIds ?? []);
  const rng = new Rng(req.seed ?? Math.floor(Math.random() * 2 ** 32));
  const temperature = logprobTemperature(req.temperature);
  const tokenIds: number[] = [];
  const logprobs: number[] = [];
  let state = tidyState(() => model.prefill(req.promptIds));
  try {
    for (;;) {
      if (req.signal?.aborted === true) throw req.signal.reason ?? new Error('generation aborted');
      if (tokenIds.length >= req.maxTokens) return { tokenIds, logprobs, finishReason: 'length' };
      const lpTensor = tf.tidy(() => tf.logSoftmax(tf.div(state.logits, temperature)));
      const lp = lpTensor.dataSync() as Float32Array;
      lpTensor.dispose();
      const id = drawToken(lp, req.temperature, topP, rng);
      const isStop = stop.has(id);
      if (!isStop || (req.includeStopToken ?? true)) {
        tokenIds.push(id);
        logprobs.push(lp[id]);
        onToken?.(id, lp[id]);
      }
      if (isStop) return { tokenIds, logprobs, finishReason: 'stop' };
      if (state.cache.length + 1 > ctx || tokenIds.length >= req.maxTokens) return { tokenIds, logprobs, finishReason: 'length' };
      const previous = state;
      state = tidyState(() => model.decode(previous.cache, id));
      disposeState(previous);
      // Let other work (HTTP streaming, health checks) run between tokens.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    disposeState(state);
  }
}

interface DecodeState {
  cache: KvCache;
  logits: tf.Tensor2D;
}

/** tf.tidy for a decode state (tidy keeps every tensor found in the returned object). */
function tidyState(fn: () => DecodeState): DecodeState {
  return tf.tidy(() => fn() as unknown as tf.TensorContainer) as unknown as DecodeState;
}

function disposeState(s: DecodeState): void {
  tf.dispose([...s.cache.k, ...s.cache.v, s.logits]);
}

/** Elements of one [rows, V] chunk of scored logits (~64 MB of float32). */
const SCORE_CHUNK_ELEMENTS = 1 << 24;

/** Log-probs of given response tokens after a prompt (one forward pass), optionally with top-K. */
export function scoreTokens(
  model: Gpt,
  promptIds: readonly number[],
  responseIds: readonly number[],
  temperature: number,
  topK?: number,
): { logprobs: number[]; topK?: TopK[] } {
  const { vocabSize } = model.config;
  if (promptIds.length === 0) throw invalidRequest('promptIds is empty: scoring needs at least one prompt token', 'promptIds');
  checkTokens('promptIds', promptIds, vocabSize);
  checkTokens('responseIds', responseIds, vocabSize);
  if (responseIds.length === 0) return topK !== undefined ? { logprobs: [], topK: [] } : { logprobs: [] };
  const ids = [...promptIds, ...responseIds];
  const R = responseIds.length;
  const P = promptIds.length;
  const T = ids.length - 1;
  const k = topK === undefined ? 0 : Math.min(Math.max(1, Math.floor(topK)), vocabSize);
  // The head runs on row chunks of at most SCORE_CHUNK_ELEMENTS logits: with a real vocabulary
  // (Qwen3's 151,669 ids) a whole long prompt's [R, V] log-softmax would not fit the wasm heap.
  const rowsPer = Math.max(1, Math.floor(SCORE_CHUNK_ELEMENTS / vocabSize));
  const out = tf.tidy(() => {
    const h = model.hidden(Int32Array.from(ids.slice(0, T)), 1, T);
    const chosen: tf.Tensor[] = [];
    const values: tf.Tensor[] = [];
    const indices: tf.Tensor[] = [];
    for (let s = 0; s < R; s += rowsPer) {
      const n = Math.min(rowsPer, R - s);
      // Its own tidy: each chunk's [n, V] tensors are freed before the next one is made.
      const part = tf.tidy(() => {
        const rows = tf.slice(h, [P - 1 + s, 0], [n, model.config.dModel]);
        const lp = tf.logSoftmax(tf.div(model.logits(rows), logprobTemperature(temperature)));
        const flat = Int32Array.from(responseIds.slice(s, s + n), (id, r) => r * vocabSize + id);
        const picked = tf.gather(tf.reshape(lp, [-1]), tf.tensor1d(flat, 'int32'));
        if (k === 0) return { picked };
        const top = tf.topk(lp, k);
        return { picked, values: top.values, indices: top.indices };
      });
      chosen.push(part.picked);
      if (part.values !== undefined && part.indices !== undefined) {
        values.push(part.values);
        indices.push(part.indices);
      }
    }
    const all = (parts: tf.Tensor[]) => (parts.length === 1 ? parts[0] : tf.concat(parts));
    if (k === 0) return { chosen: all(chosen) };
    return { chosen: all(chosen), topValues: all(values), topIndices: all(indices) };
  });
  try {
    const logprobs = Array.from(out.chosen.dataSync());
    if (k === 0 || out.topValues === undefined || out.topIndices === undefined) return { logprobs };
    const values = out.topValues.dataSync() as Float32Array;
    const indices = out.topIndices.dataSync() as Int32Array;
    const tops: TopK[] = [];
    for (let r = 0; r < R; r++)
      tops.push({ ids: Array.from(indices.subarray(r * k, (r + 1) * k)), logprobs: Array.from(values.subarray(r * k, (r + 1) * k)) });
    return { logprobs, topK: tops };
  } finally {
    tf.dispose(Object.values(out));
  }
}

/** Sequences per forward pass of scoreTokensMany: 2–4 halved the gate's scoring time on the base model; 16 and more were slower (the [B, heads, T, T] attention of padded rows). */
const SCORE_BATCH = 4;

/**
 * Log-probs of many (prompt, response) pairs at one temperature, several sequences per forward
 * pass: the gate scores dozens of held-out answers per step, and on a small model one pass per
 * answer is mostly per-operation overhead. Sequences are padded on the right; attention is
 * causal, so padding never reaches the rows read. Equal to scoreTokens per pair up to float
 * rounding.
 */
export function scoreTokensMany(
  model: Gpt,
  reqs: ReadonlyArray<{ promptIds: readonly number[]; responseIds: readonly number[] }>,
  temperature: number,
): number[][] {
  const { vocabSize } = model.config;
  const out: number[][] = reqs.map(() => []);
  reqs.forEach((r, i) => {
    if (r.promptIds.length === 0)
      throw invalidRequest(`reqs[${i}].promptIds is empty: scoring needs at least one prompt token`, 'promptIds');
    checkTokens('promptIds', r.promptIds, vocabSize);
    checkTokens('responseIds', r.responseIds, vocabSize);
  });
  // Similar lengths side by side: less padding.
  const order = reqs
    .map((_, i) => i)
    .filter((i) => reqs[i].responseIds.length > 0)
    .sort((a, b) => reqs[a].promptIds.length + reqs[a].responseIds.length - (reqs[b].promptIds.length + reqs[b].responseIds.length));
  const rowsPer = Math.max(1, Math.floor(SCORE_CHUNK_ELEMENTS / vocabSize));
  for (let c = 0; c < order.length; c += SCORE_BATCH) {
    const group = order.slice(c, c + SCORE_BATCH);
    const T = Math.max(...group.map((i) => reqs[i].promptIds.length + reqs[i].responseIds.length - 1));
    const tokens = new Int32Array(group.length * T);
    const rows: number[] = [];
    const picks: number[] = [];
    group.forEach((i, b) => {
      const { promptIds: p, responseIds: r } = reqs[i];
      tokens.set([...p, ...r].slice(0, p.length + r.length - 1), b * T);
      for (let t = 0; t < r.length; t++) {
        rows.push(b * T + p.length - 1 + t);
        picks.push(r[t]);
      }
    });
    const chosen = tf.tidy(() => {
      const h = model.hidden(tokens, group.length, T);
      const parts: tf.Tensor[] = [];
      for (let s = 0; s < rows.length; s += rowsPer) {
        const n = Math.min(rowsPer, rows.length - s);
        parts.push(
          tf.tidy(() => {
            const sel = tf.gather(h, tf.tensor1d(Int32Array.from(rows.slice(s, s + n)), 'int32')) as tf.Tensor2D;
            const lp = tf.logSoftmax(tf.div(model.logits(sel), logprobTemperature(temperature)));
            const flat = Int32Array.from(picks.slice(s, s + n), (id, k) => k * vocabSize + id);
            return tf.gather(tf.reshape(lp, [-1]), tf.tensor1d(flat, 'int32'));
          }),
        );
      }
      return parts.length === 1 ? parts[0] : tf.concat(parts);
    });
    const values = Array.from(chosen.dataSync());
    chosen.dispose();
    let at = 0;
    for (const i of group) {
      const R = reqs[i].responseIds.length;
      out[i] = values.slice(at, at + R);
      at += R;
    }
  }
  return out;
}

/** One sequence of generateTokensMany as it grows. */
interface GrowingAnswer {
  req: GenerateTokensRequest;
  rng: Rng;
  stop: Set<number>;
  tokenIds: number[];
  logprobs: number[];
  finishReason?: 'stop' | 'length';
  /** The position the next fed token takes (the length of its cache). */
  position: number;
  last: number;
}

/**
 * generateTokens for several requests at once: each prompt is prefilled on its own, then every
 * answer is decoded in one batched pass per token (Gpt.decodeMany), so a dozen short answers cost
 * about as many passes as the longest one instead of their sum (the gate's probes). Each answer
 * draws with its own seed exactly as generateTokens does; the results match it up to float
 * rounding. For work off the serving path: no streaming, no abort.
 */
export async function generateTokensMany(model: Gpt, reqs: readonly GenerateTokensRequest[]): Promise<GeneratedTokens[]> {
  const { ctx, vocabSize: V } = model.config;
  for (const r of reqs) checkGenerateRequest(model, r);
  if (reqs.length === 0) return [];
  const answers: GrowingAnswer[] = reqs.map((req) => ({
    req,
    rng: new Rng(req.seed ?? Math.floor(Math.random() * 2 ** 32)),
    stop: new Set(req.stopTokenIds ?? []),
    tokenIds: [],
    logprobs: [],
    position: req.promptIds.length,
    last: 0,
  }));
  const temperatures = tf.tensor2d(
    reqs.map((r) => logprobTemperature(r.temperature)),
    [reqs.length, 1],
  );
  let logits: tf.Tensor2D | undefined;
  let cache: BatchKvCache | undefined;
  try {
    const states = reqs.map((r) => tidyState(() => model.prefill(r.promptIds)));
    logits = tf.concat(states.map((st) => st.logits)) as tf.Tensor2D;
    cache = tf.tidy(() => model.batchCaches(states.map((st) => st.cache)) as unknown as tf.TensorContainer) as unknown as BatchKvCache;
    for (const st of states) disposeState(st);
    for (;;) {
      const lpTensor = tf.tidy(() => tf.logSoftmax(tf.div(logits!, temperatures)));
      const all = lpTensor.dataSync() as Float32Array;
      lpTensor.dispose();
      answers.forEach((a, b) => {
        if (a.finishReason !== undefined) return;
        if (a.tokenIds.length >= a.req.maxTokens) {
          a.finishReason = 'length';
          return;
        }
        const lp = all.subarray(b * V, (b + 1) * V);
        const id = drawToken(lp, a.req.temperature, a.req.topP ?? 1, a.rng);
        const isStop = a.stop.has(id);
        if (!isStop || (a.req.includeStopToken ?? true)) {
          a.tokenIds.push(id);
          a.logprobs.push(lp[id]);
        }
        if (isStop) a.finishReason = 'stop';
        else if (a.position + 1 > ctx || a.tokenIds.length >= a.req.maxTokens) a.finishReason = 'length';
        a.last = id;
      });
      if (answers.every((a) => a.finishReason !== undefined)) break;
      // Finished answers ride along with token 0; their rows are not read.
      const tokens = answers.map((a) => (a.finishReason === undefined ? a.last : 0));
      const positions = answers.map((a) => (a.finishReason === undefined ? a.position : 0));
      const previous: BatchKvCache = cache;
      const previousLogits: tf.Tensor2D = logits;
      const step = tf.tidy(() => {
        const r = model.decodeMany(previous, tokens, positions);
        return [r.logits, r.cache.bias, ...r.cache.k, ...r.cache.v] as tf.Tensor[];
      });
      const L = model.config.nLayer;
      logits = step[0] as tf.Tensor2D;
      cache = { bias: step[1] as tf.Tensor3D, k: step.slice(2, 2 + L) as tf.Tensor3D[], v: step.slice(2 + L) as tf.Tensor3D[] };
      tf.dispose([previousLogits, previous.bias, ...previous.k, ...previous.v]);
      for (const a of answers) if (a.finishReason === undefined) a.position++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return answers.map((a) => ({ tokenIds: a.tokenIds, logprobs: a.logprobs, finishReason: a.finishReason! }));
  } finally {
    tf.dispose([temperatures, ...(logits ? [logits] : []), ...(cache ? [cache.bias, ...cache.k, ...cache.v] : [])]);
  }
}
