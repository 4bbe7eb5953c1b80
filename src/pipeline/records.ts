// Append-only JSONL files of the pipeline: the judge record (one line per judged turn, for
// humans and audits) and the feedback log (every accepted feedback, replayed after a restart so
// feedback on a turn that was still pending is not lost). One write(2) per line, like the turn
// records, so a crash loses at most a torn last line, which reading skips.

export { JsonlAppender };
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blankLines, turnLinesOf } from '../files/blank-lines.ts';
import { JsonlAppender } from '../files/jsonl.ts';
import type { Feedback } from './types.ts';
import { turnKey } from '../rl/index.ts';

/** One line of the feedback log. */
export interface FeedbackLine {
  session_id: string;
  turn_id: number;
  score: number;
  comment: string | null;
  at: number;
}

/** The latest feedback per turn from a feedback log (torn lines skipped). */
export function readFeedbackLog(path: string): Map<string, Feedback> {
  const out = new Map<string, Feedback>();
  if (!existsSync(path)) return out;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const line = JSON.parse(text) as FeedbackLine;
      if (typeof line.session_id !== 'string' || !Number.isInteger(line.turn_id) || typeof line.score !== 'number') continue;
      out.set(turnKey(line.session_id, line.turn_id), { score: line.score, comment: line.comment ?? null, at: line.at });
    } catch {
      // torn line from a crash
    }
  }
  return out;
}

/** The pipeline's files in a records folder. */
export const PIPELINE_RECORD_FILES = ['judge.jsonl', 'feedback.jsonl'] as const;

/**
 * Blanks the lines of a session's turns up to `throughTurn` in judge.jsonl and feedback.jsonl
 * (openclaw-rl forget; files/blank-lines.ts). Call from the thread that appends to them. Returns
 * how many lines went.
 */
export function forgetInPipelineRecords(dir: string, sessionId: string, throughTurn: number): number {
  const matches = turnLinesOf(sessionId, throughTurn);
  return PIPELINE_RECORD_FILES.reduce((n, f) => n + blankLines(join(dir, f), matches), 0);
}
