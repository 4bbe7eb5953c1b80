// The real server in a child process (test/pipeline/launch-server.ts), for tests that kill it:
// start it from a spec, wait for it to exit, poll until a condition holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LAUNCHER = fileURLToPath(new URL('../pipeline/launch-server.ts', import.meta.url));

/** Spawns the launcher with `spec` and resolves once it printed `READY <url>`. */
export function launch(spec: unknown): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', LAUNCHER, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code, signal) => reject(new Error(`server exited before it was ready (code ${code}, signal ${signal})`)));
  });
}

/** Resolves once the child has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** Polls `check` every 50 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
