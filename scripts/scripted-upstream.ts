// Runs the scripted OpenAI-compatible upstream of the tests (test/support/scripted-upstream.ts) as
// its own process, for manual runs and scripts/openclaw-smoke.sh. It prints its base URL and
// answers until killed. Answers: a user message containing LIST_FILES gets a tool call
// `ls {"path":"."}` (when the request offers an `ls` tool); tool results get a one-line summary;
// anything else gets a one-line text reply naming the user's message.
// Usage: node --import tsx scripts/scripted-upstream.ts [--port N] [--url-file PATH]
import { writeFileSync } from 'node:fs';
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
  if (last?.role === 'user' && said.includes('LIST_FILES') && tools.includes('ls'))
    return { kind: 'tool_call', name: 'ls', arguments: '{"path":"."}', id: 'call_smoke_1' };
  return { kind: 'text', text: `Scripted reply to: ${said}` };
}

const upstream = await new ScriptedUpstream().start(Number(arg('--port') ?? 0));
upstream.keepRequests = false;
upstream.fallback = answer;
const urlFile = arg('--url-file');
if (urlFile !== undefined) writeFileSync(urlFile, upstream.url + '\n');
console.log(upstream.url);
const stop = () => void upstream.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
