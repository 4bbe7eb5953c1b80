// Scrubbing lines out of an append-only JSONL file in place: each chosen line is overwritten with
// as many spaces as it had bytes, then the file is flushed to the disk. Offsets stay valid (a
// journal checkpoint names a byte offset), a writer appending meanwhile is not disturbed (it writes
// at the end, this writes before it), and readers already skip blank lines. A crash part-way
// leaves some lines blanked and the others whole, never a line half-read as another: running it
// again finishes the job.
import { closeSync, existsSync, fdatasyncSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { readLines } from './lines.ts';

const SPACES = Buffer.alloc(1 << 16, 0x20);

/** Blanks every line of `path` for which `matches(text)` is true; returns how many were blanked. */
export function blankLines(path: string, matches: (text: string) => boolean): number {
  if (!existsSync(path)) return 0;
  const spans: { start: number; end: number }[] = [];
  let open: number | undefined; // start of a matching line whose end is the next line's start
  for (const { text, offset } of readLines(path)) {
    if (open !== undefined) spans.push({ start: open, end: offset - 1 });
    open = text.trim() !== '' && matches(text) ? offset : undefined;
  }
  if (spans.length === 0 && open === undefined) return 0;
  const fd = openSync(path, 'r+');
  try {
    // The last line read ends at its newline, or at the end of the file when a crash tore it.
    // (A line appended since was not read, and is left alone.)
    if (open !== undefined) spans.push({ start: open, end: newlineFrom(fd, open) });
    for (const { start, end } of spans) {
      for (let at = start; at < end; ) at += writeSync(fd, SPACES, 0, Math.min(SPACES.length, end - at), at);
    }
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return spans.length;
}

/** The offset of the first newline at or after `from`, or the file's size when there is none. */
function newlineFrom(fd: number, from: number): number {
  const buf = Buffer.allocUnsafe(1 << 16);
  for (let at = from; ; ) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n === 0) return fstatSync(fd).size;
    const nl = buf.subarray(0, n).indexOf(0x0a);
    if (nl !== -1) return at + nl;
    at += n;
  }
}

/** A matcher for JSONL lines with `session_id` = `sessionId` and `turn_id` ≤ `throughTurn`. */
export function turnLinesOf(sessionId: string, throughTurn: number): (text: string) => boolean {
  const needle = JSON.stringify(sessionId);
  return (text) => {
    if (!text.includes(needle)) return false; // most lines: no parse
    try {
      const v = JSON.parse(text) as { session_id?: unknown; turn_id?: unknown };
      return v.session_id === sessionId && typeof v.turn_id === 'number' && v.turn_id <= throughTurn;
    } catch {
      return false;
    }
  };
}
