// The evaluation's I/O: read the tally from a sample store (the running server's, or a run folder's
// store opened read-only) and hand it to the pure aggregation.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../errors/index.ts';
import { SampleStore, SAMPLE_STORE_FILE, type VersionTally } from '../samples/index.ts';
import { gateRefusalsOf } from './gate-refusals.ts';
import { evaluate, type EvaluateOptions, type Evaluation } from './aggregate.ts';

/** The evaluation of whatever the store holds now. */
export function evaluationOf(store: { tallyByVersion(): VersionTally }, opts: EvaluateOptions = {}): Evaluation {
  return evaluate(store.tallyByVersion(), opts);
}

/**
 * The evaluation of the run in `outputDir`, stopped or running: its store is opened read-only, so
 * nothing of the run is changed (no lease returned, no migration, no file created).
 */
export function evaluationOfRun(outputDir: string, opts: EvaluateOptions = {}): Evaluation {
  const path = join(outputDir, SAMPLE_STORE_FILE);
  if (!existsSync(path)) {
    throw new OpenClawError(
      'config',
      `no sample store at ${path}: pass the --output-dir of a run (the folder holding samples.sqlite, records/ and logs/)`,
      { code: 'store_not_found' },
    );
  }
  const store = SampleStore.open(path, { readOnly: true });
  try {
    const at = store.oldestTurnAt();
    return {
      ...evaluationOf(store, opts),
      oldest_turn_at: at === null ? null : new Date(at).toISOString(),
      gate_refusals: gateRefusalsOf(outputDir),
    };
  } finally {
    store.close();
  }
}
