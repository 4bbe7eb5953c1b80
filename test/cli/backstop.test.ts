// The shutdown backstop really ends the process: a main thread in a busy loop (no timer of its own
// can fire there) ends at the deadline, by SIGKILL from the watchdog thread. The worker that never
// joins (issue 24's hang) is covered end to end by test/storage/faults.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// By URL: resolvable whatever the child's working folder.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const SIGNALS = fileURLToPath(new URL('../../src/cli/signals.ts', import.meta.url));

function run(stuck: string): Promise<{ signal: string | null; code: number | null; secs: number; stderr: string }> {
  const script = `
    import { ShutdownBackstop } from ${JSON.stringify(SIGNALS)};
    setInterval(() => {}, 1000); // a serving process: its event loop is alive
    const b = ShutdownBackstop.start();
    await b.ready;
    ${stuck}
  `;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      resolve({ signal, code, secs: (performance.now() - t0) / 1000, stderr });
    }),
  );
}

test('the backstop kills a process whose main thread is busy', async () => {
  const r = await run(`b.arm(300, 'test shutdown'); for (;;) {}`);
  assert.equal(r.signal, 'SIGKILL', `${r.code} ${r.stderr}`);
  assert.match(r.stderr, /test shutdown did not finish within 0\.3 s of the stop signal; killing the process/);
  assert.ok(r.secs < 15, `${r.secs.toFixed(2)} s`);
});
