// Runs the real CLI (bin/openclaw-rl.js) in a child process and collects what it printed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const CLI_BIN = join(import.meta.dirname, '..', '..', 'bin', 'openclaw-rl.js');

/** One CLI run: its exit code and output; `env` is added to this process's environment. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
