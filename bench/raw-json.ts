// `node --import tsx bench/raw-json.ts`: what keeping a request's raw text (src/raw-json/json-text.ts)
// saves per OpenClaw-shaped request, in one process and one run: the gateway's request parsing and
// upstream body formatted afresh vs. with messages and tools spliced in as the text they came in,
// plus JSON.parse alone (paid either way) and the tools' JSON.stringify that the turn record line
// saves. CPU time per request (process.cpuUsage), so machine load blurs it little. The end-to-end
// figure is `npm run bench:gateway` with BENCH_SHAPE=openclaw (docs/benchmarks.md).
import { openClawBody, systemPrompt } from '../test/fixtures/openclaw-like.ts';
import { parseChatRequest } from '../src/gateway/request.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5000);
const history = [
  { role: 'user', content: 'What changed in the build?' },
  { role: 'assistant', content: 'Two files.' },
  { role: 'user', content: 'Which ones?' },
];
const body = openClawBody({ role: 'system', content: systemPrompt(40_000, 'main') }, history);
const text = JSON.stringify(body);
const shaping = { modelId: 'policy', maxTokensLimit: 4096 };

/** CPU µs per call of `f`, after a warm-up. */
function cpuMicros(f: () => number): number {
  let sink = 0;
  for (let i = 0; i < ROUNDS / 2; i++) sink += f();
  const t0 = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) sink += f();
  const used = process.cpuUsage(t0);
  if (sink === 0) throw new Error('nothing was computed');
  return (used.user + used.system) / ROUNDS;
}

const afresh = cpuMicros(() => parseChatRequest(JSON.parse(text), {}, shaping).upstreamBody.text().length);
const spliced = cpuMicros(() => parseChatRequest(JSON.parse(text), {}, shaping, text).upstreamBody.text().length);
const parse = cpuMicros(() => Object.keys(JSON.parse(text)).length);
const tools = cpuMicros(() => JSON.stringify(body.tools).length);
process.stdout.write(`OpenClaw-shaped request: ${text.length} characters, ${ROUNDS} rounds, CPU µs per request\n`);
process.stdout.write(`parse + upstream body, formatted afresh: ${afresh.toFixed(1)}\n`);
process.stdout.write(`parse + upstream body, raw text spliced: ${spliced.toFixed(1)} (${(afresh / spliced).toFixed(2)}x less)\n`);
process.stdout.write(`  of which JSON.parse, paid either way:  ${parse.toFixed(1)}\n`);
process.stdout.write(`record line's tools, formatted afresh:   ${tools.toFixed(1)} (0 with their raw text)\n`);
process.stdout.write(`saved per request: ${(afresh - spliced + tools).toFixed(0)} µs\n`);
