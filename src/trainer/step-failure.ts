// The one way a training step fails (trainer.ts runStep). Each phase of a step runs through
// `phase`, which names what becomes of the step's leased batch if that phase throws; the step's one
// catch hands the failure to `settleFailedStep`, which settles the lease accordingly and gives back
// the error as it was thrown. In: the store, the lease, the failure. Out: the original error.
import type { Logger } from 'pino';
import type { Lease, SampleStore } from '../samples/index.ts';

/**
 * What a failed step does with its batch:
 * - 'release': nothing changed yet that serving, training or a record could see — back to ready;
 * - 'mark_trained': the engine's training state took the update, but it neither served nor was
 *   refused — the batch counts as trained by this step (training it again would apply it twice),
 *   and the update serves with the next version that passes;
 * - 'keep': the version served or was refused and the batch is settled — only the failure is reported.
 */
export type BatchOnFailure = 'release' | 'mark_trained' | 'keep';

/** A phase of a step failed: `error` as thrown, and what becomes of the step's batch. */
export class StepFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly batch: BatchOnFailure,
  ) {
    // Never seen outside the step (its catch rethrows `error`): no message is read from what was thrown.
    super(`training step phase failed (batch: ${batch})`);
    this.name = 'StepFailure';
  }
}

/** Runs one phase of a step: its value, or a StepFailure that says what becomes of the batch. */
export async function phase<T>(onFailure: BatchOnFailure, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw err instanceof StepFailure ? err : new StepFailure(err, onFailure);
  }
}

/**
 * Settles a failed step's lease as its failure says (an error no phase named returns the batch to
 * ready) and returns the error as thrown, for the caller to rethrow. `step`: the step that failed.
 */
export function settleFailedStep(store: SampleStore, lease: Lease, err: unknown, step: number, log?: Logger): unknown {
  const failure = err instanceof StepFailure ? err : new StepFailure(err, 'release');
  if (failure.batch === 'mark_trained') {
    store.markTrained(lease.leaseId, step);
    log?.warn({ step, err: (failure.error as Error).message }, 'step failed after its update: the batch stays trained, unpublished');
  } else if (failure.batch === 'release') store.releaseLease(lease.leaseId);
  return failure.error;
}
