// `npm run bench:journal [-- --gb 1 --full-scan]`: the turn journal's numbers (docs/reliability.md).
//  1. Bytes per OpenClaw turn, before (every line repeats the whole prompt, as versions before
//     delta lines wrote it: computed from the rebuilt turns) and after (the file as written now):
//     on the shared recording of the real client, and on a 30-turn OpenClaw-shaped session whose
//     upstream returns the prompt's token ids as an engine does (~16k per request).
//  2. Start-up with a large journal: a generated journal of --gb GB (64 MB segments, OpenClaw-
//     shaped sessions: a full first line, delta lines after) and a store whose checkpoint sits
//     before the last ~200 turns (which the store lacks, as after a kill). Time from spawn to
//     listening and the peak RSS of the server process, against a same-run baseline with an
//     empty journal. With --full-scan, also with no checkpoint (a journal from before them: every
//     segment is replayed once). Target: 5 GB under 5 s and under 300 MB.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHarness, readSse } from '../test/support/harness.ts';
import { OPENCLAW_RECORDING, openClawBody, runtime, systemPrompt } from '../test/fixtures/openclaw-like.ts';
import { journalSegments, readRecords, type RecordedTurn } from '../src/sessions/index.ts';
import Database from 'better-sqlite3';
import { SampleStore } from '../src/samples/index.ts';

