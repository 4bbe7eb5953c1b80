// The JSONL record file of a run: one `turn` line as soon as a main turn's answer is complete,
// then one `next_state` line when its next state is known (or known to be absent). Writing both
// as soon as they are known means a crash loses at most a partially written last line.
// Lines are written with one write(2) each on a file opened for append, so the kernel keeps them
// across a process crash; on open, a torn last line is terminated so the next line stays valid.
import { existsSync, readFileSync } from 'node:fs';
import { SHARED_CHAT_MEMBERS, stringifyWithShared } from '../util/json-text.ts';
import { JsonlAppender } from '../util/jsonl.ts';
import type { Turn } from './tracker.ts';

/** One line of the record file. */
export type RecordLine =
  | {
      type: 'turn';
      session_id: string;
      turn_id: number;
      messages: unknown[];
      tools?: unknown;
      prompt_text?: string;
      response: unknown;
      response_text: string;
      tool_calls?: unknown;
      prompt_ids?: number[];
      response_ids?: number[];
      logprobs?: number[];
      /** Present when token alignment padded log-probs: 0 marks a padded position. */
      logprob_mask?: number[];
      finish_reason: string | null;
      policy_version: number;
      token_warnings?: string[];
      started_at: string;
      completed_at: string;
    }
  | {
      type: 'next_state';
      session_id: string;
      turn_id: number;
      next_state: { role: string; content: string } | null;
      reason?: string;
      at: string;
    };

/** Appends record lines to one file; survives process crashes line by line. */
export class RecordWriter {
  private readonly out: JsonlAppender;

  constructor(path: string) {
    this.out = new JsonlAppender(path);
  }

  get path(): string {
    return this.out.path;
  }

  /** Lines written since this writer opened. */
  get lines(): number {
    return this.out.lines;
  }

  /** Appends one line (crash-safe, see util/jsonl.ts). */
  append(line: RecordLine): void {
    this.out.append(line);
  }

  /** The `turn` line of a completed turn. */
  turnCompleted(turn: Turn): void {
    const r = turn.response!;
    const content = r.message.content;
    // The prompt's ids as the engine sent them: ~100 KB of numbers for a long prompt, not formatted again.
    const idsJson = r.promptIdsJson !== undefined && !r.promptIdsJson.includes('\n') ? r.promptIdsJson : undefined;
    const line: RecordLine = {
      type: 'turn',
      session_id: turn.sessionId,
      turn_id: turn.turnId!,
      messages: turn.messages,
      tools: turn.tools,
      prompt_text: r.promptText,
      response: r.message,
      response_text: typeof content === 'string' ? content : '',
      tool_calls: r.message.tool_calls,
      prompt_ids: idsJson === undefined ? r.promptIds : undefined,
      response_ids: r.responseIds,
      logprobs: r.logprobs,
      logprob_mask: r.logprobMask,
      finish_reason: r.finishReason,
      policy_version: r.policyVersion,
      token_warnings: r.tokenWarnings,
      started_at: new Date(turn.startedAt).toISOString(),
      completed_at: new Date(turn.completedAt!).toISOString(),
    };
    // The messages and tools as already serialised for the upstream request (util/json-text.ts).
    const json = stringifyWithShared(line, SHARED_CHAT_MEMBERS, true);
    this.out.appendJson(idsJson === undefined ? json : `${json.slice(0, -1)},"prompt_ids":${idsJson}}`);
  }

  /** The `next_state` line of a finalised turn. */
  turnFinalized(turn: Turn): void {
    this.append({
      type: 'next_state',
      session_id: turn.sessionId,
      turn_id: turn.turnId!,
      next_state: turn.nextState ? { role: turn.nextState.role, content: turn.nextState.content } : null,
      reason: turn.nextState ? undefined : turn.noNextStateReason,
      at: new Date().toISOString(),
    });
  }

  close(): void {
    this.out.close();
  }
}

/** A turn as read back from a record file: the turn line with its next state merged in. */
export type RecordedTurn = Extract<RecordLine, { type: 'turn' }> & {
  next_state?: { role: string; content: string } | null;
  next_state_reason?: string;
};

/**
 * Reads a record file back into turns, in file order. Torn or corrupt lines are skipped and
 * counted. A `turn` line whose (session, turn) pair was seen before (numbering restarted after a
 * server restart) is kept as its own entry; `next_state` lines go to the latest such turn.
 */
export function readRecords(path: string): { turns: RecordedTurn[]; skipped: number } {
  if (!existsSync(path)) return { turns: [], skipped: 0 };
  const turns: RecordedTurn[] = [];
  const latest = new Map<string, RecordedTurn>();
  let skipped = 0;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    let line: RecordLine;
    try {
      line = JSON.parse(text) as RecordLine;
    } catch {
      skipped++;
      continue;
    }
    if (line === null || typeof line !== 'object' || typeof line.session_id !== 'string' || typeof line.turn_id !== 'number') {
      skipped++;
      continue;
    }
    const key = `${line.session_id}\u0000${line.turn_id}`;
    if (line.type === 'turn') {
      const t: RecordedTurn = { ...line };
      turns.push(t);
      latest.set(key, t);
    } else if (line.type === 'next_state') {
      const t = latest.get(key);
      if (t) {
        t.next_state = line.next_state;
        if (line.reason !== undefined) t.next_state_reason = line.reason;
      }
    } else skipped++;
  }
  return { turns, skipped };
}

/** The highest turn number recorded per session, to continue numbering after a restart. */
export function lastTurnIds(turns: Iterable<{ session_id: string; turn_id: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of turns) out.set(t.session_id, Math.max(out.get(t.session_id) ?? 0, t.turn_id));
  return out;
}
