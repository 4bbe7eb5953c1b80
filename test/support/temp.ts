// Temporary folders for tests. `tempDir` makes one under the OS temp dir and removes it when the
// process exits — node's test runner runs each file in its own process, so a file's folders go
// when it ends, passed or failed, whichever test or hook made them (a server a test started writes
// into them until the test closes it, so removing them earlier would race it).
// OPENCLAW_RL_KEEP_TEST_DIRS=1 keeps them, and names them on stderr, to look at after a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

function removeAll(): void {
  if (process.env.OPENCLAW_RL_KEEP_TEST_DIRS === '1') {
    if (made.length > 0) process.stderr.write(`kept test folders (OPENCLAW_RL_KEEP_TEST_DIRS=1):\n  ${made.join('\n  ')}\n`);
    return;
  }
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Exit handlers cannot wait or throw usefully; `npm test` also sweeps its private TMPDIR.
    }
  }
}

/** A new empty folder `<tmpdir>/<prefix>XXXXXX`, removed when this process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (made.length === 0) process.once('exit', removeAll);
  made.push(dir);
  return dir;
}
