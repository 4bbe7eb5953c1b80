// Reads a text file line by line from a byte offset, in fixed-size chunks: memory stays at one
// chunk plus the longest line, whatever the file's size (a journal can hold gigabytes). Each line
// comes with the byte offset where it starts, so a reader can remember where to continue.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** One line of a file (without its newline) and the byte offset where it starts. */
export interface FileLine {
  text: string;
  offset: number;
}

const CHUNK = 1 << 20;

/**
 * The lines of `path` from byte `start` on, in order. A last line without a newline (a write torn
 * by a crash) is yielded too; readers decide what to do with it.
 */
export function* readLines(path: string, start = 0): Generator<FileLine> {
  const fd = openSync(path, 'r');
  try {
    let pos = start;
    let pending: Buffer[] = [];
    let pendingStart = start;
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      let from = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, from);
        if (nl === -1 || nl >= n) break;
        const part = buf.subarray(from, nl);
        const text = pending.length === 0 ? part.toString('utf8') : Buffer.concat([...pending, part]).toString('utf8');
        yield { text, offset: pendingStart };
        pending = [];
        from = nl + 1;
        pendingStart = pos + from;
      }
      // The rest of the chunk starts a line that continues in the next one: copy it out.
      if (from < n) pending.push(Buffer.from(buf.subarray(from, n)));
      pos += n;
    }
    if (pending.length > 0) yield { text: Buffer.concat(pending).toString('utf8'), offset: pendingStart };
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole lines among a file's last `maxBytes` (a read that starts mid-file drops the partial
 * first line); a missing file has none. For logs read on demand, whatever their length.
 */
export function readTailLines(path: string, maxBytes: number): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    text = buf.toString('utf8');
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
  return text.split('\n');
}
