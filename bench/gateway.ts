// `npm run bench:gateway`: many concurrent multi-turn sessions against the scripted upstream,
// once directly and once through the gateway (`openclaw-rl api-server`, its own process), in the
// same run. Prints requests/s and the gateway's added latency (p50/p99) as differences and ratios.
// Target (issue 2): added p50 ≤ 1 ms and p99 ≤ 5 ms at 64 concurrent sessions on 2 cores.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const TURNS = Number(process.env.BENCH_TURNS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Each simulated user pauses between turns, as agents do while a person reads and types. Without a
// pause, 64 closed-loop clients saturate 2 cores shared by client, upstream and gateway, and the
// "added latency" measures queueing on the CPU, not the gateway.
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 250);

function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child[stream]! });
    rl.on('line', (line) => { const m = re.exec(line); if (m) { rl.close(); resolve(m); } });
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before printing ${re}`)));
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs CONCURRENCY sessions of TURNS turns each; returns per-request latencies (ms) and wall time. */
async function drive(baseUrl: string, stream: boolean, tag: string): Promise<{ lat: number[]; wallMs: number }> {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const lat: number[] = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async (_, s) => {
    const messages: Array<Record<string, unknown>> = [{ role: 'system', content: 'You are a helpful assistant.' }];
    for (let t = 0; t < TURNS; t++) {
      await new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));
      messages.push({ role: 'user', content: `session ${tag}-${s} question ${t}: what should I do next?` });
      const start = performance.now();
      const res = await pool.request({
        path: `${url.pathname.replace(/\/$/, '')}/chat/completions`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-id': `${tag}-${s}`, 'x-turn-type': 'main' },
        body: JSON.stringify({ model: 'm', messages, stream, max_tokens: 64 }),
      });
      const text = await res.body.text();
      lat.push(performance.now() - start);
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
      const content = stream ? 'Sure. Here is a short answer with a few tokens in it.' : JSON.parse(text).choices[0].message.content;
      messages.push({ role: 'assistant', content });
    }
  }));
  const wallMs = performance.now() - t0;
  await pool.close();
  return { lat, wallMs };
}

async function main(): Promise<void> {
  const upstream = spawn(process.execPath, ['--import', 'tsx', 'bench/upstream-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [, upstreamUrl] = await waitForLine(upstream, 'stdout', /^UPSTREAM (\S+)/);
  const dir = mkdtempSync(join(tmpdir(), 'ocrl-bench-'));
  const cfg = join(dir, 'config.yaml');
  writeFileSync(cfg, `output_dir: ${dir}\nrollout:\n  provider: openai_compatible\n  base_url: ${upstreamUrl}\n  model_id: bench\n`);
  const gateway = spawn(process.execPath, [...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'bin/openclaw-rl.js', 'api-server', '--config', cfg, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, OPENCLAW_RL_LOG_LEVEL: 'warn' } });
  const [, gatewayUrl] = await waitForLine(gateway, 'stderr', /at (http:\/\/\S+)\/v1/);
  try {
    // Warm-up: JIT, connection pools.
    await drive(upstreamUrl, false, 'warm-d');
    await drive(`${gatewayUrl}/v1`, false, 'warm-g');
    const rows: string[] = [];
    for (const stream of [false, true]) {
      const direct: number[] = [];
      const via: number[] = [];
      let directWall = 0;
      let viaWall = 0;
      for (let r = 0; r < ROUNDS; r++) {
        // Alternate to spread machine noise over both.
        const d = await drive(upstreamUrl, stream, `d${r}${stream}`);
        const g = await drive(`${gatewayUrl}/v1`, stream, `g${r}${stream}`);
        direct.push(...d.lat); via.push(...g.lat);
        directWall += d.wallMs; viaWall += g.wallMs;
      }
      direct.sort((a, b) => a - b);
      via.sort((a, b) => a - b);
      const n = direct.length;
      const [d50, d99, g50, g99] = [percentile(direct, 50), percentile(direct, 99), percentile(via, 50), percentile(via, 99)];
      rows.push([
        stream ? 'stream' : 'non-stream',
        `${(n / (directWall / 1000)).toFixed(0)}`,
        `${(n / (viaWall / 1000)).toFixed(0)}`,
        `${d50.toFixed(2)} / ${d99.toFixed(2)}`,
        `${g50.toFixed(2)} / ${g99.toFixed(2)}`,
        `${(g50 - d50).toFixed(2)} (${(g50 / d50).toFixed(2)}x)`,
        `${(g99 - d99).toFixed(2)} (${(g99 / d99).toFixed(2)}x)`,
      ].join(' | '));
    }
    process.stdout.write(`gateway benchmark: ${CONCURRENCY} concurrent sessions x ${TURNS} turns x ${ROUNDS} rounds, think time ~${THINK_MS} ms, same run\n`);
    process.stdout.write('mode | direct req/s | gateway req/s | direct p50/p99 ms | gateway p50/p99 ms | added p50 ms | added p99 ms\n');
    for (const r of rows) process.stdout.write(`${r}\n`);
  } finally {
    gateway.kill('SIGTERM');
    upstream.kill('SIGTERM');
  }
}

await main();
