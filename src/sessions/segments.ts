// The turn journal's files. The journal is a folder of segments: the active one is always
// `turns.jsonl` (what a single-file journal of older versions was), and a full one is renamed to
// `turns.<n>.jsonl` (n = 000001, 000002, …) when the writer rotates. Renaming is atomic, so a crash
// during rotation leaves either name, never both or neither. The active segment's number is the
// highest rotated number + 1, so a position (segment, offset) names the same bytes before and after
// its segment is renamed.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A place in the journal: the segment's number and a byte offset inside it. */
export interface JournalPosition {
  segment: number;
  offset: number;
}

/** One segment file of a journal. */
export interface Segment {
  n: number;
  path: string;
}

const ROTATED = /^turns\.(\d{6,})\.jsonl$/;

/** The file name of rotated segment `n`. */
export function rotatedName(n: number): string {
  return `turns.${String(n).padStart(6, '0')}.jsonl`;
}

/** The journal folder of an active segment path (`…/records/turns.jsonl`). */
export function journalDir(activePath: string): string {
  return dirname(activePath);
}

/** The active segment's path in a journal folder. */
export function activePath(dir: string): string {
  return join(dir, 'turns.jsonl');
}

/** The rotated segments of a journal folder, oldest first. */
export function rotatedSegments(dir: string): Segment[] {
  if (!existsSync(dir)) return [];
  const out: Segment[] = [];
  for (const name of readdirSync(dir)) {
    const m = ROTATED.exec(name);
    if (m) out.push({ n: Number(m[1]), path: join(dir, name) });
  }
  return out.sort((a, b) => a.n - b.n);
}

/** Every segment of the journal whose active file is `active`, oldest first (the active one last, if it exists). */
export function journalSegments(active: string): Segment[] {
  const rotated = rotatedSegments(journalDir(active));
  const n = (rotated.at(-1)?.n ?? 0) + 1;
  return existsSync(active) ? [...rotated, { n, path: active }] : rotated;
}

/** True when `a` comes before `b` in the journal. */
export function positionBefore(a: JournalPosition, b: JournalPosition): boolean {
  return a.segment < b.segment || (a.segment === b.segment && a.offset < b.offset);
}

/** `basename` of a segment path, for messages. */
export const segmentName = (path: string): string => basename(path);