const { values } = parseArgs({
  options: {
    gb: { type: 'string', default: '1' },
    'full-scan': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const GB = Number(values.gb);
if (!(GB > 0 && GB <= 50)) throw new Error(`--gb must be a number of gigabytes in (0, 50], not ${JSON.stringify(values.gb)}`);
const LAUNCHER = fileURLToPath(new URL('../test/pipeline/launch-server.ts', import.meta.url));

// ---- 1. bytes per turn -------------------------------------------------------------------------

/** A turn's line as versions before delta lines wrote it: every member in full. */
function fullLineBytes(t: RecordedTurn): number {
  const { next_state: _n, next_state_reason: _r, ...line } = t;
  return Buffer.byteLength(JSON.stringify(line)) + 1;
}

function journalBytes(outDir: string): { turns: number; before: number; after: number } {
  const path = join(outDir, 'records', 'turns.jsonl');
  const { turns } = readRecords(path);
  const after = journalSegments(path).reduce((n, s) => n + statSync(s.path).size, 0);
  const nextStateBytes = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{"type":"next_state"'))
    .reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  return { turns: turns.length, before: turns.reduce((n, t) => n + fullLineBytes(t), 0) + nextStateBytes, after };
}

async function fixtureBytes(): Promise<{ turns: number; before: number; after: number }> {
  const h = await startHarness();
  try {
    const reqs = readFileSync(OPENCLAW_RECORDING, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const r of reqs) {
      const call = r.reply.tool_calls?.[0];
      h.upstream.script(
        call
          ? { kind: 'tool_call', name: call.function.name, arguments: call.function.arguments, id: call.id }
          : { kind: 'text', text: r.reply.content ?? '' },
      );
      const res = await fetch(`${h.url}${r.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: r.headers.traceparent },
        body: JSON.stringify(r.body),
      });
      await readSse(res);
    }
  } finally {
    await h.close();
  }
  return journalBytes(h.outDir);
}

async function sessionBytes(turns: number): Promise<{ turns: number; before: number; after: number }> {
  const h = await startHarness();
  try {
    h.upstream.promptCharsPerToken = 2.5; // an engine returning the prompt's ids
    h.upstream.fallback = { kind: 'text', text: 'Done: I read the file and updated the plan as you asked, step by step.' };
    const system = { role: 'system', content: systemPrompt(40_000, 'main') };
    const history: Array<Record<string, unknown>> = [];
    for (let n = 0; n < turns; n++) {
      history.push({
        role: 'user',
        content: `Step ${n}: please look at section ${n} of the notes and tell me what changed.${n === 0 ? runtime('bench-session') : ''}`,
      });
      const res = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(openClawBody(system, history)),
      });
      const events = await readSse(res);
      const text = events
        .filter((e) => e !== '[DONE]')
        .map((e) => JSON.parse(e).choices?.[0]?.delta?.content ?? '')
        .join('');
      history.push({ role: 'assistant', content: text });
    }
  } finally {
    await h.close();
  }
  return journalBytes(h.outDir);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
function printBytes(what: string, r: { turns: number; before: number; after: number }): void {
  console.log(
    `${what}: turns=${r.turns} bytes_per_turn_before=${kb(r.before / r.turns)} bytes_per_turn_after=${kb(r.after / r.turns)} ratio=${(r.before / r.after).toFixed(1)}x`,
  );
}

// ---- 2. start-up with a large journal ----------------------------------------------------------

const SEGMENT = 64 * 1024 * 1024;
const SYSTEM_TEXT = JSON.stringify({ role: 'system', content: systemPrompt(40_000, 'main') });
const TOOLS_TEXT = JSON.stringify(openClawBody({}, []).tools);
const IDS_TEXT = JSON.stringify(Array.from({ length: 16_000 }, (_, i) => 1000 + ((i * 7919) % 50_000)));
const TURNS_PER_SESSION = 20;

function turnLine(session: string, n: number): string {
  const head = `{"type":"turn","session_id":"${session}","turn_id":${n},"response":{"role":"assistant","content":"Answer ${n} of the session, a sentence of ordinary length."},"response_text":"Answer ${n} of the session, a sentence of ordinary length.","response_ids":[5,6,7,8,9,10,11,12],"logprobs":[-0.1,-0.2,-0.3,-0.1,-0.2,-0.3,-0.1,-0.2],"finish_reason":"stop","policy_version":0,"started_at":"2026-12-01T00:00:00.000Z","completed_at":"2026-12-01T00:00:01.000Z"`;
  const user = `{"role":"user","content":"Step ${n}: please look at section ${n} of the notes and tell me what changed."}`;
  if (n === 1) return `${head},"tools":${TOOLS_TEXT},"prompt_ids":${IDS_TEXT},"messages":[${SYSTEM_TEXT},${user}]}\n`;
  return `${head},"base":{"turn_id":${n - 1},"keep":${2 * n - 2},"tools":true,"ids_keep":${16_000 + 20 * (n - 2)}},"prompt_ids":[${Array.from({ length: 20 }, (_, i) => 100 + i).join(',')}],"messages":[${user}]}\n`;
}
const nextLine = (session: string, n: number) =>
  `{"type":"next_state","session_id":"${session}","turn_id":${n},"next_state":{"role":"user","content":"Step ${n + 1}"},"at":"2026-12-01T00:00:02.000Z"}\n`;

/** Writes ~`bytes` of journal as 64 MB segments; returns the position before the last ~200 turns and those turns. */
function generateJournal(
  dir: string,
  bytes: number,
): { checkpoint: { segment: number; offset: number }; tail: Array<[string, number]>; turns: number } {
  mkdirSync(dir, { recursive: true });
  let segment = 1;
  let fd = openSync(join(dir, 'turns.000001.jsonl'), 'w');
  let size = 0;
  let total = 0;
  let turns = 0;
  const positions: Array<{ segment: number; offset: number; key: [string, number] }> = [];
  for (let s = 0; total < bytes; s++) {
    const session = `gen-${s}`;
    const chunks: string[] = [];
    for (let n = 1; n <= TURNS_PER_SESSION; n++) chunks.push(turnLine(session, n), nextLine(session, n));
    const sessionBytes = chunks.reduce((a, c) => a + Buffer.byteLength(c), 0);
    if (size > 0 && size + sessionBytes > SEGMENT) {
      closeSync(fd);
      segment++;
      fd = openSync(join(dir, `turns.${String(segment).padStart(6, '0')}.jsonl`), 'w');
      size = 0;
    }
    for (let i = 0; i < chunks.length; i++) {
      if (i % 2 === 0) {
        positions.push({ segment, offset: size, key: [session, i / 2 + 1] });
        if (positions.length > 200) positions.shift();
        turns++;
      }
      const b = Buffer.from(chunks[i]);
      writeSync(fd, b);
      size += b.length;
      total += b.length;
    }
  }
  closeSync(fd);
  // The last segment is the active one.
  const last = join(dir, `turns.${String(segment).padStart(6, '0')}.jsonl`);
  const active = join(dir, 'turns.jsonl');
  rmSync(active, { force: true });
  renameSync(last, active);
  const cp = positions[0];
  return { checkpoint: { segment: cp.segment, offset: cp.offset }, tail: positions.map((p) => p.key), turns };
}

/** Median of 3 starts (the machine is shared): ms from spawn to listening, peak RSS (MB). */
async function measureStart(outDir: string): Promise<{ ms: number; rssMb: number }> {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await startOnce(outDir));
  const mid = <T>(xs: T[], f: (x: T) => number) => xs.map(f).sort((a, b) => a - b)[1];
  return { ms: mid(runs, (r) => r.ms), rssMb: mid(runs, (r) => r.rssMb) };
}

/** Starts the server on `outDir` in a child process: ms from spawn to listening, peak RSS (MB). */
function startOnce(outDir: string): Promise<{ ms: number; rssMb: number }> {
  const spec = {
    tree: { rollout: { provider: 'openai_compatible', base_url: 'http://127.0.0.1:9/v1', model_id: 'p' } },
    overrides: { output_dir: outDir, 'server.port': 0, mode: 'openclaw-rl' },
  };
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', LAUNCHER, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('READY ')) return;
      const ms = performance.now() - t0;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      child.kill('SIGKILL');
      resolve({ ms, rssMb: hwm ? Number(hwm[1]) / 1024 : NaN });
    });
    child.once('exit', (code, signal) => {
      if (!out.includes('READY ')) reject(new Error(`server exited before listening (${code ?? signal})`));
    });
  });
}

/**
 * The store of a run that served the generated journal: every turn but the last 200 resolved
 * (as light drop rows: start-up only looks turns up), and the checkpoint, if given.
 */
function storeWithCheckpoint(
  outDir: string,
  turns: number,
  tail: Array<[string, number]>,
  checkpoint: { segment: number; offset: number } | null,
): void {
  const store = SampleStore.open(join(outDir, 'samples.sqlite'));
  if (checkpoint !== null) store.setJournalCheckpoint(checkpoint);
  store.close();
  const db = new Database(join(outDir, 'samples.sqlite'));
  const missing = new Set(tail.map(([s, n]) => `${s}:${n}`));
  const insert = db.prepare(
    `INSERT OR IGNORE INTO turn_drops (session_id, turn_id, reason, info, dropped_at) VALUES (?, ?, 'bench', NULL, 0)`,
  );
  db.transaction(() => {
    for (let i = 0; i < turns; i++) {
      const s = `gen-${Math.floor(i / TURNS_PER_SESSION)}`;
      const n = (i % TURNS_PER_SESSION) + 1;
      if (!missing.has(`${s}:${n}`)) insert.run(s, n);
    }
  })();
  db.close();
}

async function startup(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'ocrl-bench-journal-'));
  try {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    await measureStart(empty); // warm the tsx cache
    const base = await measureStart(empty);
    console.log(`start-up, empty journal (baseline): ms=${base.ms.toFixed(0)} peak_rss=${base.rssMb.toFixed(0)} MB`);
    const big = join(root, 'big');
    const t0 = performance.now();
    const gen = generateJournal(join(big, 'records'), GB * 1024 ** 3);
    const size = journalSegments(join(big, 'records', 'turns.jsonl')).reduce((n, s) => n + statSync(s.path).size, 0);
    console.log(
      `generated journal: ${(size / 1024 ** 3).toFixed(2)} GB, ${journalSegments(join(big, 'records', 'turns.jsonl')).length} segments, ${gen.turns} turns (${(size / gen.turns / 1024).toFixed(1)} KB/turn) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    storeWithCheckpoint(big, gen.turns, gen.tail, gen.checkpoint);
    const withCp = await measureStart(big);
    console.log(
      `start-up, ${(size / 1024 ** 3).toFixed(2)} GB journal, checkpoint before the last 200 turns: ms=${withCp.ms.toFixed(0)} (+${(withCp.ms - base.ms).toFixed(0)} over baseline, ratio ${(withCp.ms / base.ms).toFixed(2)}) peak_rss=${withCp.rssMb.toFixed(0)} MB (+${(withCp.rssMb - base.rssMb).toFixed(0)})`,
    );
    const requeued = SampleStore.open(join(big, 'samples.sqlite'));
    const stored = gen.tail.filter(([s, n]) => requeued.hasTurn(s, n)).length;
    requeued.close();
    console.log(
      `  the 200 turns after the checkpoint (missing from the store): ${stored} held by the store once the server listened (pending, re-queued from the journal)`,
    );
    if (values['full-scan']) {
      const legacy = join(root, 'legacy');
      mkdirSync(legacy);
      renameSync(join(big, 'records'), join(legacy, 'records'));
      storeWithCheckpoint(legacy, gen.turns, gen.tail, null);
      const scan = await measureStart(legacy);
      console.log(
        `start-up, same journal without a checkpoint (replays every segment once): ms=${scan.ms.toFixed(0)} peak_rss=${scan.rssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    if (!values.keep) rmSync(root, { recursive: true, force: true });
    else console.log(`kept ${root}`);
  }
}

printBytes('OpenClaw recording (test/fixtures/openclaw, 4 requests)', await fixtureBytes());
printBytes('OpenClaw-shaped session, 30 turns, engine token ids', await sessionBytes(30));
await startup();
