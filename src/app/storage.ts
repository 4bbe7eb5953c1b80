// Storage faults as errors (issue 24): a write to the run folder that cannot succeed — the folder
// was removed, the volume went read-only or lost permissions, the disk is full — is recorded here
// with its path and errno. While the turn journal cannot be written, `/healthz` says `degraded`
// and new turns are refused with a 503 that names the path and errno (they would otherwise be
// answered and lost); the trainer holds its steps. Nothing retries in a loop: a fault that may go
// away (full, read-only, permissions) is re-checked by writing a small probe file, at 1 s, 2 s,
// 4 s … up to 30 s apart; the next turn then tries the journal itself. A removed folder does not
// come back: the journal and store files the server holds open are gone with it, so it stays
// degraded until restarted.
import { closeSync, fsyncSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { OpenClawError } from '../errors/index.ts';

/** Which writer hit the fault. */
export type StorageWriter = 'output_dir' | 'journal' | 'store' | 'judge_log' | 'train' | 'checkpoint';

/** One storage fault, as /healthz shows it. */
export interface StorageFault {
  writer: StorageWriter;
  path: string;
  /** errno name: ENOENT, EROFS, EACCES, EPERM, ENOSPC, EDQUOT, EIO, … */
  code: string;
  message: string;
  /** When it was first seen (ISO time). */
  since: string;
  /** True when only a restart clears it (the run folder was removed). */
  permanent: boolean;
}

const ERRNO = /\b(ENOENT|EROFS|EACCES|EPERM|ENOSPC|EDQUOT|EIO|EBADF|ENOTDIR|EFBIG|ESTALE)\b/;
const SQLITE_CODES: Record<string, string> = {
  SQLITE_FULL: 'ENOSPC',
  SQLITE_READONLY: 'EROFS',
  SQLITE_READONLY_DBMOVED: 'ENOENT',
  SQLITE_CANTOPEN: 'EACCES',
  SQLITE_IOERR: 'EIO',
};

/** The errno name of a failed write (its `code`, SQLite's, or one named in its message), if it is a storage error. */
export function storageErrno(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code !== undefined && ERRNO.test(code)) return code;
    if (code !== undefined) for (const [sq, errno] of Object.entries(SQLITE_CODES)) if (code.startsWith(sq)) return errno;
    const m = typeof e.message === 'string' ? ERRNO.exec(e.message) : null;
    if (m) return m[1];
    e = e.cause as typeof e;
  }
  return undefined;
}

