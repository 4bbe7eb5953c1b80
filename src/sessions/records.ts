// The turn journal of a run: one `turn` line as soon as a main turn's answer is complete (written
// before the answer's last byte goes out, see the gateway), then one `next_state` line when its next
// state is known (or known to be absent). Writing both as soon as they are known means a crash
// loses at most a partially written last line. It is the source of truth: at start-up the app
// replays it from the last point the sample store is known to contain (replay.ts).
// Lines are written with one write(2) each on a file opened for append, so the kernel keeps them
// across a process crash (with `sync`, fdatasync makes them survive power loss too); on open, a
// torn last line is terminated so the next line stays valid.
// Bounded: a session's turn line holds only what is new since its previous turn line in the same
// segment (delta.ts), and the journal rotates into segments of `segmentBytes` (segments.ts), so
// each segment can be read on its own.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { JsonlAppender } from '../files/jsonl.ts';
import { readLines } from '../files/lines.ts';
import { turnKey } from '../rl/index.ts';
import { commonPrefix, commonPrefix2, commonTextPrefix, digest, rebuildTurn, type DeltaBase } from './delta.ts';
import { journalDir, journalSegments, positionBefore, rotatedName, rotatedSegments, type JournalPosition } from './segments.ts';
import type { Turn } from './tracker.ts';

