// `npm run bench:gateway`: many concurrent multi-turn sessions against the scripted upstream:
// directly (plain, and asking for log-probs and token ids as the gateway does), through a bare
// Node proxy (bench/bare-proxy.ts: what any HTTP hop costs here) and through the gateway
// (`openclaw-rl api-server`, scoring on the main thread as by default, and in its worker thread),
// each server in its own process, interleaved in one run.
// Prints requests/s, latency added over the direct call (p50/p99, differences and ratios) and the
// server's CPU time per request (from /proc, so machine noise does not blur it).
// Target: added p50 ≤ 1 ms and p99 ≤ 5 ms at 64 concurrent sessions on 2 cores.
// BENCH_SHAPE=agents: the same conversation (a 29k-character system prompt, 12 tools, session
// headers) through the gateway's three doors — /v1/chat/completions, /v1/messages (as Claude Code
// sends it) and /v1/responses (as Codex sends it) — each door's CPU per request as a ratio to Chat
// Completions in the same run (target ≤ 1.2×).
// BENCH_PRIVACY=1: a judge model on loopback declared remote (privacy.local_hosts: []), so every
// finished turn is redacted before the judge reads it, and a gateway with privacy.mode: off beside
// it in the same run: the detector's and redactor's CPU per turn is the difference (target
// ≤ 0.3 ms of main-thread CPU per turn on BENCH_SHAPE=openclaw).
// Rounds alternate the targets' order, and each target's CPU is read once its process is idle
// again, so work a turn leaves behind (scoring, journal writes) counts for the target that caused
// it and no target always runs after another.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { openClawBody, runtime, systemPrompt } from '../test/fixtures/openclaw-like.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const TURNS = Number(process.env.BENCH_TURNS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Each simulated user pauses between turns, as agents do while a person reads and types. Without a
// pause, 64 closed-loop clients saturate 2 cores shared by client, upstream and gateway, and the
// "added latency" measures queueing on the CPU, not the gateway.
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 250);
// BENCH_SHAPE=openclaw: requests shaped like OpenClaw's (a 40k-character system prompt, 12 tools,
// the internal-context block, no session headers: the gateway infers sessions), and an upstream
// that returns the whole prompt's token ids (one per 2.5 characters, ~16k for that prompt) as an
// engine does. The default shape is a short chat with X-Session-Id headers.
const OPENCLAW_SHAPE = process.env.BENCH_SHAPE === 'openclaw';
const AGENTS_SHAPE = process.env.BENCH_SHAPE === 'agents';
if (process.env.BENCH_SHAPE !== undefined && !OPENCLAW_SHAPE && !AGENTS_SHAPE)
  throw new Error(`BENCH_SHAPE must be "openclaw", "agents" or unset, not "${process.env.BENCH_SHAPE}"`);
const OPENCLAW_SYSTEM = { role: 'system', content: systemPrompt(40_000, 'main') };
const AGENT_SYSTEM = systemPrompt(29_000, 'coding-agent');
const AGENT_TOOLS = (openClawBody(OPENCLAW_SYSTEM, []).tools as Array<{ function: Record<string, unknown> }>).map((t) => t.function);
/** The model name every request sends: the gateway's rollout.model_id (accepted by this and older trees). */
const MODEL = 'bench';

/** A wire protocol the benchmark can speak: its path and how a turn's body is spelled in it. */
type Protocol = 'chat' | 'messages' | 'responses';
const PATHS: Record<Protocol, string> = { chat: '/chat/completions', messages: '/messages', responses: '/responses' };

/** The agents shape: one conversation spelled in each protocol, with that agent's session header. */
function agentRequest(protocol: Protocol, session: string, history: Array<Record<string, unknown>>, stream: boolean) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (protocol === 'chat') {
    headers['x-session-id'] = session;
    const tools = AGENT_TOOLS.map((f) => ({ type: 'function', function: f }));
    return {
      headers,
      body: { model: MODEL, messages: [{ role: 'system', content: AGENT_SYSTEM }, ...history], tools, stream, max_tokens: 1024 },
    };
  }
  if (protocol === 'messages') {
    headers['x-claude-code-session-id'] = session;
    headers['anthropic-version'] = '2023-06-01';
    const tools = AGENT_TOOLS.map((f) => ({ name: f.name, description: f.description, input_schema: f.parameters }));
    const system = [{ type: 'text', text: AGENT_SYSTEM, cache_control: { type: 'ephemeral' } }];
    return { headers, body: { model: MODEL, system, messages: history, tools, stream, max_tokens: 1024, metadata: { user_id: '{}' } } };
  }
  headers['session-id'] = session;
  const tools = AGENT_TOOLS.map((f) => ({ type: 'function', name: f.name, description: f.description, parameters: f.parameters }));
  const input = history.map((m) => ({
    type: 'message',
    role: m.role,
    content: [{ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: m.content }],
  }));
  return { headers, body: { model: MODEL, instructions: AGENT_SYSTEM, input, tools, stream, store: false, max_output_tokens: 1024 } };
}

