// The learner's output head in row chunks, so a real vocabulary fits. The plain path
// (trainLogprobs) builds the whole [R, V] log-softmax and tfjs keeps it, its softmax and their
// gradients for the backward pass: with Qwen3's 151,669 ids a 1,700-token OpenClaw prompt is
// ~1 GB per tensor and overruns the wasm heap ("memory access out of bounds"). Here the forward
// pass keeps only the chosen tokens' log-probs [R], and the backward pass recomputes the logits
// chunk by chunk, for the rows whose upstream gradient is non-zero only: prompt positions
// (advantage 0) cost nothing, so a step costs one chunked forward plus the response rows.
// Row-wise log-softmax makes the chunked values identical to the plain ones.

import * as tf from '@tensorflow/tfjs';
import { gatherRows, type Gpt } from '../../engines/embedded/index.ts';
import { trainLogprobs, type PackedBatch } from '../../engines/embedded/index.ts';

/** Elements of one [rows, V] logits chunk (~64 MB of float32). */
export const HEAD_CHUNK_ELEMENTS = 1 << 24;

/**
 * Log-probs (temperature 1) of each packed row's target token, [R]. Differentiable. Small
 * batches take the plain path; `chunkRows` forces the chunked one (tests).
 */
export function learnerLogprobs(model: Gpt, batch: PackedBatch, chunkRows?: number): tf.Tensor1D {
  const V = model.config.vocabSize;
  const rowsPer = chunkRows ?? Math.max(1, Math.floor(HEAD_CHUNK_ELEMENTS / V));
  if (chunkRows === undefined && batch.count <= rowsPer) return trainLogprobs(model, batch, 1).chosen;
  const h = gatherRows(model.hidden(batch.tokens, batch.B, batch.T), batch.rows);
  const targets = Int32Array.from(batch.flatTargets, (f, r) => f - r * V);
  const tied = model.config.tieEmbeddings !== false;
  return chunkedHead(h, (tied ? model.params.wte : model.params.head) as tf.Tensor2D, targets, tied, rowsPer);
}

/**
 * chosen[r] = log_softmax(h[r]·W)[targets[r]] with W = eᵀ (tied, e [V, d]) or head [d, V].
 * Backward: d chosen_r / d logits_r = onehot(t_r) − softmax(logits_r).
 */
function chunkedHead(h: tf.Tensor2D, w: tf.Tensor2D, targets: Int32Array, tied: boolean, rowsPer: number): tf.Tensor1D {
  const R = targets.length;
  const d = h.shape[1];
  const V = tied ? w.shape[0] : w.shape[1];
  // Typed as tfjs's variadic CustomGradientFunc wants; the arguments are (h, w, save).
  const op = tf.customGrad(((x: tf.Tensor, wt: tf.Tensor, save: tf.GradSaveFunc) => {
    save([x as tf.Tensor2D, wt as tf.Tensor2D]);
    const parts: tf.Tensor1D[] = [];
    const wDV = tied ? tf.transpose(wt as tf.Tensor2D) : (wt as tf.Tensor2D);
    for (let s = 0; s < R; s += rowsPer) {
      const n = Math.min(rowsPer, R - s);
      parts.push(
        tf.tidy(() => {
          const lp = tf.logSoftmax(tf.matMul(tf.slice(x as tf.Tensor2D, [s, 0], [n, d]), wDV));
          const flat = Int32Array.from(targets.subarray(s, s + n), (t, i) => i * V + t);
          return tf.gather(tf.reshape(lp, [-1]), tf.tensor1d(flat, 'int32')) as tf.Tensor1D;
        }),
      );
    }
    const value = parts.length === 1 ? parts[0] : tf.concat(parts);
    return {
      value,
      gradFunc: (dy: tf.Tensor, [xs, ws]: tf.Tensor[]) => headGrad(dy, xs as tf.Tensor2D, ws as tf.Tensor2D, targets, tied, rowsPer),
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return op(h, w) as tf.Tensor1D;
}

function headGrad(dy: tf.Tensor, x: tf.Tensor2D, w: tf.Tensor2D, targets: Int32Array, tied: boolean, rowsPer: number): tf.Tensor[] {
  const R = targets.length;
  const d = x.shape[1];
  const V = tied ? w.shape[0] : w.shape[1];
  const g = dy.dataSync() as Float32Array;
  const live: number[] = [];
  for (let r = 0; r < R; r++) if (g[r] !== 0) live.push(r);
  if (live.length === 0) return [tf.zerosLike(x), tf.zerosLike(w)];
  const wDV = tied ? tf.transpose(w) : w; // [d, V]
  const wVD = tied ? w : tf.transpose(w); // [V, d]
  const dxRows: tf.Tensor2D[] = [];
  let dW: tf.Tensor2D | null = null; // [d, V]
  for (let s = 0; s < live.length; s += rowsPer) {
    const idx = live.slice(s, s + rowsPer);
    const part = tf.tidy(() => {
      const xc = tf.gather(x, tf.tensor1d(idx, 'int32')) as tf.Tensor2D;
      const p = tf.softmax(tf.matMul(xc, wDV));
      const onehot = tf.cast(
        tf.oneHot(
          tf.tensor1d(
            Int32Array.from(idx, (r) => targets[r]),
            'int32',
          ),
          V,
        ),
        'float32',
      );
      const dLogits = tf.mul(
        tf.sub(onehot, p),
        tf.tensor2d(
          Float32Array.from(idx, (r) => g[r]),
          [idx.length, 1],
        ),
      );
      return { dx: tf.matMul(dLogits, wVD) as tf.Tensor2D, dw: tf.matMul(tf.transpose(xc), dLogits) as tf.Tensor2D };
    });
    dxRows.push(part.dx);
    if (dW === null) dW = part.dw;
    else {
      const prev: tf.Tensor2D = dW;
      dW = tf.add(prev, part.dw) as tf.Tensor2D;
      tf.dispose([prev, part.dw]);
    }
  }
  const rowsDx = dxRows.length === 1 ? dxRows[0] : tf.concat(dxRows);
  const dx = tf.scatterND(tf.tensor2d(Int32Array.from(live), [live.length, 1], 'int32'), rowsDx, [R, d]);
  const dwOut = tied ? tf.transpose(dW as tf.Tensor2D) : (dW as tf.Tensor2D);
  return [dx, dwOut];
}