/** One line of the record file. */
export type RecordLine =
  | {
      type: 'turn';
      session_id: string;
      turn_id: number;
      /** Full prompt messages, or only those after `base.keep` on a delta line. */
      messages: unknown[];
      /** Present on a delta line: how it continues the session's previous turn line (delta.ts). */
      base?: DeltaBase;
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

/** What the writer remembers of a session's previous turn line, to write the next one as a delta. */
interface WriterBase {
  turnId: number;
  /** Digests of the JSON of (messages + answer). */
  context: string[];
  tools?: string;
  promptIds?: ArrayLike<number>;
  responseIds?: ArrayLike<number>;
  promptText?: string;
}

/** Settings of a RecordWriter. */
export interface RecordWriterOptions {
  /** Rotate to a new segment before a turn line would take the active one past this size (default: never). */
  segmentBytes?: number;
  /** fdatasync every line (storage.synchronous: full). */
  sync?: boolean;
}

const TERMINAL = new Set(['session_done', 'expired', 'evicted', 'shutdown']);

/** Appends record lines to the journal whose active segment is `path`; survives process crashes line by line. */
export class RecordWriter {
  private out: JsonlAppender;
  private readonly opts: RecordWriterOptions;
  private readonly activePath: string;
  private segmentNo: number;
  private readonly bases = new Map<string, WriterBase>();

  constructor(path: string, opts: RecordWriterOptions = {}) {
    this.activePath = path;
    this.opts = opts;
    this.out = new JsonlAppender(path, { sync: opts.sync });
    this.segmentNo = (rotatedSegments(journalDir(path)).at(-1)?.n ?? 0) + 1;
  }

  get path(): string {
    return this.out.path;
  }

  /** False once the active segment was removed from its folder (see files/jsonl.ts). */
  get linked(): boolean {
    return this.out.linked;
  }

  /** Lines written since this writer opened (in its current segment). */
  get lines(): number {
    return this.out.lines;
  }

  /** Where the next line will start. */
  get position(): JournalPosition {
    return { segment: this.segmentNo, offset: this.out.bytes };
  }

  /** Appends one line (crash-safe, see files/jsonl.ts); returns where it starts. */
  append(line: RecordLine): JournalPosition {
    const json = JSON.stringify(line);
    if (this.needsRotation(json.length)) this.rotate();
    const at = this.position;
    this.out.appendJson(json);
    return at;
  }

  /** Writes the `turn` line of a completed turn (a delta when the session has a base here); returns where it starts. */
  turnCompleted(turn: Turn): JournalPosition {
    const r = turn.response!;
    const content = r.message.content;
    const head = {
      type: 'turn',
      session_id: turn.sessionId,
      turn_id: turn.turnId!,
      response: r.message,
      response_text: typeof content === 'string' ? content : '',
      tool_calls: r.message.tool_calls,
      response_ids: r.responseIds,
      logprobs: r.logprobs,
      logprob_mask: r.logprobMask,
      finish_reason: r.finishReason,
      policy_version: r.policyVersion,
      token_warnings: r.tokenWarnings,
      started_at: new Date(turn.startedAt).toISOString(),
      completed_at: new Date(turn.completedAt!).toISOString(),
    };
    const messageTexts = turn.messages.map((m) => JSON.stringify(m));
    const next: WriterBase = {
      turnId: turn.turnId!,
      context: [...messageTexts.map(digest), digest(JSON.stringify(r.message))],
      promptIds: r.promptIds,
      responseIds: r.responseIds,
      promptText: r.promptText,
    };
    // The tools as the request spelled them, when they are still those tools (raw-json/json-text.ts).
    const toolsText =
      turn.toolsJson !== undefined && turn.toolsJson.value === turn.tools
        ? turn.toolsJson.text
        : (JSON.stringify(turn.tools) as string | undefined);
    if (toolsText !== undefined) next.tools = digest(toolsText);
    const prev = this.bases.get(turn.sessionId);
    const members: string[] = [];
    let keep = 0;
    if (prev !== undefined) {
      keep = commonPrefix(prev.context, next.context.slice(0, -1));
      const base: DeltaBase = { turn_id: prev.turnId, keep };
      if (next.tools !== undefined && next.tools === prev.tools) base.tools = true;
      if (r.promptIds !== undefined && prev.promptIds !== undefined)
        base.ids_keep = commonPrefix2(prev.promptIds, prev.responseIds ?? [], r.promptIds);
      if (r.promptText !== undefined && prev.promptText !== undefined) base.text_keep = commonTextPrefix(prev.promptText, r.promptText);
      members.push(`"base":${JSON.stringify(base)}`);
      if (!base.tools && toolsText !== undefined) members.push(`"tools":${toolsText}`);
      if (r.promptText !== undefined)
        members.push(`"prompt_text":${JSON.stringify(base.text_keep === undefined ? r.promptText : r.promptText.slice(base.text_keep))}`);
      if (r.promptIds !== undefined)
        members.push(`"prompt_ids":${JSON.stringify(base.ids_keep === undefined ? r.promptIds : r.promptIds.slice(base.ids_keep))}`);
    } else {
      if (toolsText !== undefined) members.push(`"tools":${toolsText}`);
      if (r.promptText !== undefined) members.push(`"prompt_text":${JSON.stringify(r.promptText)}`);
      // The prompt's ids as the engine sent them: ~100 KB of numbers for a long prompt, not formatted again.
      const idsJson = r.promptIdsJson !== undefined && !r.promptIdsJson.includes('\n') ? r.promptIdsJson : undefined;
      if (idsJson !== undefined) members.push(`"prompt_ids":${idsJson}`);
      else if (r.promptIds !== undefined) members.push(`"prompt_ids":${JSON.stringify(r.promptIds)}`);
    }
    members.push(`"messages":[${messageTexts.slice(keep).join(',')}]`);
    const json = `${JSON.stringify(head).slice(0, -1)},${members.join(',')}}`;
    // A new segment starts with full lines: rotate before this line if it would overflow, and write it in full.
    if (prev !== undefined && this.needsRotation(json.length)) {
      this.rotate();
      return this.turnCompleted(turn);
    }
    if (prev === undefined && this.needsRotation(json.length)) this.rotate();
    const at = this.position;
    this.out.appendJson(json);
    this.bases.set(turn.sessionId, next);
    // This line was the tools' text's last reader. The text is a slice of the whole request's: kept
    // with the turn until the session's next request, all of it would be copied by every
    // young-generation GC in between.
    turn.toolsJson = undefined;
    return at;
  }

  /** Forgets what the writer keeps of a session (its delta base): its next line is written in full. */
  forgetSession(sessionId: string): void {
    this.bases.delete(sessionId);
  }

  /** Writes the `next_state` line of a finalised turn; returns where it starts. */
  turnFinalized(turn: Turn): JournalPosition {
    if (turn.nextState === null && TERMINAL.has(turn.noNextStateReason ?? '')) this.bases.delete(turn.sessionId);
    return this.append({
      type: 'next_state',
      session_id: turn.sessionId,
      turn_id: turn.turnId!,
      next_state: turn.nextState ? { role: turn.nextState.role, content: turn.nextState.content } : null,
      reason: turn.nextState ? undefined : turn.noNextStateReason,
      at: new Date().toISOString(),
    });
  }

  private needsRotation(lineChars: number): boolean {
    const limit = this.opts.segmentBytes;
    // Characters ≤ bytes: a cheap lower bound is enough to decide.
    return limit !== undefined && this.out.bytes > 0 && this.out.bytes + lineChars > limit;
  }

  /** Closes the active segment, renames it to the next rotated name and starts a new one. */
  private rotate(): void {
    this.out.close();
    renameSync(this.activePath, join(journalDir(this.activePath), rotatedName(this.segmentNo)));
    this.segmentNo++;
    this.out = new JsonlAppender(this.activePath, { sync: this.opts.sync });
    this.bases.clear();
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

/** One entry of a journal as read back: a full (rebuilt) turn line or a next-state line, and where it starts. */
export type JournalEntry =
  | { type: 'turn'; turn: RecordedTurn; at: JournalPosition }
  | { type: 'next_state'; line: Extract<RecordLine, { type: 'next_state' }>; at: JournalPosition };

/** Counts of a journal read. */
export interface JournalReadStats {
  /** Torn or corrupt lines, and delta lines whose base was lost. */
  skipped: number;
  /** Bytes read. */
  bytes: number;
}

function parseLine(text: string): RecordLine | null {
  let line: RecordLine;
  try {
    line = JSON.parse(text) as RecordLine;
  } catch {
    return null;
  }
  if (line === null || typeof line !== 'object' || typeof line.session_id !== 'string' || typeof line.turn_id !== 'number') return null;
  return line.type === 'turn' || line.type === 'next_state' ? line : null;
}

const LINE_HEAD = /^\{"type":"(turn|next_state)","session_id":("(?:[^"\\]|\\.)*"),"turn_id":(\d+)[,}]/;

/** The type, session and turn of a line, read from its head without parsing the rest (undefined if the head is not the writer's). */
export function lineHead(text: string): { type: 'turn' | 'next_state'; session: string; turnId: number } | undefined {
  const m = LINE_HEAD.exec(text);
  if (m === null) return undefined;
  try {
    return { type: m[1] as 'turn' | 'next_state', session: JSON.parse(m[2]) as string, turnId: Number(m[3]) };
  } catch {
    return undefined;
  }
}

/**
 * Calls `onLine` with the head of every line from `from` (the start when undefined) to the
 * journal's end: cheap next to parsing the lines. Lines whose head is not the writer's are
 * reported with `head` undefined.
 */
export function scanHeads(active: string, from: JournalPosition | undefined, onLine: (head: ReturnType<typeof lineHead>) => void): void {
  for (const seg of journalSegments(active)) {
    if (from !== undefined && seg.n < from.segment) continue;
    for (const { text } of readLines(seg.path, from !== undefined && seg.n === from.segment ? from.offset : 0)) {
      if (text.trim() !== '') onLine(lineHead(text));
    }
  }
}

/**
 * The entries of the journal whose active segment is `active`, streamed segment by segment, with
 * delta lines rebuilt into full turns. With `from`, entries before it are not yielded (its
 * segment is still read from its start, for the bases of delta lines). With `sessions`, only the
 * lines of those sessions are parsed and yielded (and lines whose head is not the writer's).
 * Memory: one line plus each session's latest full turn in the current segment.
 */
export function* readJournal(
  active: string,
  from?: JournalPosition,
  stats: JournalReadStats = { skipped: 0, bytes: 0 },
  sessions?: Set<string>,
): Generator<JournalEntry> {
  for (const seg of journalSegments(active)) {
    if (from !== undefined && seg.n < from.segment) continue;
    const latest = new Map<string, RecordedTurn>();
    for (const { text, offset } of readLines(seg.path)) {
      stats.bytes += text.length + 1;
      if (text.trim() === '') continue;
      const at = { segment: seg.n, offset };
      const yielded = from === undefined || !positionBefore(at, from);
      if (sessions !== undefined) {
        const head = lineHead(text);
        if (head !== undefined && !sessions.has(head.session)) continue;
      }
      const line = parseLine(text);
      if (line === null) {
        if (yielded) stats.skipped++;
        continue;
      }
      if (line.type === 'turn') {
        const base = latest.get(line.session_id);
        const full = rebuildTurn<RecordedTurn>(line, base, base?.turn_id);
        if (full === null) {
          if (yielded) stats.skipped++;
          continue;
        }
        latest.set(line.session_id, full);
        if (yielded) yield { type: 'turn', turn: full, at };
      } else if (yielded) yield { type: 'next_state', line, at };
    }
  }
}

/**
 * Reads a whole journal back into turns, in file order (for tools and tests: replay streams with
 * readJournal). Torn or corrupt lines are skipped and counted. A `turn` line whose (session, turn)
 * pair was seen before is kept as its own entry; `next_state` lines go to the latest such turn.
 */
export function readRecords(path: string): { turns: RecordedTurn[]; skipped: number } {
  const stats = { skipped: 0, bytes: 0 };
  const turns: RecordedTurn[] = [];
  const latest = new Map<string, RecordedTurn>();
  for (const e of readJournal(path, undefined, stats)) {
    const key = e.type === 'turn' ? turnKey(e.turn.session_id, e.turn.turn_id) : turnKey(e.line.session_id, e.line.turn_id);
    if (e.type === 'turn') {
      turns.push(e.turn);
      latest.set(key, e.turn);
    } else {
      const t = latest.get(key);
      if (t) {
        t.next_state = e.line.next_state;
        if (e.line.reason !== undefined) t.next_state_reason = e.line.reason;
      }
    }
  }
  return { turns, skipped: stats.skipped };
}

/** The highest turn number recorded per session, to continue numbering after a restart. */
export function lastTurnIds(turns: Iterable<{ session_id: string; turn_id: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of turns) out.set(t.session_id, Math.max(out.get(t.session_id) ?? 0, t.turn_id));
  return out;
}
