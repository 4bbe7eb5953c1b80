// JSONL export of a run's samples for offline trainers (`openclaw-rl export --format jsonl`):
// one JSON object per line with snake_case field names, as in every HTTP answer, streamed row by
// row with backpressure, never the whole table in memory. A reader that goes away early (the
// export piped into `head`) ends the export quietly; any other write error is an error.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { OpenClawError } from '../errors/index.ts';
import type { SampleStore } from './store.ts';
import type { ListOptions, StoredSample } from './store-types.ts';

/** One exported line: every Sample field, plus the sample's state and drop reason. */
export interface ExportedSample {
  id: string;
  session_id: string;
  turn_id: number;
  policy_version: number;
  type: StoredSample['type'];
  state: StoredSample['state'];
  drop_reason: StoredSample['dropReason'];
  loss_mask: 0 | 1;
  reward: number;
  votes: StoredSample['votes'];
  hint: string | null;
  prompt_ids: number[];
  response_ids: number[];
  rollout_logprobs: number[];
  teacher_logprobs: number[] | null;
  teacher_top_k: StoredSample['teacherTopK'];
  created_at: number;
}

/** The JSON object written for one sample (field order is fixed so diffs of exports stay readable). */
export function exportRecord(s: StoredSample): ExportedSample {
  return {
    id: s.id,
    session_id: s.sessionId,
    turn_id: s.turnId,
    policy_version: s.policyVersion,
    type: s.type,
    state: s.state,
    drop_reason: s.dropReason,
    loss_mask: s.lossMask,
    reward: s.reward,
    votes: s.votes,
    hint: s.hint,
    prompt_ids: s.promptIds,
    response_ids: s.responseIds,
    rollout_logprobs: s.rolloutLogprobs,
    teacher_logprobs: s.teacherLogprobs,
    teacher_top_k: s.teacherTopK,
    created_at: s.createdAt,
  };
}

/** How an export ended: lines handed to the stream, and whether the reader closed it first. */
export interface ExportResult {
  lines: number;
  readerClosed: boolean;
}

/** EPIPE: the reading end of a pipe is gone; ERR_STREAM_DESTROYED: writes after that. */
function isClosedReader(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/** Waits until the stream takes writes again or has ended (closed, or failed: the caller reads why). */
async function drainedOrClosed(out: Writable): Promise<void> {
  const ac = new AbortController();
  await Promise.race([once(out, 'drain', { signal: ac.signal }), once(out, 'close', { signal: ac.signal })]).catch(() => undefined);
  ac.abort();
}

/**
 * Writes the store's samples (optionally filtered) as JSONL to `out`, oldest first. Non-finite
 * log-probs (e.g. -Infinity) become null, as JSON has no such numbers.
 */
export async function exportJsonl(
  store: SampleStore,
  out: Writable,
  filter: Pick<ListOptions, 'sessionId' | 'state'> = {},
): Promise<ExportResult> {
  let failure: NodeJS.ErrnoException | null = null;
  // Stays attached after the export: a closed pipe reports errors for writes already queued, and
  // an 'error' event without a listener would crash the process with a stack trace.
  out.on('error', (err: NodeJS.ErrnoException) => {
    failure ??= err;
  });
  let lines = 0;
  for (const sample of store.iterateSamples(filter)) {
    // A failed synchronous write (stdout into a closed pipe) destroys the stream at once; its
    // 'error' event only comes on a later tick.
    if (failure !== null || out.destroyed) break;
    const ok = out.write(`${JSON.stringify(exportRecord(sample))}\n`);
    lines++;
    if (!ok) await drainedOrClosed(out);
  }
  // Lets a pending 'error' event of the last writes arrive before deciding how the export ended.
  await new Promise((resolve) => setImmediate(resolve));
  const err = failure as NodeJS.ErrnoException | null;
  if (err !== null && !isClosedReader(err)) {
    throw new OpenClawError('internal', `export: writing the output failed after ${lines} samples: ${err.message}`);
  }
  return { lines, readerClosed: err !== null || out.destroyed };
}
