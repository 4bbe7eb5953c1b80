// Append-only JSONL files (turn records, judge records, feedback log). One write(2) per line on
// a file opened for appending: the kernel keeps each line across a process crash, so a crash
// loses at most a partially written last line — which is terminated on the next open so the
// following line stays valid, and skipped by readers.
// A file whose folder was removed under a running server still takes writes (into an inode with
// no name, gone when it closes): each line checks that its file still has a name, and a line
// written into a removed file is an ENOENT error, not an acknowledged line (issue 24).
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The error of a write that went into a file removed from its folder (its line is lost). */
export function removedFileError(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: ${path} was removed while it was open (its folder was deleted?); the line written is lost`), {
    code: 'ENOENT',
    errno: -2,
    syscall: 'write',
    path,
  });
}

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
    // resolve: a relative path whose working folder is gone throws here instead of looping in mkdir.
    mkdirSync(resolve(dirname(path)), { recursive: true });
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
    if (fstatSync(this.fd).nlink === 0) throw removedFileError(this.path);
    this.bytes += buf.length;
    this.lines++;
  }

  /** False once the file was removed from its folder (writes would be lost). */
  get linked(): boolean {
    return this.fd === null || fstatSync(this.fd).nlink > 0;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
