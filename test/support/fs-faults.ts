// Storage faults for tests: a small tmpfs that can be filled (a real ENOSPC for every writer,
// SQLite included) where this sandbox may mount, and a fault-injecting shim at the write seam
// otherwise, and for a read-only disk: tests run as root (chmod does not stop root) and Linux
// refuses to remount a file system read-only while files on it are open for writing, so a volume
// going read-only under a running server is injected. The shim replaces node:fs's write calls
// (the ESM bindings too, through syncBuiltinESMExports) for paths under one folder; it reaches
// this thread's JavaScript only (not SQLite, not worker threads).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ERRNO: Record<string, number> = { EROFS: -30, ENOSPC: -28, EACCES: -13 };

function fault(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault, ${syscall} '${path}'`), { code, errno: ERRNO[code], syscall, path });
}

/** Makes writes under `dir` fail with `code` until the returned function is called. */
export function injectWriteFault(dir: string, code: 'EROFS' | 'ENOSPC' | 'EACCES'): () => void {
  const f = fs as unknown as Record<string, (...args: any[]) => any>;
  const saved: Record<string, (...args: any[]) => any> = {};
  const under = (p: unknown) => typeof p === 'string' && (p === dir || p.startsWith(`${dir}/`));
  const fdUnder = (fd: unknown) => {
    if (typeof fd !== 'number') return false;
    try {
      return under(fs.readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      return false;
    }
  };
  const wrap = (name: string, hit: (args: unknown[]) => boolean) => {
    const orig = f[name];
    saved[name] = orig;
    f[name] = (...args: unknown[]) => {
      if (hit(args)) throw fault(code, name.replace(/Sync$/, ''), String(args[0]));
      return orig(...args);
    };
  };
  wrap('writeSync', (a) => fdUnder(a[0]));
  wrap('fsyncSync', (a) => fdUnder(a[0]));
  wrap('fdatasyncSync', (a) => fdUnder(a[0]));
  wrap('appendFileSync', (a) => under(a[0]));
  wrap('writeFileSync', (a) => under(a[0]));
  wrap('mkdirSync', (a) => under(a[0]));
  wrap('renameSync', (a) => under(a[0]) || under(a[1]));
  wrap('openSync', (a) => under(a[0]) && a[1] !== undefined && a[1] !== 'r');
  syncBuiltinESMExports();
  return () => {
    for (const [name, orig] of Object.entries(saved)) f[name] = orig;
    syncBuiltinESMExports();
  };
}

/** Mounts a tmpfs of `mb` MB on a new folder under `parent`; undefined when mounting is not permitted here. */
export function mountTmpfs(parent: string, mb: number): { dir: string; unmount(): void } | undefined {
  const dir = fs.mkdtempSync(join(parent, 'tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    fs.rmdirSync(dir);
    return undefined;
  }
  return {
    dir,
    unmount() {
      spawnSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the file system holding `dir` with a file there; returns it (remove it to free the space). */
export function fillDisk(dir: string): string {
  const path = join(dir, 'filler.bin');
  const fd = fs.openSync(path, 'w');
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512, 1]) {
      const buf = Buffer.alloc(size);
      for (;;) {
        try {
          fs.writeSync(fd, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return path;
}
