// Runs the scripted OpenAI-compatible upstream of the tests (test/support/scripted-upstream.ts) as
// its own process, for manual runs and scripts/openclaw-smoke.sh. It prints its base URL and
// answers until killed. Answers: a user message containing LIST_FILES gets a tool call that lists
// the working folder, with whichever listing tool the request offers (OpenClaw's `ls`, Claude
// Code's `Bash`, Codex's `shell` or `exec_command`); tool results get a one-line summary; anything
// else gets a one-line text reply naming the user's message. `--log PATH` appends each request
// (headers and body) as a JSON line, to see what a client sent through openclaw-rl.
// Usage: node --import tsx scripts/scripted-upstream.ts [--port N] [--url-file PATH] [--log PATH]
import { appendFileSync, writeFileSync } from 'node:fs';
import { ScriptedUpstream, type Behaviour, type ReceivedRequest } from '../test/support/scripted-upstream.ts';

const INTERNAL = '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** Decides the answer from the last message that is not client-internal context. */
function answer(req: ReceivedRequest): Behaviour {
  const messages = (req.body.messages ?? []) as Array<{ role: string; content?: unknown }>;
  const real = messages.filter((m) => !text(m.content).includes(INTERNAL));
  const last = real.at(-1);
  const tools = ((req.body.tools ?? []) as Array<{ function?: { name?: string } }>).map((t) => t.function?.name);
  if (last?.role === 'tool') {
    let n = 0;
    for (let i = real.length - 1; i >= 0 && real[i].role === 'tool'; i--) n++;
    return { kind: 'text', text: `Scripted summary of ${n} tool result(s): ${text(last.content).split('\n').length} line(s) seen.` };
  }
  const said = text(last?.content)
    .replace(/^\[[^\]]*\]\s*/, '')
    .replace(/\n\nRuntime:[\s\S]*$/, '')
    .slice(0, 80);
  const lister = LISTERS.find((l) => tools.includes(l.name));
  if (last?.role === 'user' && text(last.content).includes('LIST_FILES') && lister !== undefined)
    return { kind: 'tool_call', name: lister.name, arguments: lister.arguments, id: 'call_smoke_1' };
  return { kind: 'text', text: `Scripted reply to: ${said}` };
}

/** The listing tools of the agents, with arguments that list the working folder. */
const LISTERS = [
  { name: 'ls', arguments: '{"path":"."}' },
  { name: 'Bash', arguments: '{"command":"ls","description":"List files in the working folder"}' },
  { name: 'shell', arguments: '{"command":["ls"]}' },
  { name: 'exec_command', arguments: '{"cmd":"ls"}' },
];

const upstream = await new ScriptedUpstream().start(Number(arg('--port') ?? 0));
upstream.keepRequests = false;
const log = arg('--log');
upstream.fallback = (req) => {
  if (log !== undefined) appendFileSync(log, `${JSON.stringify({ headers: req.headers, body: req.body })}\n`);
  return answer(req);
};
const urlFile = arg('--url-file');
if (urlFile !== undefined) writeFileSync(urlFile, upstream.url + '\n');
console.log(upstream.url);
const stop = () => void upstream.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
