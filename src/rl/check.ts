// Boundary checks shared by the rl/ functions. Misaligned arrays are the most common way a
// training sample goes wrong (a log-prob missing after re-tokenisation), so every function that
// pairs arrays token by token checks their lengths here and names both in the error.

import { OpenClawError } from '../errors/index.ts';

/** Throws a 'data' error unless two per-token arrays have the same length. */
export function assertSameLength(context: string, aName: string, a: ArrayLike<number>, bName: string, b: ArrayLike<number>): void {
  if (a.length !== b.length) {
    throw new OpenClawError(
      'data',
      `${context}: ${aName} has ${a.length} tokens but ${bName} has ${b.length}; ` + 'they must be aligned one per response token',
    );
  }
}

/** Throws a 'data' error naming the first non-finite entry of a per-token array. */
export function assertFinite(context: string, name: string, values: ArrayLike<number>): void {
  for (let t = 0; t < values.length; t++) {
    if (!Number.isFinite(values[t])) {
      throw new OpenClawError('data', `${context}: ${name}[${t}] is ${values[t]}; expected a finite number`);
    }
  }
}

/** Throws a 'config' error unless `value` is a finite number >= 0. */
export function assertNonNegative(context: string, name: string, value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) {
    throw new OpenClawError('config', `${context}: ${name} must be a finite number >= 0, got ${value}`);
  }
}
