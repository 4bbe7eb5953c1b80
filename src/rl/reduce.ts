// Masked reductions: how per-token values become one number per batch. Masked-out tokens are
// skipped entirely (their values may be garbage, even NaN), and a batch with no masked token
// reduces to 0 rather than NaN so a step of all-dropped samples logs zeros.

import { OpenClawError } from '../errors/index.ts';
import { assertSameLength } from './check.ts';

/** A mask entry > 0 means "this token counts"; masks are 0/1 and larger values also count as 1. */
export function isMasked(mask: ArrayLike<number>, t: number): boolean {
  return mask[t] > 0;
}

/** Per-token rows: one flat sequence, or a batch given as one sequence per sample. */
export type Rows = ArrayLike<number> | readonly ArrayLike<number>[];

function asRows(rows: Rows): readonly ArrayLike<number>[] {
  if (rows.length > 0 && typeof rows[0] === 'object') return rows as readonly ArrayLike<number>[];
  return [rows as ArrayLike<number>];
}

/** Sum and count of the masked entries of one sequence. */
export function maskedSum(values: ArrayLike<number>, mask: ArrayLike<number>): { sum: number; count: number } {
  assertSameLength('masked reduction', 'values', values, 'mask', mask);
  let sum = 0;
  let count = 0;
  for (let t = 0; t < values.length; t++) {
    if (!isMasked(mask, t)) continue;
    sum += values[t];
    count += 1;
  }
  return { sum, count };
}

/** Mean over all masked tokens of the batch (every token weighs the same); 0 when none. */
export function tokenMean(values: Rows, mask: Rows): number {
  const valueRows = asRows(values);
  const maskRows = asRows(mask);
  if (valueRows.length !== maskRows.length) {
    throw new OpenClawError('data', `tokenMean: ${valueRows.length} value rows but ${maskRows.length} mask rows`);
  }
  let sum = 0;
  let count = 0;
  for (let i = 0; i < valueRows.length; i++) {
    const part = maskedSum(valueRows[i], maskRows[i]);
    sum += part.sum;
    count += part.count;
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * The weight of every token under the sample mean: 1/(n_i·B) for each of the n_i masked tokens
 * of the B samples that have any, 0 elsewhere. Σ w·v over masked tokens is `sampleMean(v)`; the
 * embedded engine packs these weights into its batch, so its weighted sums are this reduction.
 */
export function sampleMeanWeights(masks: readonly ArrayLike<number>[]): Float64Array[] {
  const counts = masks.map((mask) => {
    let n = 0;
    for (let t = 0; t < mask.length; t++) if (isMasked(mask, t)) n += 1;
    return n;
  });
  const samples = counts.filter((n) => n > 0).length;
  return masks.map((mask, i) => {
    const w = new Float64Array(mask.length);
    for (let t = 0; t < mask.length; t++) if (isMasked(mask, t)) w[t] = 1 / (counts[i] * samples);
    return w;
  });
}

/**
 * Mean over the masked tokens of each sample, then over the samples that have at least one
 * masked token (every sample weighs the same, whatever its length); 0 when there are none.
 * The loss and every metric of the PPO step use this reduction (docs/design.md §2).
 */
export function sampleMean(perSampleValues: readonly ArrayLike<number>[], masks: readonly ArrayLike<number>[]): number {
  if (perSampleValues.length !== masks.length) {
    throw new OpenClawError('data', `sampleMean: ${perSampleValues.length} samples but ${masks.length} masks`);
  }
  const weights = sampleMeanWeights(masks);
  let sum = 0;
  for (let i = 0; i < perSampleValues.length; i++) {
    const values = perSampleValues[i];
    assertSameLength('masked reduction', 'values', values, 'mask', masks[i]);
    for (let t = 0; t < values.length; t++) if (isMasked(masks[i], t)) sum += weights[i][t] * values[t];
  }
  return sum;
}
