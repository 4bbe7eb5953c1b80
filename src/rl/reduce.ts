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
 * Mean over the masked tokens of each sample, then over the samples that have at least one
 * masked token (every sample weighs the same, whatever its length); 0 when there are none.
 */
export function sampleMean(perSampleValues: readonly ArrayLike<number>[], masks: readonly ArrayLike<number>[]): number {
  if (perSampleValues.length !== masks.length) {
    throw new OpenClawError('data', `sampleMean: ${perSampleValues.length} samples but ${masks.length} masks`);
  }
  let sum = 0;
  let samples = 0;
  for (let i = 0; i < perSampleValues.length; i++) {
    const part = maskedSum(perSampleValues[i], masks[i]);
    if (part.count === 0) continue;
    sum += part.sum / part.count;
    samples += 1;
  }
  return samples === 0 ? 0 : sum / samples;
}

/** Which reduction turns per-token terms into the batch loss (DESIGN.md §2 default: 'sample-mean'). */
export type Reduction = 'sample-mean' | 'token-mean';

/** Applies the named reduction to per-sample rows. */
export function reduce(reduction: Reduction, values: readonly ArrayLike<number>[], masks: readonly ArrayLike<number>[]): number {
  return reduction === 'token-mean' ? tokenMean(values, masks) : sampleMean(values, masks);
}
