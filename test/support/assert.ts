// Assertions shared by unit tests.
import assert from 'node:assert/strict';
import { OpenClawError } from '../../src/errors/index.ts';

/** Element-wise |actual − expected| ≤ tol, with the index of the first miss. */
export function assertClose(actual: ArrayLike<number>, expected: number[], tol = 1e-12): void {
  assert.equal(actual.length, expected.length, 'length');
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

/** For assert.throws: an OpenClawError of `kind` whose message matches `pattern`, if given. */
export function isKind(kind: string, pattern?: RegExp) {
  return (err: unknown) => err instanceof OpenClawError && err.kind === kind && (pattern === undefined || pattern.test(err.message));
}
