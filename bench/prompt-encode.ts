// `npm run bench:prompt`: prompt encoding on the request path, full vs incremental, in one run.
// Replays the captured OpenClaw session (fixture requests 1–3: ~51k characters, 12 tools, ~9.1k
// Qwen3 tokens each) and extends it with synthetic turns in OpenClaw's shape (an answer with a tool
// call, the tool result, the internal-context message last). Per turn it times
//   full:        render the chat template + encode the whole prompt (what every turn cost before),
//   incremental: render + HfChatTokenizer.encodeChat (PrefixEncoder reuses the cached prefix),
// checks both give the same ids, and prints medians over BENCH_ROUNDS rounds (default 15; each
// round starts with an empty cache) and their ratio. Target: incremental ≤ 3 ms for turns ≥ 2.
// `npm run bench:tinker` runs it too (benchPromptEncode), after the step-cost numbers.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadHfTokenizer } from '../src/tokenize/index.ts';
import { HfChatTokenizer } from '../src/chat/index.ts';
import { qwen3TokenizerDir } from '../test/support/qwen3-fixture.ts';
import type { ChatMessage } from '../src/engines/types.ts';
import { OPENCLAW_RECORDING } from '../test/fixtures/openclaw-like.ts';

const FIXTURE = process.env.BENCH_FIXTURE ?? OPENCLAW_RECORDING;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const EXTRA_TURNS = Number(process.env.BENCH_EXTRA_TURNS ?? 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS must be a positive integer, got ${process.env.BENCH_ROUNDS}`);
if (!Number.isInteger(EXTRA_TURNS) || EXTRA_TURNS < 0)
  throw new Error(`BENCH_EXTRA_TURNS must be a non-negative integer, got ${process.env.BENCH_EXTRA_TURNS}`);

interface Request {
  messages: ChatMessage[];
  tools: unknown[];
}

/** The fixture's first session (requests that extend request 1), then synthetic follow-up turns. */
function session(): Request[] {
  const all = readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).body as Request);
  const turns = all.slice(0, 3);
  let last = turns[turns.length - 1];
  for (let i = 0; i < EXTRA_TURNS; i++) {
    const context = last.messages[last.messages.length - 1];
    const history = last.messages.slice(0, -1);
    const id = `call_${i}`;
    const messages: ChatMessage[] = [
      ...history,
      {
        role: 'assistant',
        content: `Step ${i}: checking the workspace.`,
        tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: JSON.stringify({ path: `notes/${i}.md` }) } }],
      },
      { role: 'tool', tool_call_id: id, content: `# Notes ${i}\n${'- an item of the file, with some detail\n'.repeat(20)}` },
      context,
    ];
    last = { messages, tools: last.tools };
    turns.push(last);
  }
  return turns;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs the benchmark and prints its table through `log`. */
export async function benchPromptEncode(log: (line: string) => void = console.log): Promise<void> {
  const hf = await loadHfTokenizer(qwen3TokenizerDir());
  const turns = session();
  const full: number[][] = turns.map(() => []);
  const incremental: number[][] = turns.map(() => []);
  const tokens: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    // round -1 warms the JIT up and is not counted
    const chat = new HfChatTokenizer(hf);
    for (const [t, req] of turns.entries()) {
      const t0 = performance.now();
      const reference = hf.encode(hf.renderChat(req.messages, { tools: req.tools, addGenerationPrompt: true }));
      const t1 = performance.now();
      const ids = chat.encodeChat(req.messages, req.tools);
      const t2 = performance.now();
      if (ids.length !== reference.length || ids.some((id, i) => id !== reference[i]))
        throw new Error(`turn ${t + 1}: incremental ids differ from the full encode`);
      if (round >= 0) {
        full[t].push(t1 - t0);
        incremental[t].push(t2 - t1);
      }
      tokens[t] = ids.length;
    }
  }

  log(
    `prompt encoding, Qwen3 tokenizer, ${turns.length} turns of one OpenClaw session (3 captured + ${EXTRA_TURNS} synthetic), median of ${ROUNDS} rounds`,
  );
  log('turn  tokens   full ms  incremental ms  ratio');
  for (let t = 0; t < turns.length; t++) {
    const f = median(full[t]);
    const inc = median(incremental[t]);
    log(
      `${String(t + 1).padStart(4)}  ${String(tokens[t]).padStart(6)}  ${f.toFixed(2).padStart(8)}  ${inc.toFixed(2).padStart(14)}  ${(inc / f).toFixed(3).padStart(5)}`,
    );
  }
  const later = incremental.slice(1).flat();
  const laterFull = full.slice(1).flat();
  log(
    `turns ≥ 2: incremental median ${median(later).toFixed(2)} ms (max ${Math.max(...later).toFixed(2)}), full median ${median(laterFull).toFixed(2)} ms, ratio ${(median(later) / median(laterFull)).toFixed(3)}; target ≤ 3 ms: ${median(later) <= 3 ? 'met' : 'NOT met'}`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await benchPromptEncode();