/** One request of a session: its body and headers, for the turn's history (which `content` then extends). */
function requestOf(
  session: string,
  history: Array<Record<string, unknown>>,
  stream: boolean,
  extra: Record<string, unknown>,
  protocol: Protocol,
): { body: string; headers: Record<string, string> } {
  if (AGENTS_SHAPE) {
    const r = agentRequest(protocol, session, history, stream);
    return { headers: r.headers, body: JSON.stringify({ ...r.body, ...extra }) };
  }
  if (!OPENCLAW_SHAPE) {
    return {
      headers: { 'content-type': 'application/json', 'x-session-id': session, 'x-turn-type': 'main' },
      body: JSON.stringify({ model: MODEL, messages: history, stream, max_tokens: 64, ...extra }),
    };
  }
  const body: Record<string, unknown> = { ...openClawBody(OPENCLAW_SYSTEM, history, 12, MODEL), stream, ...extra };
  if (!stream) delete body.stream_options;
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The answer's text in a non-streamed body of `protocol`. */
function answerText(protocol: Protocol, body: Record<string, any>): string {
  if (protocol === 'messages') return body.content[0].text;
  if (protocol === 'responses') return body.output[0].content[0].text;
  return body.choices[0].message.content;
}

function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child[stream]! });
    rl.on('line', (line) => {
      const m = re.exec(line);
      if (m) {
        rl.close();
        resolve(m);
      }
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before printing ${re}`)));
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs CONCURRENCY sessions of TURNS turns each; returns per-request latencies (ms) and wall time. */
async function drive(
  baseUrl: string,
  stream: boolean,
  tag: string,
  extra: Record<string, unknown> = {},
  protocol: Protocol = 'chat',
): Promise<{ lat: number[]; wallMs: number }> {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const lat: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, s) => {
      // Letters, digits and dashes only: OpenClaw's runtime line ends a session id at a space, so a
      // target named "gateway of /tmp/x" would otherwise send every session as one.
      const session = `${tag.replace(/[^A-Za-z0-9]+/g, '-')}-${s}`;
      // OpenClaw's system prompt travels in every body (openClawBody); the short chat's is history.
      const messages: Array<Record<string, unknown>> =
        OPENCLAW_SHAPE || AGENTS_SHAPE ? [] : [{ role: 'system', content: 'You are a helpful assistant.' }];
      for (let t = 0; t < TURNS; t++) {
        await new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));
        const question = `session ${session} question ${t}: what should I do next?`;
        messages.push({ role: 'user', content: OPENCLAW_SHAPE && t === 0 ? question + runtime(session) : question });
        const { body, headers } = requestOf(session, messages, stream, extra, protocol);
        const start = performance.now();
        const res = await pool.request({ path: `${url.pathname.replace(/\/$/, '')}${PATHS[protocol]}`, method: 'POST', headers, body });
        const text = await res.body.text();
        lat.push(performance.now() - start);
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
        const content = stream ? 'Sure. Here is a short answer with a few tokens in it.' : answerText(protocol, JSON.parse(text));
        messages.push({ role: 'assistant', content });
      }
    }),
  );
  const wallMs = performance.now() - t0;
  await pool.close();
  return { lat, wallMs };
}

/** CPU seconds (user + system) a process (or, with `mainThread`, its main thread) has used so far, from /proc (Linux). */
function cpuSeconds(pid: number, mainThread = false): number {
  const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

interface Target {
  name: string;
  url: string;
  pid?: number;
  /** Extra request fields (the direct call that asks for what the gateway asks for on main turns). */
  extra?: Record<string, unknown>;
  /** The door it is reached through (default: Chat Completions). */
  protocol?: Protocol;
}

interface Measured {
  lat: number[];
  wallMs: number;
  cpuS: number;
  /** CPU of the main thread alone: the event loop that serves requests. */
  mainCpuS: number;
}

/** Waits until each of `pids` has used no CPU for 300 ms (at most 10 s): the work a turn left behind is done. */
async function settle(pids: number[]): Promise<void> {
  const total = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const deadline = performance.now() + 10_000;
  let last = total();
  for (let idle = 0; idle < 3 && performance.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 100));
    const now = total();
    idle = now === last ? idle + 1 : 0;
    last = now;
  }
}

async function measure(target: Target, stream: boolean, tag: string, servers: number[]): Promise<Measured> {
  const pid = target.pid;
  await settle(servers);
  const cpu0 = pid !== undefined ? [cpuSeconds(pid), cpuSeconds(pid, true)] : [0, 0];
  const { lat, wallMs } = await drive(target.url, stream, tag, target.extra, target.protocol);
  if (pid === undefined) return { lat, wallMs, cpuS: 0, mainCpuS: 0 };
  await settle([pid]);
  return { lat, wallMs, cpuS: cpuSeconds(pid) - cpu0[0], mainCpuS: cpuSeconds(pid, true) - cpu0[1] };
}

function merge(a: Measured | undefined, b: Measured): Measured {
  return a === undefined
    ? b
    : { lat: [...a.lat, ...b.lat], wallMs: a.wallMs + b.wallMs, cpuS: a.cpuS + b.cpuS, mainCpuS: a.mainCpuS + b.mainCpuS };
}

function spawnServer(args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): ChildProcess {
  const prof = process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [];
  return spawn(process.execPath, [...prof, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env, cwd });
}

async function main(): Promise<void> {
  const upstreamArgs = OPENCLAW_SHAPE ? ['--prompt-chars-per-token', '2.5'] : [];
  const upstream = spawn(process.execPath, ['--import', 'tsx', 'bench/upstream-process.ts', ...upstreamArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, upstreamUrl] = await waitForLine(upstream, 'stdout', /^UPSTREAM (\S+)/);
  const dir = mkdtempSync(join(tmpdir(), 'ocrl-bench-'));
  // The gateway as configured by default (scoring on the main thread), and with scoring in its
  // worker thread (scoring.worker_thread: true): what the thread buys, in the same run.
  const privacyBench = process.env.BENCH_PRIVACY !== undefined;
  const config = (name: string, workerThread: boolean, privacyMode = 'redact') => {
    const path = join(dir, `${name}.yaml`);
    mkdirSync(join(dir, name));
    // BENCH_JUDGE=1: a judge model (the scripted upstream again) instead of the rules judge, so
    // each finished turn also costs the judge's HTTP calls, as in a real deployment.
    const judge =
      process.env.BENCH_JUDGE || privacyBench
        ? `judge:\n  provider: openai_compatible\n  base_url: ${upstreamUrl}\n  model_id: bench-judge\n`
        : '';
    const privacy = privacyBench ? `privacy:\n  mode: ${privacyMode}\n  local_hosts: []\n` : '';
    writeFileSync(
      path,
      `output_dir: ${join(dir, name)}\nrollout:\n  provider: openai_compatible\n  base_url: ${upstreamUrl}\n  model_id: bench\n${judge}${privacy}scoring:\n  worker_thread: ${workerThread}\n`,
    );
    return path;
  };
  const bare = spawnServer(['--import', 'tsx', 'bench/bare-proxy.ts', upstreamUrl]);
  const gatewayEnv = { ...process.env, OPENCLAW_RL_LOG_LEVEL: 'warn' };
  const gateway = spawnServer(['bin/openclaw-rl.js', 'api-server', '--config', config('gateway', false), '--port', '0'], gatewayEnv);
  const gatewayThread = spawnServer(
    ['bin/openclaw-rl.js', 'api-server', '--config', config('gateway-thread', true), '--port', '0'],
    gatewayEnv,
  );
  // BENCH_BASELINE_TREE=<another checkout with its node_modules>: that tree's gateway joins the run,
  // so two versions of the code are compared under the same load and the same machine noise.
  const baselineTree = process.env.BENCH_BASELINE_TREE;
  const baseline = baselineTree
    ? spawnServer(
        ['bin/openclaw-rl.js', 'api-server', '--config', config('gateway-baseline', false), '--port', '0'],
        gatewayEnv,
        baselineTree,
      )
    : undefined;
  const privacyOff = privacyBench
    ? spawnServer(['bin/openclaw-rl.js', 'api-server', '--config', config('gateway-privacy-off', false, 'off'), '--port', '0'], gatewayEnv)
    : undefined;
  const [[, bareUrl], [, gatewayUrl], [, gatewayThreadUrl], baselineMatch, privacyOffMatch] = await Promise.all([
    waitForLine(bare, 'stderr', /at (http:\/\/\S+\/v1)/),
    waitForLine(gateway, 'stderr', /at (http:\/\/\S+)\/v1/),
    waitForLine(gatewayThread, 'stderr', /at (http:\/\/\S+)\/v1/),
    baseline ? waitForLine(baseline, 'stderr', /at (http:\/\/\S+)\/v1/) : undefined,
    privacyOff ? waitForLine(privacyOff, 'stderr', /at (http:\/\/\S+)\/v1/) : undefined,
  ]);
  if (process.env.BENCH_STDERR) gateway.stderr!.pipe(process.stderr);
  const targets: Target[] = [
    { name: 'direct', url: upstreamUrl },
    // The gateway asks the upstream for log-probs and token ids on every main turn; this row shows
    // what that costs the upstream, so the gateway's own share can be read off.
    { name: 'direct + log-probs', url: upstreamUrl, extra: { logprobs: true, return_token_ids: true } },
    { name: 'bare proxy', url: bareUrl, pid: bare.pid },
    { name: 'gateway', url: `${gatewayUrl}/v1`, pid: gateway.pid },
    { name: 'gateway, scoring in a worker thread', url: `${gatewayThreadUrl}/v1`, pid: gatewayThread.pid },
    ...(baseline && baselineMatch ? [{ name: `gateway of ${baselineTree}`, url: `${baselineMatch[1]}/v1`, pid: baseline.pid }] : []),
    ...(privacyOff && privacyOffMatch ? [{ name: 'gateway, privacy.mode off', url: `${privacyOffMatch[1]}/v1`, pid: privacyOff.pid }] : []),
    ...(AGENTS_SHAPE
      ? [
          { name: 'gateway /v1/messages', url: `${gatewayUrl}/v1`, pid: gateway.pid, protocol: 'messages' as const },
          { name: 'gateway /v1/responses', url: `${gatewayUrl}/v1`, pid: gateway.pid, protocol: 'responses' as const },
        ]
      : []),
  ];
  const servers = [...new Set(targets.map((t) => t.pid).filter((pid): pid is number => pid !== undefined))];
  try {
    // Warm-up: JIT, connection pools.
    for (const t of targets) await drive(t.url, false, `warm-${t.name}`, t.extra, t.protocol);
    const rows: string[] = [];
    for (const stream of [false, true]) {
      const runs = new Map<string, Measured>();
      for (let r = 0; r < ROUNDS; r++) {
        // Interleaved, so machine noise spreads over all targets; every other round backwards.
        const order = r % 2 === 0 ? targets : [...targets].reverse();
        for (const t of order) runs.set(t.name, merge(runs.get(t.name), await measure(t, stream, `${t.name}${r}${stream}`, servers)));
      }
      const stats = (name: string) => {
        const m = runs.get(name)!;
        const sorted = [...m.lat].sort((a, b) => a - b);
        const perRequest = (seconds: number) => ((seconds * 1e6) / m.lat.length).toFixed(0);
        return {
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          rps: m.lat.length / (m.wallMs / 1000),
          cpu: `${perRequest(m.cpuS)} (${perRequest(m.mainCpuS)})`,
        };
      };
      const direct = stats('direct');
      const chatCpu = runs.get('gateway')!;
      for (const t of targets) {
        const s = stats(t.name);
        rows.push(
          [
            stream ? 'stream' : 'non-stream',
            t.name,
            s.rps.toFixed(0),
            `${s.p50.toFixed(2)} / ${s.p99.toFixed(2)}`,
            t === targets[0] ? '-' : `${(s.p50 - direct.p50).toFixed(2)} (${(s.p50 / direct.p50).toFixed(2)}x)`,
            t === targets[0] ? '-' : `${(s.p99 - direct.p99).toFixed(2)} (${(s.p99 / direct.p99).toFixed(2)}x)`,
            t.pid === undefined ? '-' : s.cpu,
            t.pid === undefined
              ? '-'
              : `${(runs.get(t.name)!.cpuS / runs.get(t.name)!.lat.length / (chatCpu.cpuS / chatCpu.lat.length)).toFixed(2)}x`,
          ].join(' | '),
        );
      }
    }
    const shape = OPENCLAW_SHAPE
      ? 'OpenClaw-shaped requests (40k-char system prompt, 12 tools, inferred sessions, ~16k prompt token ids)'
      : AGENTS_SHAPE
        ? 'agent-shaped requests (29k-char system prompt, 12 tools, session headers) through each protocol'
        : 'short chats with session headers';
    const judged = privacyBench
      ? ', a judge model declared remote (privacy.local_hosts: [])'
      : process.env.BENCH_JUDGE
        ? ', a judge model'
        : '';
    process.stdout.write(
      `gateway benchmark: ${CONCURRENCY} concurrent sessions x ${TURNS} turns x ${ROUNDS} rounds, think time ~${THINK_MS} ms, ${shape}${judged}, same run\n`,
    );
    process.stdout.write(
      'mode | target | req/s | p50 / p99 ms | added p50 ms | added p99 ms | server CPU µs/req (main thread) | CPU/req vs gateway (chat)\n',
    );
    for (const r of rows) process.stdout.write(`${r}\n`);
  } finally {
    bare.kill('SIGTERM');
    gateway.kill('SIGTERM');
    gatewayThread.kill('SIGTERM');
    baseline?.kill('SIGTERM');
    privacyOff?.kill('SIGTERM');
    upstream.kill('SIGTERM');
  }
}

await main();
