// JSONL export of a run's samples for offline trainers (`openclaw-rl export --format jsonl`):
// one JSON object per line, streamed row by row with backpressure, never the whole table in memory.
import { once } from 'node:events';
import type { SampleStore } from './store.ts';
import type { ListOptions, StoredSample } from './store-types.ts';

/** One exported line: every Sample field, plus the sample's state and drop reason. */
export type ExportedSample = Omit<StoredSample, 'leaseId' | 'leaseCount'>;

/** The JSON object written for one sample (field order is fixed so diffs of exports stay readable). */
export function exportRecord(s: StoredSample): ExportedSample {
  return {
    id: s.id,
    sessionId: s.sessionId,
    turnId: s.turnId,
    policyVersion: s.policyVersion,
    type: s.type,
    state: s.state,
    dropReason: s.dropReason,
    lossMask: s.lossMask,
    reward: s.reward,
    votes: s.votes,
    hint: s.hint,
    promptIds: s.promptIds,
    responseIds: s.responseIds,
    rolloutLogprobs: s.rolloutLogprobs,
    teacherLogprobs: s.teacherLogprobs,
    teacherTopK: s.teacherTopK,
    createdAt: s.createdAt,
  };
}

/**
 * Writes the store's samples (optionally filtered) as JSONL to `out`, oldest first; resolves with
 * the number of lines. Non-finite log-probs (e.g. -Infinity) become null, as JSON has no such numbers.
 */
export async function exportJsonl(
  store: SampleStore,
  out: NodeJS.WritableStream,
  filter: Pick<ListOptions, 'sessionId' | 'state'> = {},
): Promise<number> {
  let lines = 0;
  for (const sample of store.iterateSamples(filter)) {
    const ok = out.write(`${JSON.stringify(exportRecord(sample))}\n`);
    lines++;
    // `once` rejects if the stream errors (e.g. EPIPE when piped into `head`), ending the export.
    if (!ok) await once(out, 'drain');
  }
  return lines;
}