/** What to do about an errno, in words. */
function remedy(code: string, dir: string): string {
  switch (code) {
    case 'ENOENT':
      return `the run folder ${dir} (or a file in it) was removed while the server ran; the journal and sample store it held open are gone with it: restore the folder or choose another output_dir, then restart the server`;
    case 'EROFS':
      return `the file system holding ${dir} is read-only: remount it read-write (or move output_dir to a writable disk)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: make ${dir} writable by the user running the server`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk holding ${dir} is full: free space; turns are accepted again once a write succeeds`;
    default:
      return `the disk holding ${dir} failed a write: check it (dmesg) and restart the server`;
  }
}

/** Settings of a StorageMonitor. */
export interface StorageMonitorOptions {
  outputDir: string;
  /** The journal's active file, and whether it still has a name (RecordWriter). */
  journal?: { readonly path: string; readonly linked: boolean };
  log?: Logger;
  /** Called when the state changes between writable and degraded. */
  onChange?: (degraded: boolean) => void;
  /** How often the folder is checked (default 1000 ms). */
  checkMs?: number;
  /** First and longest wait between probe writes while degraded (defaults 1000 and 30000 ms). */
  probeMs?: number;
  maxProbeMs?: number;
}

/** Collects storage faults, checks the run folder, and decides whether turns can be recorded. */
export class StorageMonitor {
  private readonly faults = new Map<StorageWriter, StorageFault>();
  private readonly dirId: { dev: number; ino: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probeWait: number;
  private nextProbeAt = 0;
  private degradedNow = false;

  constructor(private readonly opts: StorageMonitorOptions) {
    const st = statSync(opts.outputDir);
    this.dirId = { dev: st.dev, ino: st.ino };
    this.probeWait = opts.probeMs ?? 1000;
  }

  /** Records a failed write; returns the fault (undefined when `err` is not a storage error). */
  report(writer: StorageWriter, path: string, err: unknown): StorageFault | undefined {
    const code = storageErrno(err);
    if (code === undefined) return undefined;
    const permanent = code === 'ENOENT';
    const old = this.faults.get(writer);
    if (old !== undefined && old.code === code) return old;
    const fault: StorageFault = {
      writer,
      path,
      code,
      message: `${path}: ${code}: ${remedy(code, this.opts.outputDir)}`,
      since: new Date().toISOString(),
      permanent,
    };
    this.faults.set(writer, fault);
    this.opts.log?.error({ writer, path, code, err: (err as Error)?.message }, `storage fault: ${fault.message}`);
    this.changed();
    return fault;
  }

  /** A write by `writer` succeeded: a fault of it that can go away is gone. */
  ok(writer: StorageWriter): void {
    const f = this.faults.get(writer);
    if (f === undefined || f.permanent) return;
    this.faults.delete(writer);
    this.opts.log?.info({ writer, path: f.path }, `storage recovered: ${f.path} takes writes again`);
    this.changed();
  }

  /** True while any fault is known. */
  get degraded(): boolean {
    return this.faults.size > 0;
  }

  /** The faults, oldest first. */
  list(): StorageFault[] {
    return [...this.faults.values()].sort((a, b) => a.since.localeCompare(b.since));
  }

  /**
   * The 503 for a new turn while turns cannot be recorded (a fault of the folder, the journal or
   * the store), undefined otherwise.
   */
  refusal(): OpenClawError | undefined {
    const f = this.faults.get('output_dir') ?? this.faults.get('journal') ?? this.faults.get('store');
    if (f === undefined) return undefined;
    return new OpenClawError(
      'internal',
      `The server cannot record turns, so it does not take new ones (they would be answered and lost): ${f.message}. This request was not sent to the model.`,
      { status: 503, code: 'storage_unavailable' },
    );
  }

  /** Throws when the run folder cannot take writes (e.g. before a checkpoint would go into a removed folder). */
  assertWritable(what: string): void {
    this.check(); // now, not at the next tick: a checkpoint must not re-create a folder removed a moment ago
    const f = this.faults.get('output_dir') ?? this.faults.get('journal') ?? this.faults.get('store');
    if (f === undefined) return;
    throw new OpenClawError('data', `${what} not written: ${f.message}`, { code: 'storage_unavailable' });
  }

  /** The `/healthz` section. */
  health(): { ok: boolean; faults: StorageFault[] } {
    return { ok: !this.degraded, faults: this.list() };
  }

  /** Checks the folder now (and probes when a fault may have gone away). Never throws. */
  check(now = Date.now()): void {
    const dir = this.opts.outputDir;
    try {
      const st = statSync(dir);
      if (this.dirId && (st.dev !== this.dirId.dev || st.ino !== this.dirId.ino)) throw removed(dir, 'was replaced by another folder');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A folder that is gone (or was replaced) holds none of the files the server has open.
      this.report('output_dir', dir, code === 'ENOENT' || code === 'ENOTDIR' || code === undefined ? removed(dir, 'was removed') : err);
    }
    const journal = this.opts.journal;
    if (journal !== undefined) {
      try {
        if (!journal.linked) this.report('journal', journal.path, removed(journal.path, 'was removed'));
      } catch (err) {
        this.report('journal', journal.path, err);
      }
    }
    const recoverable = this.list().filter((f) => !f.permanent);
    if (recoverable.length === 0) {
      this.probeWait = this.opts.probeMs ?? 1000;
      return;
    }
    if (now < this.nextProbeAt) return;
    const err = probeWrite(dir);
    if (err === undefined) {
      for (const f of recoverable) this.ok(f.writer);
      this.probeWait = this.opts.probeMs ?? 1000;
    } else {
      for (const f of recoverable) this.report(f.writer, f.path, err);
      this.probeWait = Math.min(this.probeWait * 2, this.opts.maxProbeMs ?? 30_000);
    }
    this.nextProbeAt = now + this.probeWait;
  }

  /** Checks every `checkMs` until `stop`, after `each` (other sources of faults); the timer never keeps the process alive. */
  start(each?: () => void): void {
    this.timer = setInterval(() => {
      try {
        each?.();
      } catch {
        // a source that fails to report is not a reason to stop checking
      }
      this.check();
    }, this.opts.checkMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private changed(): void {
    const now = this.degraded;
    if (now === this.degradedNow) return;
    this.degradedNow = now;
    this.opts.onChange?.(now);
  }
}

function removed(path: string, what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: ${path} ${what}`), { code: 'ENOENT', path });
}

/** Writes, syncs and removes a small file in `dir`; returns the error if any step failed. */
function probeWrite(dir: string): Error | undefined {
  const path = join(dir, `.openclaw-rl-probe-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w');
    // A few KB, not a byte: on a full disk a byte can still fit in a partly used block.
    writeSync(fd, Buffer.alloc(16 * 1024, 0x20));
    fsyncSync(fd);
    return undefined;
  } catch (err) {
    return err as Error;
  } finally {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // not created, or already gone
    }
  }
}
