// Training samples → Tinker `forward_backward` payloads (docs/tinker.md "What a step sends"). Pure.
// For a full sequence s = prompt + response: model_input = s[:-1], target_tokens = s[1:], so
// position i predicts token i+1 and response token t sits at position P − 1 + t. Prompt
// positions (and unmasked response tokens) carry logprobs 0 and advantages 0: a zero advantage
// is the mask of the `ppo` loss. How the server reduces the loss is its profile's (profiles.ts):
// a summing server (hosted, SkyRL-train) gets advantages pre-scaled by the reduction weights of
// src/rl/fold.ts; SkyRL-JAX, which takes a per-datum mean over `weights` and then a mean over
// datums, gets `weights` = the response mask and the advantages as they are — that reduction IS
// our sample mean. Each datum is JSON-encoded once; request bodies are assembled from those
// strings, split under the SDK's per-call limits.
import { OpenClawError } from '../../errors/index.ts';
import { foldAdvantages } from '../../rl/index.ts';
import type { LossConfig, TrainSample } from '../types.ts';

/** The SDK's per-call limits on forward_backward: datums and (uncompressed) JSON bytes. */
export const MAX_DATUMS_PER_CALL = 1024;
export const MAX_BYTES_PER_CALL = 5_000_000;

/** `loss_fn_config` of the ppo loss: ratio bounds 1 − ε and 1 + ε_high. */
export function ppoLossFnConfig(loss: Pick<LossConfig, 'clipRatio' | 'clipRatioHigh'>): {
  clip_low_threshold: number;
  clip_high_threshold: number;
} {
  return { clip_low_threshold: 1 - loss.clipRatio, clip_high_threshold: 1 + loss.clipRatioHigh };
}

/** A Tinker tensor: flat data, a dtype and its shape. */
export interface TinkerTensor {
  data: number[];
  dtype: 'int64' | 'float32';
  shape: number[];
}

/** One datum of forward_backward. */
export interface TinkerDatum {
  model_input: { chunks: Array<{ type: 'encoded_text'; tokens: number[] }> };
  loss_fn_inputs: { target_tokens: TinkerTensor; logprobs: TinkerTensor; advantages: TinkerTensor; weights?: TinkerTensor };
}

const tensor = (data: number[], dtype: TinkerTensor['dtype']): TinkerTensor => ({ data, dtype, shape: [data.length] });

/** Where a sample's response sits in its datum (to read the learner's log-probs back). */
export interface DatumLayout {
  /** Index of the sample in the batch given to `planForwardBackward`. */
  sample: number;
  /** Position in the datum of response token 0 (= prompt length − 1). */
  start: number;
  responseLength: number;
  /** Masked response token indices (trained tokens). */
  masked: number[];
}

/**
 * One sample as a datum, with its advantages already folded (one per response token). With
 * `withWeights`, `weights` = 1 on trained response positions and 0 elsewhere (SkyRL-JAX divides
 * each datum's loss by Σ weights, and takes all positions when `weights` is absent: api.py L592-593).
 */
export function toDatum(s: TrainSample, foldedAdvantages: ArrayLike<number>, withWeights = false): TinkerDatum {
  const P = s.promptIds.length;
  const R = s.responseIds.length;
  if (P === 0)
    throw new OpenClawError('data', 'tinker datum: the sample has an empty prompt (the first response token needs a token before it)');
  if (R === 0) throw new OpenClawError('data', 'tinker datum: the sample has no response tokens');
  for (const [name, v] of [
    ['rolloutLogprobs', s.rolloutLogprobs],
    ['advantages', foldedAdvantages],
    ['lossMask', s.lossMask],
  ] as const) {
    if (v.length !== R) throw new OpenClawError('data', `tinker datum: ${name} has ${v.length} entries for ${R} response tokens`);
  }
  const seq = [...s.promptIds, ...s.responseIds];
  const L = seq.length - 1;
  const logprobs = new Array<number>(L).fill(0);
  const advantages = new Array<number>(L).fill(0);
  const weights = withWeights ? new Array<number>(L).fill(0) : undefined;
  for (let t = 0; t < R; t++) {
    if (!(s.lossMask[t] > 0)) continue;
    const lp = s.rolloutLogprobs[t];
    if (!Number.isFinite(lp)) throw new OpenClawError('data', `tinker datum: rollout log-prob of response token ${t} is ${lp}`);
    logprobs[P - 1 + t] = lp;
    advantages[P - 1 + t] = foldedAdvantages[t];
    if (weights) weights[P - 1 + t] = 1;
  }
  const datum: TinkerDatum = {
    model_input: { chunks: [{ type: 'encoded_text', tokens: seq.slice(0, L) }] },
    loss_fn_inputs: {
      target_tokens: tensor(seq.slice(1), 'int64'),
      logprobs: tensor(logprobs, 'float32'),
      advantages: tensor(advantages, 'float32'),
    },
  };
  if (weights) datum.loss_fn_inputs.weights = tensor(weights, 'float32');
  return datum;
}

