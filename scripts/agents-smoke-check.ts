// The checks of scripts/agents-smoke.sh for one agent run: reads what the run added to the
// records file and the server's session view, prints it, and exits 1 when a check fails.
// Usage: agents-smoke-check.ts RL KEY RECORDS NAME SESSION_ID ID_SOURCE CLI_OUTPUT LINES_BEFORE SIDE_BEFORE TRAIN
import { existsSync, readFileSync } from 'node:fs';

const [rl, key, recordsPath, name, sessionId, idSource, outFile, linesBefore, sideBefore, train] = process.argv.slice(2);

interface Line {
  type: string;
  session_id: string;
  turn_id: number;
  next_state?: { role: string; content: string } | null;
  messages?: unknown[];
  response_ids?: number[];
}

const lines: Line[] = existsSync(recordsPath)
  ? readFileSync(recordsPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(Number(linesBefore))
      .map((l) => JSON.parse(l) as Line)
  : [];
const turns = lines.filter((l) => l.type === 'turn');
const sessions = [...new Set(turns.map((t) => t.session_id))];
const health = (await (await fetch(`${rl}/healthz`)).json()) as { counters: { side_turns: number } };
const sideTurns = health.counters.side_turns - Number(sideBefore);
const printed = readFileSync(outFile, 'utf8') + (existsSync(`${outFile}.err`) ? readFileSync(`${outFile}.err`, 'utf8') : '');
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};

console.log(
  `  ${name}: ${turns.length} recorded turn(s) in ${sessions.length} session(s) ${JSON.stringify(sessions)}; ${sideTurns} side turn(s)`,
);
if (train === '1') {
  // The embedded model's context is far smaller than these agents' system prompts.
  check(/prompt is too long|context (length|window)|too long|maximum context/i.test(printed), 'the CLI shows a "prompt too long" error');
  check(turns.length === 0, 'nothing is recorded');
} else {
  check(printed.includes('Scripted summary of'), 'the CLI printed the final answer');
  check(sessions.length === 1, 'one session per run');
  const sid = sessions[0];
  if (sessionId !== '') check(sid === sessionId, `the session is named from the client's own id (${sessionId})`);
  interface View {
    named_by?: string;
    turns?: Array<{
      turn_id: number;
      next_state?: { role: string; content: string } | null;
      judgement?: { score: number | null; sample_type: string | null };
    }>;
  }
  const readView = async (): Promise<View> =>
    sid
      ? ((await (await fetch(`${rl}/sessions/${encodeURIComponent(sid)}`, { headers: { authorization: `Bearer ${key}` } })).json()) as View)
      : {};
  // The judge works in the background: give it a few seconds to score the first turn.
  let view = await readView();
  for (let i = 0; i < 40 && view.turns?.find((t) => t.turn_id === 1)?.judgement === undefined; i++) {
    await new Promise((r) => setTimeout(r, 250));
    view = await readView();
  }
  console.log(`  ${name}: session ${sid} named by ${view.named_by}`);
  if (idSource !== 'inferred') check(view.named_by === idSource, `the session id came from ${idSource}`);
  const first = view.turns?.find((t) => t.turn_id === 1);
  console.log(`  ${name}: turn 1 next state: ${JSON.stringify(first?.next_state ?? null).slice(0, 160)}`);
  check(first?.next_state?.role === 'tool', "the first turn's next state is the tool's result");
  console.log(`  ${name}: turn 1 judged: ${JSON.stringify(first?.judgement ?? null)}`);
  check(first?.judgement !== undefined && first.judgement.sample_type !== null, 'the first turn was judged and became a sample');
  check(turns.length === 2, 'two main turns (tool call, final answer): helper calls are side turns');
}
for (const f of failures) console.log(`  ${name}: FAILED: ${f}`);
console.log(`  ${name}: ${failures.length === 0 ? 'ok' : 'FAILED'}`);
process.exit(failures.length === 0 ? 0 : 1);
