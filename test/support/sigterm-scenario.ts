// SIGTERM with work in flight, on the real command line (`openclaw-rl api-server` in a child
// process): a judge call that never answers and a stream the upstream is slowly generating when
// the signal comes. Used by test/cli/sigterm.test.ts and `npm run bench:sigterm`.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedUpstream } from './scripted-upstream.ts';
import { postJson } from './harness.ts';
import { tempDir } from './temp.ts';

const BIN = fileURLToPath(new URL('../../bin/openclaw-rl.js', import.meta.url));

/** What one SIGTERM did. */
export interface SigtermResult {
  graceS: number;
  /** Seconds from SIGTERM to the process's exit. */
  exitS: number;
  exitCode: number | null;
  /** The stream in flight ended with an error event and [DONE] (not a silent cut). */
  streamEndedCleanly: boolean;
  /** The stream's last error event's code, if any. */
  streamErrorCode: string | null;
  /** Judge requests that were in flight at the signal. */
  judgeCallsInFlight: number;
  outDir: string;
}

/** Starts `api-server` with a config, resolves with the child and its base URL once it serves. */
export function startCli(configPath: string): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'api-server', '--config', configPath], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, OPENCLAW_RL_LOG_LEVEL: process.env.OPENCLAW_RL_LOG_LEVEL ?? 'warn' },
  });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /serving \S+ at (http:\/\/\S+)\/v1/.exec(err);
      if (m) resolve({ child, url: m[1], stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`api-server exited (code ${code}) before serving:\n${err}`)));
  });
}

/** Resolves with the exit code once `child` exited. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Writes a config YAML for a policy and a judge on loopback into a fresh run folder. */
export function writeConfig(
  policyUrl: string,
  judgeUrl: string,
  graceS: number,
  outDir = tempDir('ocrl-sigterm-'),
): { path: string; outDir: string } {
  const path = join(outDir, 'config.yaml');
  writeFileSync(
    path,
    [
      'mode: openclaw-rl',
      `output_dir: ${outDir}`,
      'server:',
      '  port: 0',
      `  shutdown_grace_s: ${graceS}`,
      'rollout:',
      '  provider: openai_compatible',
      `  base_url: ${policyUrl}`,
      '  model_id: policy',
      '  timeout_s: 120',
      '  first_token_timeout_s: 30',
      'judge:',
      '  provider: openai_compatible',
      `  base_url: ${judgeUrl}`,
      '  model_id: judge',
      '  timeout_s: 120',
      '',
    ].join('\n'),
  );
  return { path, outDir };
}

/**
 * Runs the scenario: one judged turn whose judge never answers, one stream of 100 tokens at
 * 200 ms each, then SIGTERM. The policy and judge servers are the caller's (left running).
 */
export async function sigtermScenario(policy: ScriptedUpstream, judge: ScriptedUpstream, graceS: number): Promise<SigtermResult> {
  judge.fallback = { kind: 'hang' };
  const judgedBefore = judge.received.length;
  policy.fallback = { kind: 'text', text: 'Here is the plan.' };
  const { path, outDir } = writeConfig(policy.url, judge.url, graceS);
  const { child, url } = await startCli(path);
  try {
    const u = (content: string) => ({ role: 'user', content });
    // Turn 1 gets its next state from turn 2: it is judged, and the judge hangs.
    await postJson(`${url}/v1/chat/completions`, { messages: [u('Plan my day')], session_id: 'judged' });
    await postJson(`${url}/v1/chat/completions`, {
      messages: [u('Plan my day'), { role: 'assistant', content: 'Here is the plan.' }, u('thanks')],
      session_id: 'judged',
    });
    while (judge.received.length === judgedBefore) await new Promise((r) => setTimeout(r, 20));
    policy.tokenDelayMs = 200;
    policy.script({ kind: 'text', tokens: Array.from({ length: 100 }, (_, i) => ` t${i}`) });
    const before = policy.received.length;
    const streamed = fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [u('Tell me a long story')], session_id: 'streaming', stream: true }),
    })
      .then((r) => r.text())
      .catch(() => '');
    while (policy.received.length === before || policy.streamedTokens < 2) await new Promise((r) => setTimeout(r, 20));
    const judgeCallsInFlight = judge.received.length - judgedBefore;
    const start = performance.now();
    child.kill('SIGTERM');
    const exitCode = await exitOf(child);
    const exitS = (performance.now() - start) / 1000;
    const events = (await streamed)
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => b.slice(6));
    let streamErrorCode: string | null = null;
    try {
      streamErrorCode = JSON.parse(events.at(-2) ?? '{}').error?.code ?? null;
    } catch {
      // not an error event
    }
    policy.tokenDelayMs = 0;
    return {
      graceS,
      exitS,
      exitCode,
      streamEndedCleanly: events.at(-1) === '[DONE]' && streamErrorCode !== null,
      streamErrorCode,
      judgeCallsInFlight,
      outDir,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