/** Datums of one forward_backward call, JSON-encoded, and the layouts to read results back. */
export interface ForwardBackwardChunk {
  datums: string[];
  layouts: DatumLayout[];
  bytes: number;
}

/** The whole step's payload: chunks under the limits plus counts. */
export interface ForwardBackwardPlan {
  chunks: ForwardBackwardChunk[];
  lossFnConfig: { clip_low_threshold: number; clip_high_threshold: number };
  /** Trained (masked) response tokens. */
  tokens: number;
}

/** Options of planForwardBackward. */
export interface PlanOptions {
  loss: Pick<LossConfig, 'clipRatio' | 'clipRatioHigh'>;
  /** The server's reduction (profiles.ts); default `sum` (fold into the advantages). */
  reduction?: 'sum' | 'sequence-mean';
  maxDatums?: number;
  maxBytes?: number;
}

/**
 * Builds a step's datums: folds the sample mean into the advantages over the WHOLE batch (so the
 * sum over all chunks equals the batch loss), encodes each datum once and packs them into chunks.
 * Samples without a masked token are left out (they add nothing to the sum).
 */
export function planForwardBackward(samples: readonly TrainSample[], opts: PlanOptions): ForwardBackwardPlan {
  const maxDatums = opts.maxDatums ?? MAX_DATUMS_PER_CALL;
  const maxBytes = opts.maxBytes ?? MAX_BYTES_PER_CALL;
  const seqMean = opts.reduction === 'sequence-mean';
  // sequence-mean: the server's own reduction is our sample mean, so the advantages go as they are.
  const folded = seqMean
    ? samples.map((s) => s.advantages)
    : foldAdvantages(
        samples.map((s) => s.advantages),
        samples.map((s) => s.lossMask),
      );
  const chunks: ForwardBackwardChunk[] = [];
  let current: ForwardBackwardChunk = { datums: [], layouts: [], bytes: 0 };
  let tokens = 0;
  samples.forEach((s, i) => {
    const masked: number[] = [];
    s.lossMask.forEach((m, t) => {
      if (m > 0) masked.push(t);
    });
    if (masked.length === 0) return;
    tokens += masked.length;
    const text = JSON.stringify(toDatum(s, folded[i], seqMean));
    // Token JSON is ASCII: string length is the byte length. +1 for the separating comma.
    const size = text.length + 1;
    if (current.datums.length > 0 && (current.datums.length >= maxDatums || current.bytes + size > maxBytes)) {
      chunks.push(current);
      current = { datums: [], layouts: [], bytes: 0 };
    }
    current.datums.push(text);
    current.layouts.push({ sample: i, start: s.promptIds.length - 1, responseLength: s.responseIds.length, masked });
    current.bytes += size;
  });
  if (current.datums.length > 0) chunks.push(current);
  return { chunks, lossFnConfig: ppoLossFnConfig(opts.loss), tokens };
}

/**
 * The forward_backward body text for one chunk, built from the pre-encoded datums. No `type`
 * field: the JSON ForwardBackwardRequest of the SDK has none (types/forward_backward_request.py
 * in 0.18.0/0.19.0, a strict model).
 */
export function forwardBackwardBody(
  modelId: string,
  seqId: number,
  lossFnConfig: ForwardBackwardPlan['lossFnConfig'],
  datums: readonly string[],
): string {
  const head = JSON.stringify({ model_id: modelId, seq_id: seqId }).slice(0, -1);
  const cfg = JSON.stringify(lossFnConfig);
  return `${head},"forward_backward_input":{"loss_fn":"ppo","loss_fn_config":${cfg},"data":[${datums.join(',')}]}}`;
}

/**
 * The `forward` body that reads the training model's log-probs of each answer's `responseIds`
 * after its `promptIds` (the regression gate on servers whose sampler paths cannot be staged): one
 * `cross_entropy` datum per answer, laid out as for training (response token t at position
 * P − 1 + t), with `weights` 1 on the response. `forward` computes no gradient, so the loss
 * function only decides which inputs are required (target_tokens, weights); the server answers
 * one output per datum, in order.
 */
export function scoreForwardBody(
  modelId: string,
  seqId: number,
  answers: ReadonlyArray<{ promptIds: readonly number[]; responseIds: readonly number[] }>,
): string {
  const data = answers.map(({ promptIds, responseIds }) => {
    const seq = [...promptIds, ...responseIds];
    const P = promptIds.length;
    const weights = seq.slice(1).map((_, i) => (i >= P - 1 ? 1 : 0));
    return {
      model_input: { chunks: [{ type: 'encoded_text', tokens: seq.slice(0, -1) }] },
      loss_fn_inputs: { target_tokens: tensor(seq.slice(1), 'int64'), weights: tensor(weights, 'float32') },
    };
  });
  return JSON.stringify({ model_id: modelId, seq_id: seqId, forward_input: { loss_fn: 'cross_entropy', data } });
}
