// Append-only JSONL files (turn records, judge records, feedback log). One write(2) per line on
// a file opened for appending: the kernel keeps each line across a process crash, so a crash
// loses at most a partially written last line — which is terminated on the next open so the
// following line stays valid, and skipped by readers.
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Appends JSON lines to one file. */
export class JsonlAppender {
  readonly path: string;
  private fd: number | null;
  /** Lines written by this appender. */
  lines = 0;
  /** The file's size: where the next line starts. */
  bytes: number;
  private readonly sync: boolean;

  /** With `sync`, each line is also flushed to the disk (fdatasync) before `append` returns: it survives power loss. */
  constructor(path: string, opts: { sync?: boolean } = {}) {
    this.path = path;
    this.sync = opts.sync ?? false;
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a+');
    this.bytes = fstatSync(this.fd).size;
    if (this.bytes > 0) {
      const last = Buffer.alloc(1);
      readSync(this.fd, last, 0, 1, this.bytes - 1);
      if (last[0] !== 0x0a) this.bytes += writeSync(this.fd, '\n'); // a crash tore the last line: end it
    }
  }

  /** Appends one line (one write call; a short write is completed before returning); a no-op after close. */
  append(value: unknown): void {
    this.appendJson(JSON.stringify(value));
  }

  /** Appends a value already serialised as JSON, without line breaks (see `append`). */
  appendJson(json: string): void {
    if (this.fd === null) return;
    const buf = Buffer.from(json + '\n', 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
      if (this.sync) fdatasyncSync(this.fd);
    } catch (err) {
      // A full disk can leave part of the line written: the size stays true for the next line.
      this.bytes = fstatSync(this.fd).size;
      throw err;
    }
    this.bytes += buf.length;
    this.lines++;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
